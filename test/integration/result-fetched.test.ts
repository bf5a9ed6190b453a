import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { CreateTaskResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { ManualClock } from '../support/manual-clock.js';
import type { Host } from '../../app/host/host.js';
import {
  inboxHolds,
  nextEvent,
  peerServer,
  startHostWith,
  type InMemoryHostFixture,
  type PeerServer
} from '../support/host-fixture.js';

/** A task-augmented question of `peer`'s, answered in the Inbox: its task id, once it has ended. */
async function answeredTask(host: Host, peer: PeerServer, ttl: number): Promise<string> {
  const created = await peer.server.request(
    {
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: 'Which depot?',
        requestedSchema: { type: 'object', properties: { depot: { type: 'string' } } },
        task: { ttl }
      }
    },
    CreateTaskResultSchema
  );
  await inboxHolds(host, 1);
  const [item] = await host.call('inbox.list', {});
  const ended = nextEvent(host, 'task.changed', ({ task }) => task?.task.status === 'completed');
  await host.call('inbox.answer', { id: item!.id, answer: { action: 'accept', content: { depot: 'east' } } });
  await ended;
  return created.task.taskId;
}

/**
 * A finished task's answer is kept for its server until its TTL ends; the Desk tells one the
 * server collected from one it never asked for (a stdio server started again has lost its
 * tasks): the first `tasks/result` that serves it is noted, kept over a restart.
 */
describe('when a server fetched a finished task’s result', () => {
  let fixture: InMemoryHostFixture | undefined;
  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  it('brings back no History entry that retention let go: the note is no step of the task', async () => {
    const clock = new ManualClock(Date.parse('2026-12-05T10:00:00.000Z'));
    const peer = peerServer();
    fixture = await startHostWith({ a: peer }, { clock });
    const { host } = fixture;
    await host.call('history.setRetention', { days: 1, maxEntries: 20_000 });
    const taskId = await answeredTask(host, peer, 7 * 86_400_000);
    const id = `received:${taskId}`;
    await host.call('history.get', { id });
    await clock.advance(2 * 86_400_000);
    await assert.rejects(host.call('history.get', { id }), 'History let it go after a day');
    const told = nextEvent(host, 'task.changed', ({ task }) => task?.resultFetchedAt !== undefined);
    await peer.server.request({ method: 'tasks/result', params: { taskId } }, ElicitResultSchema);
    await told;
    await assert.rejects(host.call('history.get', { id }), 'still gone once its result was fetched');
  });

  it('is absent until the server asks tasks/result, then says when it first did, and stays over a restart', async () => {
    const clock = new ManualClock(Date.parse('2026-12-05T10:00:00.000Z'));
    const peer = peerServer();
    fixture = await startHostWith({ a: peer }, { clock });
    const { host } = fixture;
    const taskId = await answeredTask(host, peer, 600_000);
    assert.equal((await host.call('tasks.get', { taskId })).resultFetchedAt, undefined, 'not fetched yet');
    assert.equal((await host.call('tasks.get', { taskId })).awaitingFetch, true, 'kept for its server to fetch');
    assert.equal((await host.call('tasks.list', {})).find((t) => t.task.taskId === taskId)?.resultFetchedAt, undefined);

    await clock.advance(5_000);
    const told = nextEvent(host, 'task.changed', ({ task }) => task?.resultFetchedAt !== undefined);
    const result = await peer.server.request({ method: 'tasks/result', params: { taskId } }, ElicitResultSchema);
    assert.deepEqual(result.content, { depot: 'east' });
    assert.equal((await told).task?.resultFetchedAt, '2026-12-05T10:00:05.000Z', 'the window is told');
    assert.equal((await host.call('tasks.get', { taskId })).resultFetchedAt, '2026-12-05T10:00:05.000Z');
    assert.equal((await host.call('tasks.get', { taskId })).awaitingFetch, undefined);
    assert.equal(
      (await host.call('tasks.list', {})).find((t) => t.task.taskId === taskId)?.resultFetchedAt,
      '2026-12-05T10:00:05.000Z'
    );

    // A second fetch changes nothing: it was first fetched then.
    await clock.advance(5_000);
    await peer.server.request({ method: 'tasks/result', params: { taskId } }, ElicitResultSchema);
    assert.equal((await host.call('tasks.get', { taskId })).resultFetchedAt, '2026-12-05T10:00:05.000Z');

    // Kept on disk with the task.
    await fixture.stop();
    fixture = await startHostWith({ a: peerServer() }, { clock, dir: fixture.dir });
    assert.equal((await fixture.host.call('tasks.get', { taskId })).resultFetchedAt, '2026-12-05T10:00:05.000Z');
  });
});
