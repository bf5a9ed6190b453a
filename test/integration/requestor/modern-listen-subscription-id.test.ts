import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { TASKS } from '../../support/modern-requestor.js';
import {
  discoverResult,
  startScriptedModernHost,
  type ScriptedModernHost,
  type ScriptedRequest
} from '../../support/scripted-modern-peer.js';

/**
 * A 2026-07-28 server that tells of its tool list's changes and takes tool calls as tasks gets two
 * `subscriptions/listen` streams from Taskdesk: one for the list, one for the tasks it follows
 * there. Each `notifications/subscriptions/acknowledged` is the stream's whose request id it carries
 * in `_meta` (`io.modelcontextprotocol/subscriptionId`), whatever it agreed to; only one that
 * carries no id is told by what it agreed to (the task stream's names `taskIds`, or nothing).
 *
 * The list stream's acknowledgement makes the tool list read again at its next use (it may have
 * changed before the stream opened); the task stream's says which tasks the server will tell of,
 * and one that names none of them ends the stream, for good when it does not know `taskIds`.
 */

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const CREATED = '2026-12-02T00:00:00.000Z';

const task = (taskId: string) => ({
  taskId,
  status: 'working',
  createdAt: CREATED,
  lastUpdatedAt: CREATED,
  ttlMs: 86_400_000,
  pollIntervalMs: 3_600_000
});

const toolsRead = (received: JSONRPCMessage[]) =>
  received.filter((message) => 'method' in message && message.method === 'tools/list').length;

const cancelledIds = (received: JSONRPCMessage[]) =>
  received.flatMap((message) =>
    'method' in message && message.method === 'notifications/cancelled'
      ? [(message.params as { requestId: string | number }).requestId]
      : []
  );

const filterOf = (request: ScriptedRequest) =>
  (request.params as { notifications?: { toolsListChanged?: boolean; taskIds?: string[] } }).notifications ?? {};

