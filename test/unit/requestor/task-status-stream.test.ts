import assert from 'node:assert/strict';
import { once, EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import { AttachmentRegistry } from '../../../app/requestor/attachments.js';
import { notificationClient } from '../../support/notification-client.js';
import type { ModernPeer } from '../../../app/requestor/modern-task-follower.js';
import { TaskStatusStream, WATCHED_TASKS_LIMIT } from '../../../app/requestor/task-status-stream.js';

/**
 * The stream a 2026-07-28 server that takes tasks tells of Taskdesk's tasks on
 * (`subscriptions/listen` with `taskIds`, `notifications/tasks`): what it asks for, when it is
 * opened anew, and when it is given up.
 */

interface Stream {
  taskIds: string[] | undefined;
  filter: Record<string, unknown>;
  tasks: boolean;
  signal: AbortSignal;
  end(): void;
  fail(error: unknown): void;
}

/** A peer of a server that takes tasks and keeps each `subscriptions/listen` open until it is aborted, ended or failed. */
function taskPeer(options: { listChanged?: ModernPeer['listChanged']; listenRenewalMs?: number } = {}) {
  const opened = new EventEmitter();
  const streams: Stream[] = [];
  const peer: ModernPeer = {
    acceptsTasks: true,
    ...(options.listChanged && { listChanged: options.listChanged }),
    ...(options.listenRenewalMs !== undefined && { listenRenewalMs: options.listenRenewalMs }),
    request: (method, params, requestOptions) => {
      assert.equal(method, 'subscriptions/listen');
      const signal = requestOptions.signal!;
      const filter = params.notifications as Record<string, unknown>;
      return new Promise((resolve, reject) => {
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        streams.push({
          taskIds: filter.taskIds as string[] | undefined,
          filter,
          tasks: requestOptions.tasks,
          signal,
          end: () => resolve({ resultType: 'complete' }),
          fail: reject
        });
        opened.emit('opened');
      });
    },
    answerInput: () => Promise.reject(new Error('not asked'))
  };
  return { peer, streams, opened };
}

/** Lets the stream's end-of-turn opening run (a microtask), and what it started. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the task stream of a 2026-07-28 server', () => {
  it('asks for the tasks followed, once per turn however many started, declaring the tasks extension', async () => {
    const { peer, streams } = taskPeer();
    const stream = new TaskStatusStream(peer);
    stream.watch('t1', true);
    stream.watch('t2', true);
    stream.watch('t3', true);
    assert.equal(streams.length, 0, 'opened at the end of the turn, not for each task');
    await turn();
    assert.equal(streams.length, 1);
    assert.deepEqual(streams[0]!.taskIds, ['t1', 't2', 't3']);
    assert.deepEqual(Object.keys(streams[0]!.filter), ['taskIds'], 'no list is asked for on it');
    assert.equal(streams[0]!.tasks, true);
    stream.close();
  });

  it('is opened anew when the set changes, the earlier one ended first, and not when it does not', async () => {
    const { peer, streams } = taskPeer();
    const stream = new TaskStatusStream(peer);
    stream.watch('t1', true);
    await turn();
    stream.watch('t2', true);
    await turn();
    assert.equal(streams.length, 2);
    assert.equal(streams[0]!.signal.aborted, true);
    assert.deepEqual(streams[1]!.taskIds, ['t1', 't2']);
    // A task that ended goes off it.
    stream.watch('t1', false);
    await turn();
    assert.equal(streams.length, 3);
    assert.equal(streams[1]!.signal.aborted, true);
    assert.deepEqual(streams[2]!.taskIds, ['t2']);
    // Told twice, or a change taken back in the same turn: the open stream stays.
    stream.watch('t2', true);
    stream.watch('t9', true);
    stream.watch('t9', false);
    await turn();
    assert.equal(streams.length, 3);
    assert.equal(streams[2]!.signal.aborted, false);
    // The last task ended: the stream is ended, and none opened.
    stream.watch('t2', false);
    await turn();
    assert.equal(streams.length, 3);
    assert.equal(streams[2]!.signal.aborted, true);
    stream.close();
  });

  it('asks for the newest tasks only past its limit', async () => {
    const { peer, streams } = taskPeer();
    const stream = new TaskStatusStream(peer);
    const ids = Array.from({ length: WATCHED_TASKS_LIMIT + 2 }, (_, index) => `t${index}`);
    for (const id of ids) stream.watch(id, true);
    await turn();
    assert.deepEqual(streams[0]!.taskIds, ids.slice(2));
    // The oldest asked about ends: the one left out before is asked about now.
    stream.watch('t2', false);
    await turn();
    assert.deepEqual(streams[1]!.taskIds, ['t1', ...ids.slice(3)]);
    stream.close();
  });

  it('is not asked again on this connection once the server refuses it', async () => {
    const { peer, streams } = taskPeer();
    const stream = new TaskStatusStream(peer);
    stream.watch('t1', true);
    await turn();
    streams[0]!.fail(Object.assign(new Error('Invalid params: taskIds'), { code: -32602 }));
    await turn();
    assert.equal(stream.refused, true);
    stream.watch('t2', true);
    await turn();
    assert.equal(streams.length, 1);
  });

  it('is asked again when the set next changes after it failed otherwise than by a refusal', async () => {
    const { peer, streams } = taskPeer();
    const stream = new TaskStatusStream(peer);
    stream.watch('t1', true);
    await turn();
    // A network failure, or an HTTP error on the stream's request: no JSON-RPC refusal.
    streams[0]!.fail(new TypeError('fetch failed'));
    await turn();
    assert.equal(stream.refused, false);
    assert.equal(streams.length, 1, 'not opened again at once');
    stream.watch('t2', true);
    await turn();
    assert.equal(streams.length, 2);
    assert.deepEqual(streams[1]!.taskIds, ['t1', 't2']);
    stream.close();
  });

  it('is asked again when the set next changes after the server ended it, and at once when it timed out', async () => {
    const { peer, streams } = taskPeer();
    const stream = new TaskStatusStream(peer);
    stream.watch('t1', true);
    await turn();
    streams[0]!.end();
    await turn();
    assert.equal(streams.length, 1, 'an ended stream is not opened again by itself');
    stream.watch('t2', true);
    await turn();
    assert.equal(streams.length, 2);
    assert.deepEqual(streams[1]!.taskIds, ['t1', 't2']);
    // Open longer than the SDK waits for any answer (−32001): opened again with the same set.
    streams[1]!.fail(Object.assign(new Error('Request timed out'), { code: -32001 }));
    await turn();
    assert.equal(streams.length, 3);
    assert.deepEqual(streams[2]!.taskIds, ['t1', 't2']);
    assert.equal(stream.refused, false);
    stream.close();
    assert.equal(streams[2]!.signal.aborted, true);
  });

  it('is given up when the server acknowledges it without taskIds, and ended when it agrees to none', async () => {
    const { peer, streams } = taskPeer();
    const stream = new TaskStatusStream(peer);
    stream.watch('t1', true);
    await turn();
    // Agreed to none of them (they may have ended there): ended, and asked again when the set changes.
    stream.acknowledged([]);
    assert.equal(streams[0]!.signal.aborted, true);
    assert.equal(stream.refused, false);
    stream.watch('t2', true);
    await turn();
    assert.equal(streams.length, 2);
    // Agreed to some: kept.
    stream.acknowledged(['t2']);
    assert.equal(streams[1]!.signal.aborted, false);
    // A server that does not know the field acknowledges nothing of it: not asked again.
    stream.acknowledged(undefined);
    assert.equal(streams[1]!.signal.aborted, true);
    assert.equal(stream.refused, true);
    stream.watch('t3', true);
    await turn();
    assert.equal(streams.length, 2);
  });

  it('is renewed over HTTP like the list stream', async () => {
    const { peer, streams, opened } = taskPeer({ listenRenewalMs: 5 });
    const stream = new TaskStatusStream(peer);
    stream.watch('t1', true);
    // The renewal's timer does not hold the process open: this test holds it while it waits.
    const hold = setInterval(() => undefined, 60_000);
    while (streams.length < 3) await once(opened, 'opened');
    clearInterval(hold);
    stream.close();
    assert.deepEqual(
      streams.map((each) => each.taskIds),
      [['t1'], ['t1'], ['t1']]
    );
    assert.ok(streams.every((each) => each.signal.aborted));
  });
});

describe('the registry of a 2026-07-28 server that takes tasks', () => {
  it('keeps a task stream apart from the list stream, hears notifications/tasks, and reads no list ack into the task stream', async () => {
    const { peer, streams } = taskPeer({ listChanged: { tools: true } });
    const heard: unknown[] = [];
    let stale = 0;
    const registry = new AttachmentRegistry({
      onModernStatus: (serverId, params) => heard.push({ serverId, params }),
      onToolsStale: () => stale++
    });
    const client = notificationClient();
    const attachment = registry.add('s', 'S', client, { modern: peer });
    assert.equal(streams.length, 1, 'the list stream');
    assert.deepEqual(streams[0]!.filter, { toolsListChanged: true });
    attachment.taskStream!.watch('t1', true);
    await turn();
    assert.equal(streams.length, 2);
    assert.deepEqual(streams[1]!.filter, { taskIds: ['t1'] });
    assert.equal(streams[0]!.signal.aborted, false, 'the list stream stays open');
    // The task stream's acknowledgement says nothing of the lists; the list stream's does.
    const acknowledged = client.handlers.get('notifications/subscriptions/acknowledged')!;
    acknowledged({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { taskIds: ['t1'] } }
    });
    assert.equal(stale, 0);
    acknowledged({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true } }
    });
    assert.equal(stale, 1);
    // One that agreed to nothing is the task stream's (the list stream asks only for declared
    // lists): a server that drops the unknown taskIds, as the v2 server package does.
    acknowledged({ method: 'notifications/subscriptions/acknowledged', params: { notifications: {} } });
    assert.equal(stale, 1);
    assert.equal(attachment.taskStream!.refused, true);
    assert.equal(streams[1]!.signal.aborted, true);
    assert.equal(streams[0]!.signal.aborted, false, 'the list stream stays open');
    client.handlers.get('notifications/tasks')!({ method: 'notifications/tasks', params: { taskId: 't1' } });
    assert.deepEqual(heard, [{ serverId: 's', params: { taskId: 't1' } }]);
    registry.remove('s');
    assert.equal(client.handlers.has('notifications/tasks'), false);
    assert.ok(streams.every((each) => each.signal.aborted));
  });

  it('hears the task stream of a server that tells of no list change', async () => {
    const { peer, streams } = taskPeer();
    const client = notificationClient();
    const attachment = new AttachmentRegistry().add('s', 'S', client, { modern: peer });
    assert.equal(streams.length, 0, 'no list stream, and no task stream before a task');
    attachment.taskStream!.watch('t1', true);
    await turn();
    assert.deepEqual(streams[0]!.filter, { taskIds: ['t1'] });
    client.handlers.get('notifications/subscriptions/acknowledged')!({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: {} }
    });
    assert.equal(attachment.taskStream!.refused, true);
  });

  it('opens no task stream for a server that does not take tasks', () => {
    const { peer } = taskPeer();
    const client = notificationClient();
    const attachment = new AttachmentRegistry().add('s', 'S', client, { modern: { ...peer, acceptsTasks: false } });
    assert.equal(attachment.taskStream, undefined);
    assert.equal(client.handlers.has('notifications/tasks'), false);
  });
});
