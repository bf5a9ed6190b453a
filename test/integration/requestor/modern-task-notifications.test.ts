import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { OutboundTaskView } from '../../../app/contract/outbound-tasks.js';
import type { Host } from '../../../app/host/host.js';
import { nextEvent } from '../../support/host-fixture.js';
import { TASKS } from '../../support/modern-requestor.js';
import {
  discoverResult,
  startScriptedModernHost,
  type ScriptedModernHost,
  type ScriptedRequest
} from '../../support/scripted-modern-peer.js';

/**
 * A 2026-07-28 server that takes tool calls as tasks may tell of their changes on a
 * `subscriptions/listen` stream that names them (`taskIds`, the tasks extension): Taskdesk opens
 * one for the tasks it follows there, declaring the extension, opens it anew as tasks start and
 * end, and takes each `notifications/tasks` as it would a `tasks/get` answer, at once. The server
 * here answers every `tasks/get` with `working` and a poll interval of an hour: what ends a task
 * or asks its question can only have come by notification.
 */

const CREATED = '2026-12-02T00:00:00.000Z';
const LATER = '2026-12-02T00:00:05.000Z';
const LATEST = '2026-12-02T00:00:09.000Z';

const tool = (name: string) => ({ name, inputSchema: { type: 'object', properties: {} } });

const taskOf = (taskId: string, status: string, lastUpdatedAt = CREATED) => ({
  taskId,
  status,
  createdAt: CREATED,
  lastUpdatedAt,
  ttlMs: 86_400_000,
  pollIntervalMs: 3_600_000
});

/** Each `subscriptions/listen` the host sent, with a waiter for the next one that asks about tasks. */
const listens: ScriptedRequest[] = [];
let onListen: ((request: ScriptedRequest) => void) | undefined;

function answerOf(request: ScriptedRequest): Record<string, unknown> | undefined | null {
  const params = (request.params ?? {}) as { name?: string; taskId?: string };
  switch (request.method) {
    case 'server/discover':
      return discoverResult({ tools: {}, extensions: { [TASKS]: {} } });
    case 'tools/list':
      return { resultType: 'complete', tools: [tool('build'), tool('ask'), tool('other')] };
    case 'tools/call':
      return { resultType: 'task', ...taskOf(`task-${params.name}`, 'working') };
    case 'tasks/get':
      return { resultType: 'complete', ...taskOf(String(params.taskId), 'working') };
    case 'tasks/update':
      return { resultType: 'complete' };
    case 'subscriptions/listen':
      listens.push(request);
      onListen?.(request);
      // Kept open, as a server keeps a stream.
      return null;
    default:
      return undefined;
  }
}

const taskIdsOf = (request: ScriptedRequest) =>
  ((request.params as { notifications?: { taskIds?: string[] } }).notifications?.taskIds ?? []).slice().sort();

/** Resolves with the next `subscriptions/listen` that asks about exactly `taskIds`. */
function listenFor(taskIds: string[]): Promise<ScriptedRequest> {
  const wanted = [...taskIds].sort().join();
  const found = listens.find((request) => taskIdsOf(request).join() === wanted);
  if (found) return Promise.resolve(found);
  return new Promise((resolve) => {
    onListen = (request) => {
      if (taskIdsOf(request).join() !== wanted) return;
      onListen = undefined;
      resolve(request);
    };
  });
}

const cancelledIds = (received: JSONRPCMessage[]) =>
  received.flatMap((message) =>
    'method' in message && message.method === 'notifications/cancelled'
      ? [(message.params as { requestId: string | number }).requestId]
      : []
  );

const pollsOf = (received: JSONRPCMessage[], taskId: string) =>
  received.filter(
    (message) =>
      'method' in message && message.method === 'tasks/get' && (message.params as { taskId: string }).taskId === taskId
  ).length;

