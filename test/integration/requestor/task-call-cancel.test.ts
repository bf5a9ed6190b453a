import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CancelTaskRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type CreateTaskResult,
  type JSONRPCMessage
} from '@modelcontextprotocol/sdk/types.js';
import type { AuditEntry } from '../../../app/contract/host-api.js';
import { TOOL_TASK_CANCELLED_LATE } from '../../../app/contract/outbound-tasks.js';
import type { PlainCallView } from '../../../app/contract/plain-calls.js';
import { OutboundTasks, type EndedCall } from '../../../app/requestor/outbound-tasks.js';
import { ManualClock } from '../../support/manual-clock.js';
import { TASKS } from '../../support/modern-requestor.js';
import { connectInMemory, countSent, tempTaskDir, type SentMessage } from '../../support/requestor-harness.js';
import {
  discoverResult,
  startScriptedModernHost,
  type ScriptedModernHost
} from '../../support/scripted-modern-peer.js';

/**
 * A call asked as a task, cancelled (or timed out) before its server answered: MCP 2025-11-25
 * (cancellation utility) and the 2026-07-28 tasks extension forbid `notifications/cancelled` for
 * it, so nothing goes to the server then; when the server creates the task after all, Taskdesk
 * sends `tasks/cancel` for it (where the server can cancel) and records that in the audit log.
 * A plain call's cancel still sends `notifications/cancelled`.
 */

/**
 * A 2025-11-25 server whose `slow` tool (task support `required`) and `plain` tool answer only
 * when the test says; `cancellable: false` leaves `tasks.cancel` out of its capabilities.
 */
function heldToolServer(options: { cancellable: boolean }) {
  const server = new Server(
    { name: 'held', version: '1.0.0' },
    {
      capabilities: {
        tools: {},
        tasks: { ...(options.cancellable && { cancel: {} }), requests: { tools: { call: {} } } }
      }
    }
  );
  const held: Array<{ name: string; answer: (result: CreateTaskResult | CallToolResult) => void }> = [];
  let arrived: () => void = () => undefined;
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      { name: 'slow', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } },
      { name: 'plain', inputSchema: { type: 'object' } }
    ]
  }));
  server.setRequestHandler(
    CallToolRequestSchema,
    (request) =>
      new Promise<CreateTaskResult | CallToolResult>((answer) => {
        held.push({ name: request.params.name, answer });
        arrived();
      })
  );
  const cancelled: string[] = [];
  if (options.cancellable)
    server.setRequestHandler(CancelTaskRequestSchema, (request) => {
      cancelled.push(request.params.taskId);
      return { ...createdTask(request.params.taskId).task, status: 'cancelled' };
    });
  return {
    server,
    /** The task ids `tasks/cancel` named, in order. */
    cancelled,
    /** Resolves with the next held call once it reached the server. */
    async nextCall() {
      if (held.length === 0) await new Promise<void>((resolve) => (arrived = resolve));
      return held.shift()!;
    }
  };
}

function createdTask(taskId: string): CreateTaskResult {
  const now = new Date(Date.UTC(2026, 0, 1)).toISOString();
  return { task: { taskId, status: 'working', ttl: 600_000, createdAt: now, lastUpdatedAt: now } };
}

