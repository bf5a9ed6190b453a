import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHost, type Host } from '../../app/host/host.js';
import { cancelledByOf } from '../../app/receiver/cancelled-by.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { RawPeer } from '../support/raw-peer.js';

/**
 * A task-augmented request the server cancels (`notifications/cancelled`) before Taskdesk has
 * sent its `CreateTaskResult`: the SDK then answers nothing, so the server never learns of the
 * task, could never cancel it, and it would sit in the Inbox until its ttl. None is left: none is
 * made, or the one stored meanwhile is cancelled at once, by the server, and never asked.
 */

const form = {
  mode: 'form',
  message: 'Which folder?',
  requestedSchema: { type: 'object', properties: { folder: { type: 'string' } } }
};

function line(message: Record<string, unknown>): string {
  return `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;
}

function elicitAsTask(id: string): string {
  return line({ id, method: 'elicitation/create', params: { ...form, task: { ttl: 60_000 } } });
}

describe('a task-augmented request cancelled before its task is acknowledged', () => {
  let host: Host;
  let peer: RawPeer;
  let data: { dir: string; remove: () => void };
  before(async () => {
    peer = new RawPeer('raw');
    data = tempDir();
    host = createHost({ dataDir: data.dir, servers: [peer.config], autoConnect: false, connectTimeoutMs: 60_000 });
    const view = await host.connect('raw');
    assert.equal(view.state.status, 'ready', view.state.reason);
  });
  after(async () => {
    await host.close();
    peer.close();
    data.remove();
  });

  /** Everything the host has written so far is in: it answers a ping after it. */
  async function settled(id: string): Promise<void> {
    assert.equal((await peer.request({ jsonrpc: '2.0', id, method: 'ping' })).error, undefined);
  }

  it('cancelled right after it is sent, leaves no task and nothing in the Inbox, and gets no answer', async () => {
    // Then one more, not cancelled: when it is in the Inbox, the first would be too.
    const answered = peer.next((m) => m.id === 'kept' && !('method' in m));
    const added: Array<string | undefined> = [];
    const off = host.on('inbox.added', ({ item }) => added.push(item.taskId));
    await peer.send(
      elicitAsTask('dropped') +
        line({ method: 'notifications/cancelled', params: { requestId: 'dropped', reason: 'Not needed.' } }) +
        elicitAsTask('kept')
    );
    const { result } = (await answered) as { result: { task: { taskId: string } } };
    if (!added.includes(result.task.taskId))
      await nextEvent(host, 'inbox.added', ({ item }) => item.taskId === result.task.taskId);
    off();
    assert.deepEqual(added, [result.task.taskId], 'only the task acknowledged was asked');
    await settled('ping-1');

    assert.deepEqual(
      host.inbox.list().map((open) => open.taskId),
      [result.task.taskId],
      'only the task acknowledged is asked'
    );
    const left = host.receiver.records().filter((record) => record.task.taskId !== result.task.taskId);
    for (const record of left) {
      assert.equal(record.task.status, 'cancelled', 'a task stored for it is cancelled');
      assert.equal(cancelledByOf(record), 'server');
    }
    assert.equal(
      peer.received.some((m) => m.id === 'dropped'),
      false,
      'the cancelled request is not answered'
    );
    await host.call('tasks.cancel', { taskId: result.task.taskId });
  });

  it('cancelled while its task is being stored, cancels that task at once, by the server, and never asks it', async () => {
    const owner = host.receiver.records().find((record) => record.owner.serverId === 'raw')?.owner;
    assert.ok(owner, 'a task of the server was stored before');
    const before = new Set(host.receiver.records().map((record) => record.task.taskId));
    const asked: string[] = [];
    const off = host.on('inbox.added', ({ item }) => asked.push(item.taskId ?? ''));
    const cancelling = new AbortController();
    const creating = host.receiver.create(
      owner,
      'elicitation',
      { ...form, task: { ttl: 60_000 } },
      {
        signal: cancelling.signal
      }
    );
    // What the SDK does when notifications/cancelled comes while the task is being written.
    cancelling.abort('Not needed.');
    await assert.rejects(creating, { code: -32800 });
    await settled('ping-2');
    off();

    const [made, ...more] = host.receiver.records().filter((record) => !before.has(record.task.taskId));
    assert.ok(made, 'the task was stored');
    assert.deepEqual(more, []);
    assert.equal(made.task.status, 'cancelled');
    assert.equal(made.task.statusMessage, 'The server cancelled the request before Taskdesk acknowledged the task.');
    assert.equal(cancelledByOf(made), 'server');
    assert.deepEqual(asked, [], 'nothing was asked');
    assert.equal(
      host.inbox.list().some((item) => item.taskId === made.task.taskId),
      false
    );
    assert.equal(
      peer.received.some(
        (m) =>
          m.method === 'notifications/tasks/status' &&
          (m as { params?: { taskId?: string } }).params?.taskId === made.task.taskId
      ),
      false,
      'the server, which never heard of the task, is not told of it'
    );
  });
});