describe('task status notifications from a 2026-07-28 server', () => {
  let peer: ScriptedModernHost;
  let host: Host;
  // The host's timers do not keep the process alive, nor does an in-memory peer: this does.
  let keepAlive: ReturnType<typeof setInterval> | undefined;

  before(async () => {
    keepAlive = setInterval(() => undefined, 60_000);
    peer = await startScriptedModernHost(answerOf);
    ({ host } = peer);
  });

  after(async () => {
    clearInterval(keepAlive);
    await peer.dispose();
  });

  async function call(name: string): Promise<string> {
    const called = await host.call('tools.call', { serverId: 'scripted', name, arguments: {} });
    assert.equal(called.type, 'task');
    return called.type === 'task' ? called.task.outboundId : '';
  }

  it('asks about the task it follows, declaring the extension, and ends the task on a completed notification', async () => {
    const outboundId = await call('build');
    const listen = await listenFor(['task-build']);
    const meta = (listen.params as { _meta?: Record<string, { extensions?: Record<string, unknown> }> })._meta;
    assert.ok(
      meta?.['io.modelcontextprotocol/clientCapabilities']?.extensions?.[TASKS],
      'the listen request declares the tasks extension'
    );
    const polls = pollsOf(peer.received, 'task-build');
    const ended = nextEvent(
      host,
      'outbound.changed',
      (event) => event.type === 'changed' && event.task.outboundId === outboundId && event.task.outcome !== undefined
    );
    await peer.server.send({
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: {
        ...taskOf('task-build', 'completed', LATER),
        result: { content: [{ type: 'text', text: 'built, told by notification' }] }
      }
    });
    const task = ((await ended) as { task: OutboundTaskView }).task;
    assert.equal(task.state, 'completed');
    assert.deepEqual(task.outcome?.type === 'result' && task.outcome.result.content, [
      { type: 'text', text: 'built, told by notification' }
    ]);
    assert.equal(pollsOf(peer.received, 'task-build'), polls, 'no poll was needed');
    // It ended: the stream that named it is cancelled, and no other is opened for no task.
    const listensBefore = listens.length;
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.ok(cancelledIds(peer.received).includes(listen.id), 'the stream that named the task was ended');
    assert.equal(listens.length, listensBefore);
  });

  it('asks the question of an input_required notification at once, and ignores what is not a task of this server', async () => {
    const outboundId = await call('ask');
    await listenFor(['task-ask']);
    const asked = nextEvent(host, 'inbox.added');
    // Neither a task id it does not follow here nor a malformed task does anything.
    await peer.server.send({
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: { ...taskOf('task-of-another-server', 'completed', LATER), result: { content: [] } }
    });
    await peer.server.send({
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: { taskId: 'task-ask', status: 'completed' }
    });
    await peer.server.send({
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: {
        ...taskOf('task-ask', 'input_required', LATER),
        inputRequests: {
          'name-1': {
            method: 'elicitation/create',
            params: {
              mode: 'form',
              message: 'Which branch?',
              requestedSchema: { type: 'object', properties: { branch: { type: 'string' } } }
            }
          }
        }
      }
    });
    const { item } = await asked;
    assert.equal(item.kind, 'elicitation');
    assert.match(JSON.stringify(item), /Which branch\?/);
    const view = (await host.call('outbound.list', {})).find((task) => task.outboundId === outboundId);
    assert.equal(view?.state, 'input_required');
    assert.equal(view?.outcome, undefined, 'the malformed notification ended nothing');

    // An older report (a poll's answer or a notification that crossed a newer one) asks nothing
    // and withdraws nothing: the question of the newer one stays the same Inbox item.
    const question = (message: string) => ({
      method: 'elicitation/create',
      params: { mode: 'form', message, requestedSchema: { type: 'object', properties: { x: { type: 'string' } } } }
    });
    const askedNext = nextEvent(host, 'inbox.added');
    await peer.server.send({
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: { ...taskOf('task-ask', 'input_required', CREATED), inputRequests: { 'old-1': question('Stale?') } }
    });
    await peer.server.send({
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: {
        ...taskOf('task-ask', 'input_required', LATEST),
        inputRequests: { 'name-1': question('Which branch?'), 'name-2': question('Which tag?') }
      }
    });
    const next = (await askedNext).item;
    assert.match(JSON.stringify(next), /Which tag\?/, 'the next question asked is the newer report’s');
    const open = await host.call('inbox.list', {});
    assert.ok(
      open.some((each) => each.id === item.id),
      'the first question was not withdrawn and asked again'
    );
    assert.ok(!JSON.stringify(open).includes('Stale?'), 'the older report’s question was not asked');
  });

  it('opens the stream anew for two tasks at once, each named', async () => {
    await call('other');
    const listen = await listenFor(['task-ask', 'task-other']);
    assert.deepEqual(taskIdsOf(listen), ['task-ask', 'task-other']);
  });
});
