import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { OutboundTaskView } from '../../../app/contract/outbound-tasks.js';
import { createHost, type Host } from '../../../app/host/host.js';
import { nextEvent, tempDir } from '../../support/host-fixture.js';
import { TASKS } from '../../support/modern-requestor.js';
import {
  discoverResult,
  startScriptedModernHost,
  type ScriptedModernHost,
  type ScriptedRequest
} from '../../support/scripted-modern-peer.js';

/**
 * The `resultType` of a 2026-07-28 server's answers to the requests whose only answer is
 * `complete`: the lists (`tools/list`, `prompts/list`, `resources/list`) and the tasks
 * extension's acknowledgements (`tasks/update`, `tasks/cancel`). Any other value is one the
 * client does not recognize for them, and so an invalid answer (basic/index, "ResultType").
 * A 2025-11-25 server has no `resultType`: whatever it puts there is not read.
 */

const NOW = '2026-12-02T00:00:00.000Z';

const tool = (name: string) => ({ name, inputSchema: { type: 'object', properties: {} } });

/** The `resultType` each checked method is answered with; a test sets one at a time. */
const answered: Record<string, string> = {};

const taskOf = (taskId: string, status: string) => ({
  taskId,
  status,
  createdAt: NOW,
  lastUpdatedAt: NOW,
  ttlMs: 600_000,
  pollIntervalMs: 200
});

/** An elicitation the task `ask` waits on, under the key `name-1`. */
const question = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Your name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } } }
  }
};

function answerOf(message: ScriptedRequest): Record<string, unknown> | undefined {
  const params = (message.params ?? {}) as { name?: string; taskId?: string };
  const resultType = answered[message.method] ?? 'complete';
  switch (message.method) {
    case 'server/discover':
      return discoverResult({ tools: {}, prompts: {}, resources: {}, extensions: { [TASKS]: {} } });
    case 'tools/list':
      return { resultType, tools: [tool('ask'), tool('wait')] };
    case 'prompts/list':
      return { resultType, prompts: [{ name: 'greeting' }] };
    case 'resources/list':
      return { resultType, resources: [{ uri: 'test://one', name: 'one' }] };
    case 'tools/call':
      return { resultType: 'task', ...taskOf(`task-${params.name}`, 'working') };
    case 'tasks/get':
      return params.taskId === 'task-ask'
        ? { resultType: 'complete', ...taskOf('task-ask', 'input_required'), inputRequests: { 'name-1': question } }
        : { resultType: 'complete', ...taskOf(String(params.taskId), 'working') };
    case 'tasks/update':
    case 'tasks/cancel':
      return { resultType };
    default:
      return undefined;
  }
}

/** Asserts that a call failed with −32603 naming the server, the method and the value. */
function refusal(method: string, value: string) {
  return (error: { code?: number; message?: string }) => {
    assert.match(error.message ?? '', new RegExp(`Server "Scripted" answered ${method} with resultType "${value}"`));
    return true;
  };
}