describe('a call asked as a task, cancelled before its server answers (2025-11-25)', () => {
  let temp: ReturnType<typeof tempTaskDir>;
  let clock: ManualClock;
  let manager: OutboundTasks;
  let audit: AuditEntry[];
  let auditWaiters: Array<() => void>;
  let ended: EndedCall[];
  let calls: PlainCallView[];
  let client: Client | undefined;

  beforeEach(() => {
    temp = tempTaskDir();
    clock = new ManualClock();
    audit = [];
    auditWaiters = [];
    ended = [];
    calls = [];
    manager = new OutboundTasks({
      dir: temp.dir,
      clock,
      defaultTtlMs: 600_000,
      audit: {
        record: (entry) => {
          audit.push({ at: new Date(clock.now()).toISOString(), ...entry });
          for (const wake of auditWaiters.splice(0)) wake();
        }
      },
      onPlainCall: (view) => calls.push(view),
      onCallEnded: (call) => ended.push(call)
    });
  });

  afterEach(async () => {
    manager.close();
    // A request the server never answered is rejected by the SDK as its connection closes.
    await client?.close();
    client = undefined;
    temp.cleanup();
  });

  async function attach(options: { cancellable: boolean }) {
    const tools = heldToolServer(options);
    const connected = await connectInMemory(tools.server, clock);
    client = connected.client;
    manager.attach('srv', 'Held', connected.client);
    return { ...tools, sent: connected.sent };
  }

  function lateEntry(): Promise<AuditEntry> {
    const find = () => audit.find((entry) => entry.type === TOOL_TASK_CANCELLED_LATE);
    const now = find();
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => {
      const check = () => {
        const entry = find();
        if (entry) resolve(entry);
        else auditWaiters.push(check);
      };
      auditWaiters.push(check);
    });
  }

  function cancelledSent(sent: readonly SentMessage[]): SentMessage[] {
    return sent.filter((m) => m.method === 'notifications/cancelled');
  }

  it('sends no notifications/cancelled, and tasks/cancel for the task once the server creates it', async () => {
    const tools = await attach({ cancellable: true });
    const outcome = manager.callTool('srv', 'slow', {}, { callId: 'c1' });
    const held = await tools.nextCall();
    assert.ok(manager.plainCalls.cancel('c1'));
    await assert.rejects(outcome, { code: -32800, message: 'Cancelled by you' });
    assert.deepEqual(cancelledSent(tools.sent), [], 'no notifications/cancelled for a task-augmented request');
    assert.equal(calls.at(-1)?.state, 'cancelled');
    assert.equal(calls.at(-1)?.error?.code, -32800);
    assert.deepEqual(
      ended.map((e) => [e.call.state, e.result]),
      [['cancelled', undefined]]
    );

    held.answer(createdTask('late-1'));
    const entry = await lateEntry();
    assert.deepEqual(tools.cancelled, ['late-1']);
    assert.deepEqual(
      tools.sent.filter((m) => m.method === 'tasks/cancel').map((m) => m.params),
      [{ taskId: 'late-1' }]
    );
    assert.deepEqual(cancelledSent(tools.sent), []);
    assert.deepEqual(
      { type: entry.type, serverId: entry.serverId, serverName: entry.serverName, taskId: entry.taskId },
      { type: TOOL_TASK_CANCELLED_LATE, serverId: 'srv', serverName: 'Held', taskId: 'late-1' }
    );
    assert.deepEqual(entry.detail, { tool: 'slow', reason: 'Cancelled by you', tasksCancel: 'sent' });
    assert.deepEqual(manager.list(), [], 'the task is not followed');
    assert.equal(ended.length, 1, 'the late answer changes nothing of the ended call');
  });

  it('does the same when the idle timeout ends the call', async () => {
    const tools = await attach({ cancellable: true });
    const outcome = manager.callTool('srv', 'slow', {}, { callId: 'c2' });
    const held = await tools.nextCall();
    const rejected = assert.rejects(outcome, (error: { code?: number; message?: string }) => {
      assert.equal(error.code, -32001);
      assert.match(error.message ?? '', /sent no answer or progress for 60 s; Taskdesk cancelled the call/);
      return true;
    });
    await clock.advance(60_000);
    await rejected;
    assert.deepEqual(cancelledSent(tools.sent), []);
    assert.equal(calls.at(-1)?.state, 'failed');
    assert.equal(calls.at(-1)?.error?.code, -32001);

    held.answer(createdTask('late-2'));
    const entry = await lateEntry();
    assert.deepEqual(tools.cancelled, ['late-2']);
    assert.deepEqual(cancelledSent(tools.sent), []);
    assert.equal(entry.detail?.tasksCancel, 'sent');
    assert.match(String(entry.detail?.reason), /sent no answer or progress for 60 s/);
  });

  it('sends nothing to a server without tasks.cancel, and the call still ends cancelled', async () => {
    const tools = await attach({ cancellable: false });
    const outcome = manager.callTool('srv', 'slow', {}, { callId: 'c3' });
    const held = await tools.nextCall();
    manager.plainCalls.cancel('c3');
    await assert.rejects(outcome, { code: -32800 });
    assert.equal(calls.at(-1)?.state, 'cancelled');
    assert.deepEqual(cancelledSent(tools.sent), []);

    held.answer(createdTask('late-3'));
    const entry = await lateEntry();
    assert.equal(entry.detail?.tasksCancel, 'unsupported');
    assert.equal(countSent(tools.sent, 'tasks/cancel'), 0);
    assert.deepEqual(cancelledSent(tools.sent), []);
  });

  it('drops a plain result that comes after the cancel, and records nothing', async () => {
    const tools = await attach({ cancellable: true });
    const outcome = manager.callTool('srv', 'slow', {}, { callId: 'c4' });
    const held = await tools.nextCall();
    manager.plainCalls.cancel('c4');
    await assert.rejects(outcome, { code: -32800 });
    held.answer({ content: [{ type: 'text', text: 'ran plainly after all' }] });
    // A later call's answer comes after the late one on the same connection.
    const next = manager.callTool('srv', 'plain', {});
    (await tools.nextCall()).answer({ content: [{ type: 'text', text: 'ok' }] });
    assert.equal((await next).type, 'result');
    assert.deepEqual(audit, []);
    assert.equal(countSent(tools.sent, 'tasks/cancel'), 0);
    assert.deepEqual(cancelledSent(tools.sent), []);
    assert.deepEqual(
      ended.map((e) => [e.call.toolName, e.call.state]),
      [
        ['slow', 'cancelled'],
        ['plain', 'completed']
      ]
    );
  });

  it('holds nothing once the connection closes without an answer', async () => {
    const tools = await attach({ cancellable: true });
    const outcome = manager.callTool('srv', 'slow', {}, { callId: 'c5' });
    await tools.nextCall();
    manager.plainCalls.cancel('c5');
    await assert.rejects(outcome, { code: -32800 });
    const closed = new Promise<void>((resolve) => (client!.onclose = resolve));
    await client!.close();
    await closed;
    client = undefined;
    assert.deepEqual(audit, []);
    assert.deepEqual(
      tools.sent.map((m) => m.method).filter((method) => method !== 'tools/list'),
      ['initialize', 'notifications/initialized', 'tools/call']
    );
  });

  it("still sends notifications/cancelled for a plain call's cancel", async () => {
    const tools = await attach({ cancellable: true });
    const outcome = manager.callTool('srv', 'plain', {}, { callId: 'c6' });
    await tools.nextCall();
    manager.plainCalls.cancel('c6');
    await assert.rejects(outcome, { code: -32800 });
    const call = tools.sent.find((m) => m.method === 'tools/call');
    assert.deepEqual(
      cancelledSent(tools.sent).map((m) => m.params?.requestId),
      [call?.id]
    );
  });
});

