import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { auditSentence } from '../../app/contract/audit-words.js';
import { createHost, Host } from '../../app/host/host.js';
import { tempDir } from '../support/host-fixture.js';

const here = path.dirname(fileURLToPath(import.meta.url));

const UNCLEAN =
  /^Taskdesk did not close cleanly last time \(last seen running at about [^)]+\): 1 question without a task was waiting, from Slow server \(“Ship the release to every customer now\? [^”]*…”\), and 1 tool call without a task was running, on Slow server; the server that asked was not answered, and the call’s result was not received\. History lists them as not finished\. Tasks are kept, /;

describe('plain work open when Taskdesk is killed', () => {
  it('is listed in History at the next start as not finished, with its server, tool or question, and start time', async () => {
    const data = tempDir();
    const dataDir = path.join(data.dir, 'host');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(here, '..', 'support', 'open-work-host.ts'), dataDir],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group, so the kill reaches the host and the server it spawned.
        detached: true
      }
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal))
    );
    const startedBefore = Date.now();
    try {
      // The call runs and its server's question waits, both on disk: killed without closing.
      await new Promise<void>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('recorded\n')) resolve();
        });
        child.on('exit', () => reject(new Error(`The host exited before recording its open work: ${stderr}`)));
      });
      process.kill(-child.pid!, 'SIGKILL');
      assert.equal(await exited, 'SIGKILL', stderr);

      const host = new Host({ dataDir, autoConnect: false });
      try {
        await host.start().leftOpenWork;
        assert.equal(host.warnings.length, 1, JSON.stringify(host.warnings));
        assert.match(host.warnings[0]!.message, UNCLEAN);
        const { entries } = await host.call('history.list', {});
        const call = entries.find((entry) => entry.kind === 'tool-call');
        const question = entries.find((entry) => entry.kind === 'elicitation');
        assert.ok(call && question, JSON.stringify(entries));
        assert.equal(entries.length, 2, JSON.stringify(entries));
        assert.equal(call.serverName, 'Slow server');
        assert.equal(call.title, 'Tool call: wait');
        // Its arguments, as it was called with them.
        assert.deepEqual((await host.call('history.get', { id: call.id })).request, {
          name: 'wait',
          arguments: { label: 'nightly' }
        });
        assert.equal(call.status, 'failed');
        assert.equal(
          call.statusMessage,
          'Not finished: Taskdesk stopped while the call ran; its result was not received'
        );
        assert.equal(question.serverName, 'Slow server');
        assert.equal(question.direction, 'received');
        assert.equal(question.status, 'failed');
        assert.equal(
          question.statusMessage,
          'Not finished: Taskdesk stopped before it was answered; the server was not answered'
        );
        // Its question quoted at most 80 characters, cut with an ellipsis.
        assert.match(question.title, /^Ship the release to every customer now\? .*…$/);
        assert.ok(question.title.length <= 80, question.title);
        for (const entry of [call, question]) {
          const started = Date.parse(entry.createdAt);
          assert.ok(started >= startedBefore && started <= Date.now(), entry.createdAt);
          assert.ok(Date.parse(entry.endedAt!) >= started, `${entry.endedAt} after ${entry.createdAt}`);
        }
        // The audit log has an entry for each, as a clean close writes them.
        const ended = await host.call('audit.read', { type: 'tool.call-ended' });
        assert.equal(ended.length, 1, JSON.stringify(ended));
        assert.equal(ended[0]?.serverName, 'Slow server');
        assert.deepEqual(
          { tool: ended[0]?.detail?.tool, outcome: ended[0]?.detail?.outcome },
          { tool: 'wait', outcome: 'not-finished' }
        );
        assert.equal(
          auditSentence(ended[0]),
          'The call to the tool wait did not finish: Taskdesk stopped while it ran, without closing'
        );
        const withdrawn = await host.call('audit.read', { type: 'inbox.withdrawn' });
        assert.equal(withdrawn.length, 1, JSON.stringify(withdrawn));
        assert.equal(withdrawn[0]?.serverName, 'Slow server');
        assert.equal(withdrawn[0]?.detail?.kind, 'elicitation');
        assert.match(String(withdrawn[0]?.detail?.question), /^Ship the release/);
        assert.equal(
          withdrawn[0]?.detail?.reason,
          'Not finished: Taskdesk stopped before it was answered; the server was not answered'
        );
        // Found by what the row says.
        assert.equal((await host.call('history.list', { filter: { text: 'not finished' } })).entries.length, 2);
        assert.deepEqual(fs.readdirSync(path.join(dataDir, 'open-work')), [], 'what was left is taken once');
      } finally {
        await host.close();
      }

      // Said once: the next start lists nothing again.
      const again = createHost({ dataDir, autoConnect: false });
      try {
        assert.deepEqual(again.warnings, []);
        assert.equal((await again.call('history.list', {})).entries.length, 2);
      } finally {
        await again.close();
      }
      assert.deepEqual(fs.readdirSync(path.join(dataDir, 'open-work')), [], 'a clean close leaves no record');
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
      data.remove();
    }
  });

  it('is said to have been seen running no earlier than the last work its record kept', async () => {
    const data = tempDir();
    const dataDir = path.join(data.dir, 'host');
    try {
      // The marker is touched once a minute: the run's record was written well after it.
      // In whole seconds: a file's time may be kept more or less precisely than a millisecond.
      const lastWork = Math.floor(Date.now() / 1000) * 1000 - 60_000;
      const markerAt = new Date(lastWork - 10 * 60_000);
      fs.mkdirSync(path.join(dataDir, 'running'), { recursive: true });
      const marker = path.join(dataDir, 'running', 'earlier-run.json');
      fs.writeFileSync(marker, '{}\n');
      fs.utimesSync(marker, markerAt, markerAt);
      fs.mkdirSync(path.join(dataDir, 'open-work'), { recursive: true });
      const record = path.join(dataDir, 'open-work', 'earlier-run.jsonl');
      fs.writeFileSync(
        record,
        `${JSON.stringify({
          start: {
            id: 1,
            kind: 'tool-call',
            serverId: 'slow',
            serverName: 'Slow server',
            toolName: 'wait',
            arguments: {},
            startedAt: new Date(lastWork - 3_000).toISOString()
          }
        })}\n`
      );
      fs.utimesSync(record, new Date(lastWork), new Date(lastWork));

      const host = new Host({ dataDir, autoConnect: false });
      try {
        await host.start().leftOpenWork;
        const when = new Date(lastWork).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
        assert.equal(host.warnings.length, 1, JSON.stringify(host.warnings));
        assert.ok(
          host.warnings[0]!.message.startsWith(
            `Taskdesk did not close cleanly last time (last seen running at about ${when}): `
          ),
          host.warnings[0]!.message
        );
        const { entries } = await host.call('history.list', {});
        assert.equal(entries[0]?.endedAt, new Date(lastWork).toISOString());
      } finally {
        await host.close();
      }
    } finally {
      data.remove();
    }
  });

  it('is audited once, though a start that listed it stopped before it removed its record', async () => {
    const data = tempDir();
    const dataDir = path.join(data.dir, 'host');
    const dir = path.join(dataDir, 'open-work');
    const record = path.join(dir, 'earlier-run.jsonl');
    const line = `${JSON.stringify({
      start: {
        id: 1,
        kind: 'tool-call',
        serverId: 'slow',
        serverName: 'Slow server',
        toolName: 'wait',
        startedAt: new Date().toISOString()
      }
    })}\n`;
    try {
      for (let start = 1; start <= 2; start++) {
        // The second time, the record is back as that start found it: as if it had stopped after
        // History held the entry but before the record went.
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(record, line);
        const host = new Host({ dataDir, autoConnect: false });
        try {
          await host.start().leftOpenWork;
          assert.ok(!fs.existsSync(record), `start ${start}: removed once History holds it`);
          assert.equal((await host.call('history.list', {})).entries.length, 1, `start ${start}`);
          const ended = await host.call('audit.read', { type: 'tool.call-ended' });
          assert.deepEqual(
            ended.map((entry) => entry.detail?.outcome),
            ['not-finished'],
            `start ${start}: ${JSON.stringify(ended)}`
          );
        } finally {
          await host.close();
        }
      }
    } finally {
      data.remove();
    }
  });

  it('is kept in its record until History holds it on disk: a kill in between loses nothing and lists it once', async () => {
    const data = tempDir();
    const dataDir = path.join(data.dir, 'host');
    const dir = path.join(dataDir, 'open-work');
    fs.mkdirSync(dir, { recursive: true });
    // What an earlier run (its process long gone: no number) left open.
    const record = path.join(dir, 'earlier-run.jsonl');
    fs.writeFileSync(
      record,
      `${JSON.stringify({
        start: {
          id: 1,
          kind: 'tool-call',
          serverId: 'slow',
          serverName: 'Slow server',
          toolName: 'wait',
          startedAt: new Date().toISOString()
        }
      })}\n`
    );
    // A run whose History write of it never lands: killed while it waits.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(here, '..', 'support', 'held-history-host.ts'), dataDir],
      { stdio: ['ignore', 'pipe', 'pipe'] }
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal))
    );
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('held\n')) resolve();
        });
        child.on('exit', () => reject(new Error(`The host exited before writing its history: ${stderr}`)));
      });
      assert.ok(fs.existsSync(record), 'kept while History has not written it');
      child.kill('SIGKILL');
      assert.equal(await exited, 'SIGKILL', stderr);

      const host = new Host({ dataDir, autoConnect: false });
      try {
        const { leftOpenWork } = host.start();
        assert.ok(fs.existsSync(record), 'kept until History has written it');
        await leftOpenWork;
        assert.ok(!fs.existsSync(record), 'removed once History has written it');
        const { entries } = await host.call('history.list', {});
        // The killed run may have written its entry without syncing it: still one entry.
        assert.equal(entries.length, 1, JSON.stringify(entries));
        assert.equal(entries[0]?.title, 'Tool call: wait');
        assert.equal(
          entries[0]?.statusMessage,
          'Not finished: Taskdesk stopped while the call ran; its result was not received'
        );
      } finally {
        await host.close();
      }
      const again = createHost({ dataDir, autoConnect: false });
      try {
        assert.equal((await again.call('history.list', {})).entries.length, 1);
      } finally {
        await again.close();
      }
    } finally {
      child.kill('SIGKILL');
      data.remove();
    }
  });
});