describe('a 2026-07-28 server whose list or acknowledgement has a resultType other than "complete"', () => {
  let peer: ScriptedModernHost;
  let host: Host;
  // The host's timers do not keep the process alive, nor does an in-memory peer: this does,
  // while a test waits on the polls of a task.
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

  it('refuses a tools/list answer with an unrecognized resultType, and one with "task"', async () => {
    answered['tools/list'] = 'deferred';
    await assert.rejects(
      host.call('tools.list', { serverId: 'scripted', refresh: true }),
      (error: { code?: number }) => {
        assert.equal(error.code, -32603);
        return refusal('tools/list', 'deferred')(error);
      }
    );
    // tools/list declares the tasks extension, whose "task" is for tools/call alone.
    answered['tools/list'] = 'task';
    await assert.rejects(
      host.call('tools.list', { serverId: 'scripted', refresh: true }),
      refusal('tools/list', 'task')
    );
    answered['tools/list'] = 'complete';
    const tools = await host.call('tools.list', { serverId: 'scripted', refresh: true });
    assert.deepEqual(
      tools.map((listed) => listed.name),
      ['ask', 'wait']
    );
  });

  it('refuses a prompts/list or resources/list answer of a request for input or an unrecognized value', async () => {
    answered['prompts/list'] = 'input_required';
    await assert.rejects(
      host.call('assistant.sources', { serverId: 'scripted' }),
      refusal('prompts/list', 'input_required')
    );
    answered['prompts/list'] = 'complete';
    answered['resources/list'] = 'later';
    await assert.rejects(host.call('assistant.sources', { serverId: 'scripted' }), refusal('resources/list', 'later'));
    answered['resources/list'] = 'complete';
    const sources = await host.call('assistant.sources', { serverId: 'scripted' });
    assert.deepEqual(
      [sources.prompts.map((prompt) => prompt.name), sources.resources.map((resource) => resource.uri)],
      [['greeting'], ['test://one']]
    );
  });

  it('does not take a tasks/update acknowledgement with an unrecognized resultType as receiving the answer', async () => {
    answered['tasks/update'] = 'accepted';
    const asked = nextEvent(host, 'inbox.added');
    const called = await host.call('tools.call', { serverId: 'scripted', name: 'ask', arguments: {} });
    assert.equal(called.type, 'task');
    const outboundId = called.type === 'task' ? called.task.outboundId : '';
    const { item } = await asked;
    const acknowledged = nextEvent(
      host,
      'outbound.changed',
      (event) =>
        event.type === 'changed' &&
        event.task.outboundId === outboundId &&
        (event.task.lastError?.method === 'tasks/update' || (event.task.answeredInputs ?? []).length > 0)
    );
    await host.call('inbox.answer', { id: item.id, answer: { action: 'accept', content: { name: 'Ada' } } });
    const event = await acknowledged;
    const task = (event as { task: OutboundTaskView }).task;
    assert.equal(task.answeredInputs, undefined, 'the answer is not counted as received');
    assert.equal(task.lastError?.code, -32603);
    refusal('tasks/update', 'accepted')(task.lastError ?? {});
    assert.ok(
      peer.received.some((message) => 'method' in message && message.method === 'tasks/update'),
      'the answer went out'
    );
  });

  it('refuses a tasks/cancel acknowledgement with an unrecognized resultType', async () => {
    answered['tasks/cancel'] = 'noted';
    const called = await host.call('tools.call', { serverId: 'scripted', name: 'wait', arguments: {} });
    assert.equal(called.type, 'task');
    const outboundId = called.type === 'task' ? called.task.outboundId : '';
    await assert.rejects(host.call('outbound.cancel', { outboundId }), refusal('tasks/cancel', 'noted'));
    answered['tasks/cancel'] = 'complete';
  });
});

describe('a 2025-11-25 server with a resultType on its lists', () => {
  let host: Host;
  const data = tempDir();

  before(async () => {
    const [client, server] = InMemoryTransport.createLinkedPair();
    server.onmessage = (message: JSONRPCMessage) => {
      if (!('method' in message) || !('id' in message)) return;
      const results: Record<string, Record<string, unknown>> = {
        initialize: {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {}, prompts: {}, resources: {} },
          serverInfo: { name: 'legacy', version: '1' }
        },
        'tools/list': { resultType: 'deferred', tools: [tool('echo')] },
        'prompts/list': { resultType: 'later', prompts: [{ name: 'greeting' }] },
        'resources/list': { resultType: 'input_required', resources: [] }
      };
      const result = results[message.method];
      void server.send(
        result
          ? { jsonrpc: '2.0', id: message.id, result }
          : { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }
      );
    };
    await server.start();
    host = createHost({
      dataDir: path.join(data.dir, 'host'),
      autoConnect: false,
      servers: [
        {
          id: 'legacy',
          name: 'Legacy',
          transport: { type: 'stdio', command: 'unused', args: [] },
          autoConnect: false,
          protocol: '2025-11-25'
        }
      ],
      transportFactory: () => client
    });
    const view = await host.connect('legacy');
    assert.equal(view.state.era, 'legacy', view.state.reason);
  });

  after(async () => {
    await host.close();
    data.remove();
  });

  it('reads its lists as before: its revision has no resultType', async () => {
    const tools = await host.call('tools.list', { serverId: 'legacy', refresh: true });
    assert.deepEqual(
      tools.map((listed) => listed.name),
      ['echo']
    );
    const sources = await host.call('assistant.sources', { serverId: 'legacy' });
    assert.deepEqual(
      sources.prompts.map((prompt) => prompt.name),
      ['greeting']
    );
  });
});
