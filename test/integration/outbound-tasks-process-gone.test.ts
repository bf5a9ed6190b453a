import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { systemClock } from '../../app/core/clock.js';
import { createHost, type Host } from '../../app/host/host.js';
import { everythingServer } from '../support/everything-server.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { startTaskToolHttpServer } from '../support/requestor-http-server.js';
import { ClockedTaskStore } from '../support/requestor-task-store.js';

/** A host on `dir` that knows server-everything over stdio (saved, so that its settings can be changed). */
async function hostAt(dir: string, add: boolean): Promise<Host> {
  const host = createHost({ dataDir: dir, autoConnect: false });
  if (add) await host.call('servers.add', { ...everythingServer, autoConnect: false });
  return host;
}

/**
 * Calls server-everything's research tool as a task, which asks a question for it: resolves once
 * the question waits in the Inbox, with the task's id and what the question's removal says.
 */
async function researchTask(host: Host) {
  const asked = nextEvent(host, 'inbox.added', ({ item }) => item.serverId === 'everything');
  const outcome = await host.call('tools.call', {
    serverId: 'everything',
    name: 'simulate-research-query',
    arguments: { topic: 'python', ambiguous: true }
  });
  assert.equal(outcome.type, 'task');
  const outboundId = outcome.type === 'task' ? outcome.task.outboundId : '';
  const { item } = await asked;
  const running = await host.call('outbound.get', { outboundId });
  assert.ok(['working', 'input_required'].includes(running.state), running.state);
  return { outboundId, removed: nextEvent(host, 'inbox.removed', ({ id }) => id === item.id) };
}