describe('a call asked as a task, cancelled before its server answers (2026-07-28)', () => {
  const NOW = '2026-12-02T00:00:00.000Z';
  let peer: ScriptedModernHost;
  /** `tools/call` requests held until the test answers them, by arrival. */
  let held: Array<Extract<JSONRPCMessage, { method: string; id: string | number }>>;
  let arrived: Array<() => void>;

  beforeEach(async () => {
    held = [];
    arrived = [];
    peer = await startScriptedModernHost((request) => {
      switch (request.method) {
        case 'server/discover':
          return discoverResult({ tools: {}, extensions: { [TASKS]: {} } });
        case 'tools/list':
          return { resultType: 'complete', tools: [{ name: 'slow', inputSchema: { type: 'object' } }] };
        case 'tasks/cancel':
          return { resultType: 'complete' };
        default:
          return undefined;
      }
    });
    // The scripted peer answers at once; `tools/call` waits for the test instead.
    const answer = peer.server.onmessage!;
    peer.server.onmessage = (message, extra) => {
      if ('method' in message && 'id' in message && message.method === 'tools/call') {
        peer.received.push(message);
        held.push(message);
      } else answer(message, extra);
      for (const wake of arrived.splice(0)) wake();
    };
  });

  afterEach(async () => {
    await peer.dispose();
  });

  /** Resolves once `predicate` holds for what the server received. */
  async function received(predicate: (messages: readonly JSONRPCMessage[]) => boolean): Promise<void> {
    while (!predicate(peer.received)) await new Promise<void>((resolve) => arrived.push(resolve));
  }

  async function callThenCancel(callId: string) {
    const outcome = peer.host.call('tools.call', { serverId: 'scripted', name: 'slow', arguments: {}, callId });
    await received(() => held.length > 0);
    const request = held.shift()!;
    await peer.host.call('tools.cancelCall', { callId });
    await assert.rejects(outcome, { code: -32800 });
    return request;
  }

  const method = (message: JSONRPCMessage) => ('method' in message ? message.method : undefined);

  it('sends no notifications/cancelled, and tasks/cancel for the task the server creates after all', async () => {
    const request = await callThenCancel('m1');
    assert.deepEqual(
      peer.received.filter((m) => method(m) === 'notifications/cancelled'),
      []
    );
    await peer.server.send({
      jsonrpc: '2.0',
      id: request.id,
      result: {
        resultType: 'task',
        taskId: 'late-m1',
        status: 'working',
        createdAt: NOW,
        lastUpdatedAt: NOW,
        ttlMs: 60_000
      }
    });
    await received((messages) => messages.some((m) => method(m) === 'tasks/cancel'));
    const cancel = peer.received.find((m) => method(m) === 'tasks/cancel');
    assert.equal((cancel as { params?: { taskId?: string } }).params?.taskId, 'late-m1');
    assert.deepEqual(
      peer.received.filter((m) => method(m) === 'notifications/cancelled'),
      []
    );
    assert.deepEqual(
      peer.host.requestor.list().filter((task) => task.taskId === 'late-m1'),
      [],
      'the task is not followed'
    );
  });

  it('starts no exchange for an input_required answer that comes after the cancel', async () => {
    const request = await callThenCancel('m2');
    await peer.server.send({
      jsonrpc: '2.0',
      id: request.id,
      result: { resultType: 'input_required', requestState: 'opaque' }
    });
    // The next call goes out after the late answer was read on the same connection.
    const next = peer.host.call('tools.call', { serverId: 'scripted', name: 'slow', arguments: {}, callId: 'm3' });
    await received(() => held.length > 0);
    await peer.server.send({
      jsonrpc: '2.0',
      id: held.shift()!.id,
      result: { resultType: 'complete', content: [{ type: 'text', text: 'ok' }] }
    });
    assert.equal((await next).type, 'result');
    assert.deepEqual(peer.host.requestor.exchanges?.list() ?? [], []);
    assert.deepEqual(
      peer.received.filter((m) => method(m) === 'notifications/cancelled' || method(m) === 'tasks/cancel'),
      []
    );
  });
});
