import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createHost, type Host } from '../../app/host/host.js';
import { everythingServer } from '../support/everything-server.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';

/**
 * A host on `dir` whose server "everything" is server-everything over stdio, saved with
 * `transport` (an HTTP one is started over stdio all the same, so that its task runs).
 */
async function hostAt(
  dir: string,
  transport?: { type: 'http'; url: string } | typeof everythingServer.transport
): Promise<Host> {
  const host = createHost({
    dataDir: dir,
    autoConnect: false,
    transportFactory: () =>
      new StdioClientTransport({ command: everythingServer.transport.command, args: everythingServer.transport.args })
  });
  if (transport) await host.call('servers.add', { ...everythingServer, transport, autoConnect: false });
  return host;
}

/**
 * Calls server-everything's research tool as a task, which asks a question for it: resolves once
 * the question waits in the Inbox, with the task's id and its coming `outbound.ended`.
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
  await asked;
  const running = await host.call('outbound.get', { outboundId });
  assert.ok(['working', 'input_required'].includes(running.state), running.state);
  return { outboundId, ended: nextEvent(host, 'outbound.ended', (event) => event.outboundId === outboundId) };
}

// The tests run side by side, each with its own host, data directory and process: most of each
// is waiting (server-everything asks its question two seconds into the task, and a process it
// keeps running after its stdin ends is stopped two seconds later, by the SDK's close).
describe('the notification of a tool-call task lost by the person’s own act', { concurrency: true }, () => {
  /**
   * A connected host whose data directory is removed at the end of test `t`, `current` the host
   * in use (a restart replaces it).
   */
  async function connectedHost(
    t: TestContext,
    transport: Parameters<typeof hostAt>[1] = everythingServer.transport
  ): Promise<{ dir: string; current: Host }> {
    const data = tempDir();
    const state = { dir: data.dir, current: await hostAt(data.dir, transport) };
    t.after(async () => {
      await state.current.close();
      data.remove();
    });
    assert.equal((await state.current.connect('everything')).state.status, 'ready');
    return state;
  }

  it('a Disconnect of a stdio server loses its running task without a notification, and the task says so after a restart', async (t) => {
    const state = await connectedHost(t);
    const { outboundId, ended } = await researchTask(state.current);

    await state.current.call('servers.disconnect', { serverId: 'everything' });
    const event = await ended;
    assert.equal(event.state, 'lost');
    assert.equal(event.notice, undefined);
    const lost = await state.current.call('outbound.get', { outboundId });
    assert.equal(lost.state, 'lost');
    assert.equal(lost.lostByYou, true);

    await state.current.close();
    state.current = await hostAt(state.dir);
    const kept = await state.current.call('outbound.get', { outboundId });
    assert.equal(kept.state, 'lost');
    assert.equal(kept.lostByYou, true, 'written with the task');
  });

  it('a Save that restarts a stdio server loses its running task without a notification', async (t) => {
    const state = await connectedHost(t);
    const host = state.current;
    const { outboundId, ended } = await researchTask(host);
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
    const event = await ended;
    assert.equal(event.state, 'lost');
    assert.equal(event.notice, undefined);
    assert.equal((await host.call('outbound.get', { outboundId })).lostByYou, true);
    await ready;
  });

  it('a Remove of a stdio server loses its running task without a notification', async (t) => {
    const state = await connectedHost(t);
    const { outboundId, ended } = await researchTask(state.current);

    await state.current.call('servers.remove', { serverId: 'everything' });
    const event = await ended;
    assert.equal(event.state, 'lost');
    assert.equal(event.notice, undefined);
    assert.equal((await state.current.call('outbound.get', { outboundId })).lostByYou, true);
  });

  it('a Remove of an HTTP server loses its running task without a notification', async (t) => {
    const state = await connectedHost(t, { type: 'http', url: 'https://research.example/mcp' });
    const { outboundId, ended } = await researchTask(state.current);

    await state.current.call('servers.remove', { serverId: 'everything' });
    const event = await ended;
    assert.equal(event.state, 'lost');
    assert.equal(event.notice, undefined);
    const lost = await state.current.call('outbound.get', { outboundId });
    assert.equal(
      lost.reason,
      'You removed Everything: Taskdesk no longer has its settings, so it cannot ask about this task again.'
    );
    assert.equal(lost.lostByYou, true);
  });

  it('a stdio server whose process ends by itself still notifies of the task it lost', async (t) => {
    const state = await connectedHost(t);
    const host = state.current;
    const { outboundId, ended } = await researchTask(host);
    const failed = nextEvent(host, 'server.state', (p) => p.serverId === 'everything' && p.state.status === 'failed');
    const pid = (host.connection('everything')!.client.transport as unknown as { pid: number | null }).pid;
    assert.ok(pid);
    process.kill(pid, 'SIGKILL');
    await failed;

    assert.deepEqual((await ended).notice, {
      title: 'Everything no longer has the task of simulate-research-query',
      body: 'Everything’s process ended: it ran this task.'
    });
    assert.equal((await host.call('outbound.get', { outboundId })).lostByYou, undefined);
  });
});