// The tests run side by side, each with its own host, data directory and process: most of each
// is waiting (server-everything asks its question two seconds into the task, and a process it
// keeps running after its stdin ends is stopped two seconds later, by the SDK's close).
describe('tool-call tasks of a server whose connection ends', { concurrency: true }, () => {
  /**
   * A host whose data directory is removed at the end of test `t`, `current` the host in use (a
   * restart replaces it).
   */
  async function stdioHost(t: TestContext): Promise<{ dir: string; current: Host }> {
    const data = tempDir();
    const state = { dir: data.dir, current: await hostAt(data.dir, true) };
    t.after(async () => {
      await state.current.close();
      data.remove();
    });
    assert.equal((await state.current.connect('everything')).state.status, 'ready');
    return state;
  }

  it('a stdio server’s Disconnect ends its running task at once as lost, in the person’s words, kept so after a restart', async (t) => {
    const state = await stdioHost(t);
    const { outboundId, removed } = await researchTask(state.current);
    const reason = 'You disconnected Everything: its process, which ran this task, was stopped.';
    const ended = nextEvent(state.current, 'outbound.ended', (event) => event.outboundId === outboundId);

    await state.current.call('servers.disconnect', { serverId: 'everything' });
    // At once: not at the next Connect, in the server's terms.
    const lost = await state.current.call('outbound.get', { outboundId });
    assert.equal(lost.state, 'lost');
    assert.equal(lost.reason, reason);
    assert.equal((await ended).state, 'lost');
    // Its question no longer waits in the Inbox.
    assert.equal((await removed).why, 'withdrawn');
    assert.equal(state.current.inbox.size, 0);
    const listed = (await state.current.call('outbound.list', {})).find((task) => task.outboundId === outboundId);
    assert.equal(listed?.reason, reason);

    await state.current.close();
    state.current = await hostAt(state.dir, false);
    const kept = await state.current.call('outbound.get', { outboundId });
    assert.equal(kept.state, 'lost', 'written as it ended');
    assert.equal(kept.reason, reason);
    // Connected again (a new process): it stays as it ended, in the same words.
    assert.equal((await state.current.connect('everything')).state.status, 'ready');
    const again = await state.current.call('outbound.get', { outboundId });
    assert.equal(again.state, 'lost');
    assert.equal(again.reason, reason);
  });

  it('a Save that restarts a stdio server ends its running task as lost, in that Save’s words', async (t) => {
    const state = await stdioHost(t);
    const host = state.current;
    const { outboundId } = await researchTask(host);
    const { id: _id, editable: _editable, ...settings } = await host.call('servers.get', { serverId: 'everything' });
    assert.equal(settings.transport.type, 'stdio');
    const ready = nextEvent(
      host,
      'server.state',
      ({ serverId, state: server }) => serverId === 'everything' && server.status === 'ready'
    );
    // Another env var: how it is started changes, so Taskdesk starts it again.
    const saved = await host.call('servers.update', {
      serverId: 'everything',
      settings: {
        ...settings,
        transport: { ...settings.transport, env: [{ name: 'TASKDESK_TEST_SHELF', value: 'two', secret: false }] }
      }
    });
    assert.equal(saved.reconnects, true);
    const reason =
      'You changed Everything’s settings, and Taskdesk restarted it: its process, which ran this task, was stopped.';
    const lost = await host.call('outbound.get', { outboundId });
    assert.equal(lost.state, 'lost');
    assert.equal(lost.reason, reason);
    // The new process does not change what is said of it.
    await ready;
    const after = await host.call('outbound.get', { outboundId });
    assert.equal(after.state, 'lost');
    assert.equal(after.reason, reason);
  });

  it('a stdio server whose process is killed: its running task is lost at once, in words of the process', async (t) => {
    const state = await stdioHost(t);
    const host = state.current;
    const { outboundId } = await researchTask(host);
    const ended = nextEvent(host, 'outbound.ended', (event) => event.outboundId === outboundId);
    const failed = nextEvent(host, 'server.state', (p) => p.serverId === 'everything' && p.state.status === 'failed');
    const pid = (host.connection('everything')!.client.transport as unknown as { pid: number | null }).pid;
    assert.ok(pid);
    process.kill(pid, 'SIGKILL');
    await failed;

    const lost = await host.call('outbound.get', { outboundId });
    assert.equal(lost.state, 'lost');
    assert.equal(lost.reason, 'Everything’s process ended: it ran this task.');
    assert.doesNotMatch(lost.reason ?? '', /\byou\b/i);
    assert.deepEqual((await ended).notice, {
      title: 'Everything no longer has the task of simulate-research-query',
      body: 'Everything’s process ended: it ran this task.'
    });
  });

  it('a Remove still ends its task in Remove’s words', async (t) => {
    const state = await stdioHost(t);
    const { outboundId } = await researchTask(state.current);
    await state.current.call('servers.remove', { serverId: 'everything' });
    const lost = await state.current.call('outbound.get', { outboundId });
    assert.equal(lost.state, 'lost');
    assert.equal(lost.reason, 'You removed Everything: its process, which ran this task, was stopped.');
  });

  it('an HTTP server’s task stays after a Disconnect: it runs on the server, and is followed again at the next Connect', async (t) => {
    const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 100 });
    const server = await startTaskToolHttpServer({ clock: systemClock, store });
    const data = tempDir();
    const host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [{ id: 'remote', name: 'Remote', transport: { type: 'http', url: server.url.href } }]
    });
    t.after(async () => {
      await host.close();
      data.remove();
      await server.close();
      store.close();
    });
    assert.equal((await host.connect('remote')).state.status, 'ready');
    const outcome = await host.call('tools.call', {
      serverId: 'remote',
      name: 'work-required',
      arguments: { durationMs: 600_000, label: 'long' }
    });
    assert.equal(outcome.type, 'task');
    const outboundId = outcome.type === 'task' ? outcome.task.outboundId : '';

    assert.equal((await host.call('servers.disconnect', { serverId: 'remote' })).state.status, 'closed');
    const kept = await host.call('outbound.get', { outboundId });
    assert.equal(kept.state, 'working');
    assert.equal(kept.reason, undefined);

    assert.equal((await host.connect('remote')).state.status, 'ready');
    assert.equal((await host.call('outbound.refresh', { outboundId })).state, 'working');
  });
});
