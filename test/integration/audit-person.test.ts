import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { systemClock } from '../../app/core/clock.js';
import { createHost } from '../../app/host/host.js';
import { addDemoServerIfNone } from '../../app/cli/demo-server.js';
import type { AuditEntry } from '../../app/contract/host-api.js';
import type { JournalSync } from '../../app/store/journal.js';
import { inboxHolds, nextEvent, peerServer, startHostWith, tempDir } from '../support/host-fixture.js';
import { createTaskToolPeer } from '../support/task-tool-server.js';
import { ManualClock } from '../support/manual-clock.js';

/** The audit log's entries of one type (or whose type starts with `type.`), oldest first, without their times. */
async function entries(
  host: { call: (method: 'audit.read', params: { type: string }) => Promise<AuditEntry[]> },
  type: string
): Promise<Array<Omit<AuditEntry, 'at'>>> {
  // The log reads newest first.
  return (await host.call('audit.read', { type })).reverse().map(({ at: _at, ...rest }) => rest);
}

/**
 * The audit log says what servers asked and what Taskdesk did: what the person did is part of
 * that (servers added, changed, imported and removed, tools called and cancelled, questions
 * answered), and so is a question its server withdrew.
 */
describe('the audit log records what the person did', () => {
  it('servers added, edited (the fields that changed, by name), imported and removed', async () => {
    const data = tempDir();
    const host = createHost({ dataDir: data.dir, autoConnect: false });
    try {
      await host.call('servers.add', {
        id: 'cli',
        name: 'CLI',
        transport: { type: 'stdio', command: 'mcp-thing', env: { TOKEN: 'sk-live-secret-1' } },
        autoConnect: false
      });
      const settings = await host.call('servers.get', { serverId: 'cli' });
      const { id: _id, editable: _editable, ...editable } = settings;
      await host.call('servers.update', { serverId: 'cli', settings: { ...editable, name: 'CLI tool' } });
      // A transport's fields are named one by one: the command and its arguments, not "transport".
      assert.equal(editable.transport.type, 'stdio');
      await host.call('servers.update', {
        serverId: 'cli',
        settings: {
          ...editable,
          name: 'CLI tool',
          transport: { ...editable.transport, command: 'mcp-thing-2', args: ['--quiet'] }
        }
      });
      await host.call('servers.importAdd', {
        origin: { text: JSON.stringify({ mcpServers: { web: { url: 'https://mcp.example/mcp' } } }) },
        picks: [{ key: 'web' }],
        onClash: 'rename'
      });
      await host.call('servers.remove', { serverId: 'cli' });

      assert.deepEqual(await entries(host, 'server'), [
        { type: 'server.added', serverId: 'cli', serverName: 'CLI', detail: { transport: 'stdio' } },
        {
          type: 'server.updated',
          serverId: 'cli',
          serverName: 'CLI tool',
          detail: { changed: ['name'], previousName: 'CLI' }
        },
        {
          type: 'server.updated',
          serverId: 'cli',
          serverName: 'CLI tool',
          detail: { changed: ['transport.command', 'transport.args'] }
        },
        {
          type: 'server.imported',
          serverId: 'web',
          serverName: 'web',
          detail: { key: 'web', from: 'pasted text', transport: 'http' }
        },
        { type: 'server.removed', serverId: 'cli', serverName: 'CLI tool' }
      ]);
      assert.doesNotMatch(JSON.stringify(await host.call('audit.read', {})), /sk-live-secret-1/);
    } finally {
      await host.close();
      data.remove();
    }
  });

  it('a tool call with its outcome, a question answered, and an ordinary question its server withdrew', async () => {
    const { mcp, peer } = createTaskToolPeer({ clock: systemClock, pollInterval: 50 });
    const fixture = await startHostWith({ a: peer });
    const { host } = fixture;
    try {
      const outcome = await host.call('tools.call', {
        serverId: 'a',
        name: 'work-forbidden',
        arguments: { label: 'weekly', password: 'hunter2' }
      });
      assert.equal(outcome.type, 'result');
      // The call as it was made, and how it ended, each in an entry of its own, by the id Taskdesk
      // gave the call (this caller gave none).
      const tool = await entries(host, 'tool');
      const callId = (tool[0]?.detail as { callId?: string } | undefined)?.callId;
      assert.match(callId ?? '', /^call-/);
      assert.deepEqual(tool, [
        {
          type: 'tool.called',
          serverId: 'a',
          serverName: 'Server a',
          detail: { tool: 'work-forbidden', arguments: { label: 'weekly', password: '[redacted]' }, callId }
        },
        {
          type: 'tool.call-ended',
          serverId: 'a',
          serverName: 'Server a',
          detail: { tool: 'work-forbidden', outcome: 'result', callId }
        }
      ]);

      const schema = { type: 'object' as const, properties: { city: { type: 'string' as const } } };
      const answered = mcp.server.elicitInput({ mode: 'form', message: 'Which city?', requestedSchema: schema });
      const withdrawn = new AbortController();
      const dropped = mcp.server
        .elicitInput({ mode: 'form', message: 'Which team?', requestedSchema: schema }, { signal: withdrawn.signal })
        .catch((error: unknown) => error);
      await inboxHolds(host, 2);
      const items = await host.call('inbox.list', {});
      const city = items.find((item) => item.request.message === 'Which city?')!;
      await host.call('inbox.answer', { id: city.id, answer: { action: 'accept', content: { city: 'Oslo' } } });
      assert.deepEqual((await answered).content, { city: 'Oslo' });
      const removed = new Promise<void>((resolve) => {
        const off = host.on('inbox.removed', ({ why }) => {
          if (why !== 'withdrawn') return;
          off();
          resolve();
        });
      });
      withdrawn.abort('no longer needed');
      await dropped;
      await removed;

      assert.deepEqual(await entries(host, 'inbox'), [
        {
          type: 'inbox.answered',
          serverId: 'a',
          serverName: 'Server a',
          detail: { kind: 'elicitation', question: 'Which city?', action: 'accept' }
        },
        {
          type: 'inbox.withdrawn',
          serverId: 'a',
          serverName: 'Server a',
          detail: { kind: 'elicitation', question: 'Which team?' }
        }
      ]);
      assert.doesNotMatch(
        JSON.stringify(await host.call('audit.read', {})),
        /Oslo/,
        'what the person answered stays out of the log'
      );
    } finally {
      await fixture.dispose();
    }
  });

  it('the bundled demo server added on a first launch: as Taskdesk’s doing, with no ask to connect of the person', async () => {
    const data = tempDir();
    const host = createHost({ dataDir: data.dir, autoConnect: false });
    try {
      const demo = {
        id: 'everything',
        name: 'Everything (demo)',
        transport: { type: 'stdio' as const, command: process.execPath, args: ['-e', ''] },
        autoConnect: true
      };
      const tried = nextEvent(host, 'server.state', ({ serverId, state }) => {
        return serverId === 'everything' && state.status !== 'connecting';
      });
      assert.equal(await addDemoServerIfNone(host, demo), true);
      // Its connect was started, as the person's Connect would have.
      await tried;
      const said = await entries(host, 'server');
      assert.deepEqual(said[0], {
        type: 'server.added',
        serverId: 'everything',
        serverName: 'Everything (demo)',
        detail: { transport: 'stdio', by: 'taskdesk' }
      });
      assert.deepEqual(
        said.filter((entry) => entry.type !== 'server.state').map((entry) => entry.type),
        ['server.added'],
        'no “You asked to connect the server”'
      );
      assert.ok(
        said.some((entry) => entry.type === 'server.state'),
        'its connection is recorded'
      );
    } finally {
      await host.close();
      data.remove();
    }
  });

  it('a server removed: its connection closed by the person, not by Taskdesk', async () => {
    const data = tempDir();
    const peer = peerServer('a');
    const host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      transportFactory: () => {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        void peer.server.connect(serverSide);
        return clientSide;
      }
    });
    try {
      // Saved from the Desk, as the person's servers are: a configured one cannot be removed.
      await host.call('servers.add', {
        id: 'a',
        name: 'Server a',
        transport: { type: 'stdio', command: 'in-memory-a' },
        autoConnect: false
      });
      assert.equal((await host.call('servers.connect', { serverId: 'a' })).state.status, 'ready');
      await host.call('servers.remove', { serverId: 'a' });
      const closed = (await entries(host, 'server')).filter(
        (entry) => entry.type === 'server.state' && entry.detail?.status === 'closed'
      );
      assert.deepEqual(
        closed.map((entry) => entry.detail?.reason),
        ['Disconnected by you']
      );
      assert.equal((await entries(host, 'server')).at(-1)?.type, 'server.removed');
    } finally {
      await host.close();
      data.remove();
    }
  });

  it('connects and disconnects as asked, each change once', async () => {
    const fixture = await startHostWith({ a: peerServer('a') });
    const { host } = fixture;
    try {
      await host.call('servers.disconnect', { serverId: 'a' });
      await host.call('servers.connect', { serverId: 'a' });
      const of = (await entries(host, 'server')).filter((entry) => entry.serverId === 'a');
      const said = of.map((entry) =>
        entry.type === 'server.state' ? `state ${String(entry.detail?.status)}` : entry.type
      );
      assert.deepEqual(said.slice(said.indexOf('server.disconnect-asked')), [
        'server.disconnect-asked',
        'state closed',
        'server.connect-asked',
        'state connecting',
        'state ready'
      ]);
      assert.equal(of.find((entry) => entry.type === 'server.connect-asked')?.serverName, 'Server a');
    } finally {
      await fixture.dispose();
    }
  });

  it('a tool call run as a task: its start, and its end once, with how it ended and who cancelled it', async () => {
    const { peer } = createTaskToolPeer({ clock: systemClock, pollInterval: 20 });
    const fixture = await startHostWith({ a: peer });
    const { host } = fixture;
    try {
      const started = async (name: string, durationMs: number) => {
        const outcome = await host.call('tools.call', { serverId: 'a', name, arguments: { durationMs } });
        assert.equal(outcome.type, 'task');
        return outcome.type === 'task' ? outcome.task.outboundId : '';
      };
      const done = await started('work-required', 10);
      const failed = await started('fail-rpc', 10);
      const slow = await started('slow', 60_000);
      await host.call('outbound.cancel', { outboundId: slow });
      const ended = async () => (await entries(host, 'tool')).filter((entry) => entry.type === 'tool.task-ended');
      // Read again each time the log has new entries, until the three ends are in. The host's
      // timers do not hold the process open (nor does an in-memory server): the bound does.
      let bound: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => {
          const check = () =>
            void ended().then((list) => {
              if (list.length < 3) return;
              off();
              resolve();
            });
          const off = host.on('audit.changed', check);
          check();
        }),
        new Promise((_, reject) => {
          bound = setTimeout(() => reject(new Error('the three ends were not recorded within 10 s')), 10_000);
        })
      ]);
      clearTimeout(bound);
      // Looked at again: nothing more happens to an ended task, and nothing more is recorded.
      await host.call('outbound.refresh', { outboundId: done }).catch(() => undefined);
      host.audit.flush();
      const byId = new Map((await ended()).map((entry) => [entry.detail?.outboundId, entry.detail]));
      assert.equal((await ended()).length, 3, 'one entry a task');
      assert.deepEqual(byId.get(done), {
        tool: 'work-required',
        outboundId: done,
        state: 'completed',
        outcome: 'result'
      });
      assert.equal(byId.get(failed)?.state, 'failed');
      // The server's status message, said as one: no reason of Taskdesk's.
      assert.equal(byId.get(failed)?.statusMessage, 'The upstream service refused the job');
      assert.equal(byId.get(failed)?.reason, undefined);
      assert.equal(byId.get(slow)?.state, 'cancelled');
      assert.equal(byId.get(slow)?.cancelledBy, 'you');
      // Every call is recorded too, and every task's start (its call ending as a task), before its end.
      const all = await entries(host, 'tool');
      const called = all.filter((entry) => entry.type === 'tool.called');
      assert.equal(called.length, 3);
      for (const id of [done, failed, slow])
        assert.deepEqual(
          all
            .filter((entry) => entry.detail?.outboundId === id && entry.type !== 'tool.task-cancelled')
            .map((entry) => entry.type),
          ['tool.call-ended', 'tool.task-ended'],
          id
        );
    } finally {
      await fixture.dispose();
    }
  });

  it('a task that ends before its call returns: its call recorded first, then its end', async () => {
    const clock = new ManualClock();
    const { peer } = createTaskToolPeer({ clock, pollInterval: 10 });
    // The outbound tasks' journal syncs wait until the test lets them go: a call that became a
    // task returns only once its task is durable, and the task ends meanwhile.
    const held: Array<() => void> = [];
    const outboundJournalSync: JournalSync = (fd, callback) => held.push(() => fs.fdatasync(fd, callback));
    const fixture = await startHostWith({ a: peer }, { clock, outboundJournalSync });
    const { host } = fixture;
    try {
      const created = nextEvent(host, 'outbound.changed', (event) => event.type === 'changed');
      const ended = nextEvent(
        host,
        'outbound.changed',
        (event) => event.type === 'changed' && event.task.state === 'completed' && event.task.outcome !== undefined
      );
      let returned = false;
      const call = host
        .call('tools.call', { serverId: 'a', name: 'work-required', arguments: { durationMs: 10 } })
        .finally(() => (returned = true));
      await created;
      await clock.advance(100);
      const { task } = (await ended) as { task: { outboundId: string } };
      assert.equal(returned, false, 'the task ended before its call returned');
      for (const release of held.splice(0)) release();
      const outcome = await call;
      assert.equal(outcome.type === 'task' && outcome.task.outboundId, task.outboundId);
      assert.deepEqual(
        (await entries(host, 'tool')).map((entry) => [entry.type, entry.detail?.outboundId, entry.detail?.outcome]),
        [
          ['tool.called', undefined, undefined],
          ['tool.call-ended', task.outboundId, 'task'],
          ['tool.task-ended', task.outboundId, 'result']
        ]
      );
    } finally {
      for (const release of held.splice(0)) release();
      await fixture.dispose();
    }
  });

  it('a task that expired while Taskdesk was stopped: its end recorded once, at the next start; an end already recorded, not again', async () => {
    const clock = new ManualClock();
    const options = { clock, requestorDefaultTtlMs: 10_000 };
    let fixture = await startHostWith({ a: createTaskToolPeer({ clock, pollInterval: 60_000 }).peer }, options);
    const dir = fixture.dir;
    const ended = async () => (await entries(fixture.host, 'tool')).filter((entry) => entry.type === 'tool.task-ended');
    try {
      const started = async () => {
        const outcome = await fixture.host.call('tools.call', {
          serverId: 'a',
          name: 'slow',
          arguments: { durationMs: 600_000 }
        });
        assert.equal(outcome.type, 'task');
        return outcome.type === 'task' ? outcome.task.outboundId : '';
      };
      const left = await started();
      const cancelled = await started();
      await fixture.host.call('outbound.cancel', { outboundId: cancelled });
      await clock.advance(1);
      fixture.host.audit.flush();
      assert.deepEqual(
        (await ended()).map((entry) => [entry.detail?.outboundId, entry.detail?.state]),
        [[cancelled, 'cancelled']]
      );
      await fixture.stop();

      // Past the ttl while Taskdesk is stopped: the task expires as the next run starts.
      await clock.advance(20_000);
      fixture = await startHostWith({ a: peerServer() }, { ...options, dir });
      await clock.advance(1);
      fixture.host.audit.flush();
      assert.equal(fixture.host.requestor.get(left)?.state, 'expired');
      assert.deepEqual(
        (await ended()).map((entry) => [entry.detail?.outboundId, entry.detail?.state]),
        [
          [cancelled, 'cancelled'],
          [left, 'expired']
        ]
      );
      await fixture.stop();

      // Both ends were recorded by earlier runs: the next one records neither again.
      fixture = await startHostWith({ a: peerServer() }, { ...options, dir });
      await clock.advance(1);
      fixture.host.audit.flush();
      assert.equal((await ended()).length, 2);
    } finally {
      await fixture.dispose();
    }
  });
});
