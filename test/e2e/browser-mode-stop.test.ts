import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { createParser } from 'eventsource-parser';
import { createHost } from '../../app/host/host.js';
import { tempDir } from '../support/host-fixture.js';
import { buildRenderer, root } from './renderer-build.js';

const require = createRequire(import.meta.url);

/**
 * How long browser mode's event loop is held busy as the stop signal comes: a close can take that
 * long (closing Streamable HTTP connections with tasks open, a demo server ended with the group),
 * and it is far longer than the 60 ms the `tsx` command waited before it killed its child (30 ms for
 * its child's word that the signal came, twice).
 */
const BUSY_MS = 500;
const UNCLEAN = /^Taskdesk did not close cleanly last time/;
const CANCELLED_QUESTION =
  /^When Taskdesk last closed \(at [^)]+\), 1 question for a task was waiting, from Everything HTTP \(“[^”]+”\): Taskdesk cancelled it; the server that asked was not answered\. History lists it as “Cancelled by Taskdesk”\.$/;

const CLOSED_WITH_QUESTION =
  /^Taskdesk closed\. 1 question for a task was waiting, from Everything HTTP \(“[^”]+”\): Taskdesk cancelled it; the server that asked was not answered\.$/m;

/** A port free on 127.0.0.1 just now: server-everything takes its port from `PORT` and does not say which one it got. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** The reference server-everything over Streamable HTTP, as a child process of its own. */
async function everythingOverHttp(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'streamableHttp'],
    { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] }
  );
  await new Promise<void>((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (stderr.includes(`listening on port ${port}`)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}):\n${stderr}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

/** `npm run start:browser` in a process group of its own, as a terminal starts it, and what it printed. */
async function startBrowserMode(dataDir: string, rendererDir: string) {
  const child = spawn('npm', ['run', '--silent', 'start:browser', '--', '--port', '0', '--renderer-dir', rendererDir], {
    cwd: root,
    env: { ...process.env, TASKDESK_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  // Every process of the group writes to these pipes: they close when the last one has ended.
  const ended = Promise.all([once(child.stdout, 'close'), once(child.stderr, 'close')]);
  const [, base, token] = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const onData = () => {
      const match = stdout.match(/Open (http:\/\/127\.0\.0\.1:\d+)\/\?token=(\S+)/);
      if (match) {
        child.stdout.off('data', onData);
        resolve(match);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`browser mode exited (${code}):\n${stdout}\n${stderr}`)));
  });
  const call = async (method: string, params: unknown) => {
    const response = await fetch(`${base}/api/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-taskdesk-token': token!, origin: base! },
      body: JSON.stringify({ method, params })
    });
    const reply = (await response.json()) as { ok: boolean; result?: unknown; error?: { message: string } };
    assert.ok(reply.ok, `${method}: ${reply.error?.message}`);
    return reply.result;
  };
  /** Resolves with the first host event of that name the page's event stream brings. */
  const nextEvent = async (name: string): Promise<unknown> => {
    const abort = new AbortController();
    const response = await fetch(`${base}/api/events?token=${token}`, { signal: abort.signal });
    const decoder = new TextDecoder();
    return new Promise((resolve, reject) => {
      const parser = createParser({
        onEvent: ({ data }) => {
          const { event, payload } = JSON.parse(data) as { event: string; payload: unknown };
          if (event !== name) return;
          abort.abort();
          resolve(payload);
        }
      });
      void (async () => {
        const reader = response.body!.getReader();
        for (let read = await reader.read(); !read.done; read = await reader.read())
          parser.feed(decoder.decode(read.value, { stream: true }));
      })().catch((error: unknown) => {
        if (!abort.signal.aborted) reject(error);
      });
    });
  };
  return { child, call, nextEvent, ended, output: () => `${stdout}\n${stderr}` };
}

/**
 * The newcomer's stop of `npm run start:browser`: SIGTERM to its process group (as a terminal's
 * Ctrl-C or a service manager does) while a task of a Streamable HTTP server waits on a question.
 * Browser mode used to run as the child of the `tsx` command, which kills (SIGKILL) its child when
 * the child has not said within 60 ms that the signal came (30 ms, twice), as a close busy for that long cannot.
 */
describe('npm run start:browser stopped by SIGTERM to its process group', () => {
  let everything: Awaited<ReturnType<typeof everythingOverHttp>>;
  let data: ReturnType<typeof tempDir>;
  let launched: Awaited<ReturnType<typeof startBrowserMode>> | undefined;
  let built: Awaited<ReturnType<typeof buildRenderer>>;

  before(async () => {
    built = await buildRenderer();
    everything = await everythingOverHttp();
    data = tempDir('taskdesk-browser-stop-');
  });

  after(async () => {
    if (launched) {
      try {
        process.kill(-launched.child.pid!, 'SIGKILL');
      } catch {
        // The whole group has ended.
      }
      await launched.ended;
    }
    everything?.child.kill();
    data?.remove();
    built?.remove();
  });

  it('closes in full with an HTTP server’s task waiting on a question: it says what it cancelled as it stops, and the next start says it, not an unclean stop', async () => {
    launched = await startBrowserMode(data.dir, built.dir);
    await launched.call('servers.add', {
      id: 'everything-http',
      name: 'Everything HTTP',
      transport: { type: 'http', url: everything.url }
    });
    await launched.call('servers.connect', { serverId: 'everything-http' });
    const asked = launched.nextEvent('inbox.added');
    const reply = (await launched.call('tools.call', {
      serverId: 'everything-http',
      name: 'simulate-research-query',
      arguments: { topic: 'tide tables', ambiguous: true },
      asTask: true
    })) as { type: string };
    assert.equal(reply.type, 'task');
    await asked;

    // Browser mode's own process is the one its running marker names. Held still as the signal
    // comes (SIGSTOP), it stands for a close that keeps the event loop busy: it answers no one.
    const [marker] = fs.readdirSync(path.join(data.dir, 'running'));
    const pid = Number(marker!.split('-')[0]);
    process.kill(pid, 'SIGSTOP');
    process.kill(-launched.child.pid!, 'SIGTERM');
    await delay(BUSY_MS);
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // Killed while it was held, and gone.
    }
    await launched.ended;
    const output = launched.output();
    assert.deepEqual(fs.readdirSync(path.join(data.dir, 'running')), [], `its running marker is removed:\n${output}`);
    // The terminal it was started in is told at once, in the words the next start uses.
    assert.match(output, CLOSED_WITH_QUESTION, output);

    const next = createHost({ dataDir: data.dir, autoConnect: false });
    try {
      const messages = next.warnings.map((warning) => warning.message);
      assert.deepEqual(
        messages.map((message) => UNCLEAN.test(message)),
        messages.map(() => false),
        messages.join('\n')
      );
      assert.equal(messages.filter((message) => CANCELLED_QUESTION.test(message)).length, 1, messages.join('\n'));
    } finally {
      await next.close();
    }
  });
});