describe('which subscriptions/listen stream a 2026-07-28 acknowledgement is for', () => {
  let fixture: ScriptedModernHost;
  /** The tools the server lists now. */
  let tools: string[];
  /** Each `subscriptions/listen` the host sent, with a waiter for the next. */
  let listens: ScriptedRequest[];
  let onListen: (() => void) | undefined;
  // The host's timers do not keep the process alive, nor does an in-memory peer: this does.
  let keepAlive: ReturnType<typeof setInterval> | undefined;

  beforeEach(async () => {
    keepAlive = setInterval(() => undefined, 60_000);
    tools = ['alpha', 'build', 'other'];
    listens = [];
    fixture = await startScriptedModernHost((request) => {
      const params = (request.params ?? {}) as { name?: string; taskId?: string };
      switch (request.method) {
        case 'server/discover':
          return discoverResult({ tools: { listChanged: true }, extensions: { [TASKS]: {} } });
        case 'tools/list':
          return {
            resultType: 'complete',
            tools: tools.map((name) => ({ name, inputSchema: { type: 'object', properties: {} } })),
            ttlMs: 3_600_000
          };
        case 'tools/call':
          return { resultType: 'task', ...task(`task-${params.name}`) };
        case 'tasks/get':
          return { resultType: 'complete', ...task(String(params.taskId)) };
        case 'subscriptions/listen':
          listens.push(request);
          onListen?.();
          // Kept open, as a server keeps a stream.
          return null;
        default:
          return undefined;
      }
    });
  });

  afterEach(async () => {
    clearInterval(keepAlive);
    await fixture.dispose();
  });

  /** Resolves with the first `subscriptions/listen` (sent or to come) that `matches`. */
  function listen(matches: (request: ScriptedRequest) => boolean): Promise<ScriptedRequest> {
    return new Promise((resolve) => {
      const look = () => {
        const found = listens.find(matches);
        if (!found) return;
        onListen = undefined;
        resolve(found);
      };
      onListen = look;
      look();
    });
  }
  const listStream = () => listen((request) => filterOf(request).toolsListChanged === true);
  const taskStream = (...taskIds: string[]) =>
    listen((request) => (filterOf(request).taskIds ?? []).slice().sort().join() === taskIds.join());

  const names = async (refresh = false) =>
    (await fixture.host.call('tools.list', { serverId: 'scripted', refresh })).map((tool) => tool.name);

  async function call(name: string): Promise<void> {
    const called = await fixture.host.call('tools.call', { serverId: 'scripted', name, arguments: {} });
    assert.equal(called.type, 'task');
  }

  const acknowledge = (params: Record<string, unknown>) =>
    fixture.server.send({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params });

  it('takes an acknowledgement tagged with the list stream’s id for the list stream’s, even one that agreed to nothing', async () => {
    const { received } = fixture;
    assert.deepEqual(await names(), ['alpha', 'build', 'other']);
    const list = await listStream();
    await call('build');
    const tasks = await taskStream('task-build');
    // A tool added before the list stream was acknowledged: told to nobody.
    tools = ['alpha', 'beta', 'build', 'other'];
    const read = toolsRead(received);
    // The server agreed to tell nothing on the list stream (an empty filter, like the task
    // stream's of a server that does not know taskIds): it is still the list stream's.
    await acknowledge({ _meta: { [SUBSCRIPTION_ID]: list.id }, notifications: {} });
    assert.deepEqual(await names(), ['alpha', 'beta', 'build', 'other'], 'the list is read again');
    assert.equal(toolsRead(received), read + 1);
    // A Refresh: a round trip after the acknowledgement, so anything it made the host send was sent.
    await names(true);
    assert.ok(!cancelledIds(received).includes(tasks.id), 'the task stream stays open');
    // And it is still asked, for the tasks followed now.
    await call('other');
    const both = await taskStream('task-build', 'task-other');
    assert.ok(cancelledIds(received).includes(tasks.id), 'replaced by the stream for both tasks');
    assert.notEqual(both.id, tasks.id);
  });

  it('takes the list stream’s id written back as a string for the list stream’s', async () => {
    const { received } = fixture;
    assert.deepEqual(await names(), ['alpha', 'build', 'other']);
    const list = await listStream();
    assert.equal(typeof list.id, 'number');
    tools = ['alpha', 'beta', 'build', 'other'];
    const read = toolsRead(received);
    await acknowledge({ _meta: { [SUBSCRIPTION_ID]: String(list.id) }, notifications: {} });
    assert.deepEqual(await names(), ['alpha', 'beta', 'build', 'other'], 'the list is read again');
    assert.equal(toolsRead(received), read + 1);
  });

  it('takes an acknowledgement tagged with the task stream’s id for the task stream’s, whatever it agreed to', async () => {
    const { received } = fixture;
    await names();
    await listStream();
    await call('build');
    const tasks = await taskStream('task-build');
    const read = toolsRead(received);
    // An unexpected filter, no taskIds in it (a field of an older draft): the server does not
    // know taskIds, so it tells of none of Taskdesk's tasks.
    await acknowledge({ _meta: { [SUBSCRIPTION_ID]: tasks.id }, notifications: { tasksStatus: true } });
    await names(true);
    assert.ok(cancelledIds(received).includes(tasks.id), 'the task stream was ended');
    assert.equal(toolsRead(received), read + 1, 'only the Refresh read the list: it was not made stale');
    // Not asked again on this connection.
    const streams = listens.length;
    await call('other');
    await names(true);
    assert.equal(listens.length, streams, 'no task stream opened for the next task');
  });

  it('takes an acknowledgement tagged with the id of a task stream replaced since for no stream’s', async () => {
    const { received } = fixture;
    await names();
    await call('build');
    const first = await taskStream('task-build');
    await call('other');
    const second = await taskStream('task-build', 'task-other');
    // The first stream's acknowledgement, late: it agreed to none of its tasks. The stream open
    // now, which asked for both, is not ended by it.
    await acknowledge({ _meta: { [SUBSCRIPTION_ID]: first.id }, notifications: { taskIds: [] } });
    await names(true);
    assert.ok(cancelledIds(received).includes(first.id));
    assert.ok(!cancelledIds(received).includes(second.id), 'the stream open now stays open');
  });

  it('tells the stream of an acknowledgement with no subscription id by what it agreed to', async () => {
    const { received } = fixture;
    await names();
    await listStream();
    await call('build');
    const tasks = await taskStream('task-build');
    tools = ['alpha', 'beta', 'build', 'other'];
    // The task stream's (it names taskIds): the list is not made stale, the stream stays.
    await acknowledge({ notifications: { taskIds: ['task-build'] } });
    assert.deepEqual(await names(), ['alpha', 'build', 'other']);
    // The list stream's (it names a list).
    await acknowledge({ notifications: { toolsListChanged: true } });
    assert.deepEqual(await names(), ['alpha', 'beta', 'build', 'other']);
    await names(true);
    assert.ok(!cancelledIds(received).includes(tasks.id), 'the task stream stays open');
  });
});
