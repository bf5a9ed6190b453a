import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { systemClock } from '../../../app/core/clock.js';
import { createHost, type Host } from '../../../app/host/host.js';
import type { ServerConfig } from '../../../app/mcp/server-config.js';
import { compiledProgram } from '../../support/compiled-program.js';
import { nextEvent, tempDir } from '../../support/host-fixture.js';
import { CAPABILITIES_KEY, modernTaskCalls, TASKS, VERSION_KEY } from '../../support/modern-requestor.js';
import { countSent, recordSends, resultText, type SentMessage } from '../../support/requestor-harness.js';

/**
 * The requestor against a real MCP 2026-07-28 server (the v2 server package, over stdio):
 * the `server/discover` probe, tool calls that become tasks of the `io.modelcontextprotocol/tasks`
 * extension, `tasks/get` outcomes, input requests answered from the inbox with `tasks/update`,
 * cancellation, plain results; and legacy servers that still connect with `initialize`.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const support = (name: string) => fileURLToPath(new URL(`../../support/${name}`, import.meta.url));

const tsServer = (id: string, script: string, arg?: string): ServerConfig => ({
  id,
  name: `Server ${id}`,
  transport: {
    type: 'stdio',
    command: process.execPath,
    args: [compiledProgram(support(script)), ...(arg === undefined ? [] : [arg])],
    cwd: root
  },
  autoConnect: false
});

describe('requestor and a 2026-07-28 server over stdio (tasks extension)', () => {
  let host: Host;
  const data = tempDir();
  /** What the host sent to each server: one recording per transport it made, by server id. */
  const wire = new Map<string, SentMessage[][]>();

  before(async () => {
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      // Every server here answers the probe (or exits on it): none is meant to time out, so a
      // child that starts slowly on a loaded machine must not be taken for a silent one.
      probeTimeoutMs: 30_000,
      connectTimeoutMs: 60_000,
      servers: [
        tsServer('modern', 'modern-task-server.ts', '{"legacy":"reject"}'),
        tsServer('dual', 'modern-task-server.ts', '{"legacy":"serve"}'),
        tsServer('legacy', 'requestor-stdio-server.ts', '{"pollInterval":100}'),
        tsServer('strict', 'legacy-strict-server.ts')
      ],
      transportFactory: (config) => {
        const target = config.transport;
        if (target.type !== 'stdio') throw new Error('stdio only here');
        const transport = new StdioClientTransport({
          command: target.command,
          args: target.args,
          cwd: target.cwd ?? root,
          env: getDefaultEnvironment(),
          stderr: 'pipe'
        });
        wire.set(config.id, [...(wire.get(config.id) ?? []), recordSends(transport, systemClock)]);
        return transport;
      }
    });
    const view = await host.connect('modern');
    assert.equal(view.state.status, 'ready', view.state.reason);
  });

  after(async () => {
    await host.close();
    data.remove();
  });

  const sentTo = (serverId: string): SentMessage[] => (wire.get(serverId) ?? []).flat();

  const { startTask, settled } = modernTaskCalls(() => host, 'modern');

  it('detects the era with server/discover: no initialize, and every request carries the envelope', async () => {
    const state = host.connection('modern')!.state;
    assert.equal(state.era, 'modern');
    assert.equal(state.protocolVersion, '2026-07-28');
    assert.equal(state.serverInfo?.name, 'modern-task-server');
    assert.ok(
      (state.capabilities?.extensions as Record<string, unknown>)[TASKS],
      'the server declared the tasks extension'
    );
    await host.call('tools.list', { serverId: 'modern' });
    const sent = sentTo('modern').filter((m) => m.method !== undefined);
    assert.equal(sent[0]?.method, 'server/discover');
    assert.equal(countSent(sent, 'initialize'), 0);
    for (const message of sent)
      assert.equal((message.params?._meta as Record<string, unknown>)[VERSION_KEY], '2026-07-28', message.method);
  });

  it('shows every tool as task-or-plain: the server decides per call', async () => {
    const tools = await host.call('tools.list', { serverId: 'modern' });
    const echo = tools.find((tool) => tool.name === 'echo');
    assert.equal(echo?.callMode, 'task-or-plain');
    assert.equal(echo?.taskSupport, 'optional');
  });

  it('follows a tool call that became a task to completed, and keeps its result', async () => {
    const created = await startTask('echo', { text: 'hi' });
    assert.equal(created.protocol, '2026-07-28');
    assert.equal(created.state, 'working');
    assert.equal(created.task.pollInterval, 50);
    assert.equal(created.task.ttl, 600_000);
    assert.ok(created.expiresAt);
    const done = await settled(created.outboundId);
    assert.equal(done.state, 'completed');
    assert.equal(resultText(done), 'echo: hi');
    assert.equal(countSent(sentTo('modern'), 'tasks/result'), 0, 'there is no tasks/result in 2026-07-28');
    const call = sentTo('modern').find(
      (m) => m.method === 'tools/call' && (m.params?.arguments as { text?: string }).text === 'hi'
    );
    assert.equal(call?.params?.task, undefined, 'no task param: the extension is declared in the envelope');
    assert.deepEqual((call?.params?._meta as Record<string, { extensions?: unknown }>)[CAPABILITIES_KEY]?.extensions, {
      [TASKS]: {}
    });
    assert.equal((await host.call('outbound.get', { outboundId: created.outboundId })).state, 'completed');
  });

  it('keeps the JSON-RPC error of a failed task', async () => {
    const created = await startTask('fail', { message: 'disk on fire' });
    const done = await settled(created.outboundId);
    assert.equal(done.state, 'failed');
    assert.equal(done.task.statusMessage, 'it broke');
    assert.deepEqual(done.outcome?.type === 'error' ? done.outcome.error : undefined, {
      code: -32050,
      message: 'disk on fire'
    });
  });

  it('puts an input_required question in the inbox, naming the tool, and answers it once with tasks/update', async () => {
    const asked: string[] = [];
    const off = host.on('inbox.added', ({ item }) => asked.push(item.id));
    const question = nextEvent(host, 'inbox.added');
    const created = await startTask('ask-name');
    const { item } = await question;
    assert.equal(item.kind, 'elicitation');
    assert.equal(item.relatedCall, undefined, 'a task waits on it, not a call of Taskdesk’s');
    assert.equal(item.origin, 'tool ask-name');
    assert.equal(item.relatedTaskId, created.taskId);
    assert.equal(item.request.message, 'Your name?');
    assert.equal(host.requestor.get(created.outboundId)?.state, 'input_required');
    const done = settled(created.outboundId);
    await host.call('inbox.answer', { id: item.id, answer: { action: 'accept', content: { name: 'Ada' } } });
    const finished = await done;
    off();
    assert.equal(finished.state, 'completed');
    assert.equal(resultText(finished), 'hello Ada');
    assert.deepEqual(finished.answeredInputs, ['name-1']);
    assert.equal(asked.length, 1, 'the question was asked once, though later polls still listed it');
    const updates = sentTo('modern').filter((m) => m.method === 'tasks/update' && m.params?.taskId === created.taskId);
    assert.equal(updates.length, 1);
    assert.deepEqual(updates[0]?.params?.inputResponses, { 'name-1': { action: 'accept', content: { name: 'Ada' } } });
    const stats = await host.call('tools.call', { serverId: 'modern', name: 'stats', arguments: {} });
    const counts = JSON.parse(
      stats.type === 'result' ? ((stats.result.content as Array<{ text: string }>)[0]?.text ?? '{}') : '{}'
    ) as Record<string, unknown>;
    assert.deepEqual(counts[created.taskId], { 'name-1': 1 }, 'the server received one answer for the key');
  });

  it('routes a sampling input request to the sampling runner (a person replies, no model configured)', async () => {
    const question = nextEvent(host, 'inbox.added');
    const created = await startTask('ask-model');
    const { item } = await question;
    assert.equal(item.kind, 'sampling');
    assert.equal(item.origin, 'tool ask-model');
    const done = settled(created.outboundId);
    await host.call('inbox.answer', { id: item.id, answer: { action: 'reply', text: 'Hello', model: 'human' } });
    const finished = await done;
    assert.equal(finished.state, 'completed');
    assert.equal(resultText(finished), 'model said: Hello');
  });

  it('withdraws a waiting input request of a task the person cancels as their own doing, not the server’s', async () => {
    const question = nextEvent(host, 'inbox.added');
    const created = await startTask('ask-model');
    const { item } = await question;
    const removed = nextEvent(host, 'inbox.removed', ({ id }) => id === item.id);
    const done = settled(created.outboundId);
    await host.call('outbound.cancel', { outboundId: created.outboundId });
    assert.deepEqual(await removed, {
      id: item.id,
      why: 'withdrawn',
      reason: 'The task this was asked for (tool ask-model) was cancelled by you.',
      byYou: true
    });
    assert.equal((await done).state, 'cancelled');
  });

  it('cancels a task with tasks/cancel, then learns it is cancelled by polling', async () => {
    const created = await startTask('wait');
    const cancelled = await host.call('outbound.cancel', { outboundId: created.outboundId });
    const done = cancelled.outcome ? cancelled : await settled(created.outboundId);
    assert.equal(done.state, 'cancelled');
    assert.equal(done.task.statusMessage, 'cancelled at the client’s request');
    assert.equal(done.outcome?.type === 'error' ? done.outcome.error.code : undefined, -32800);
    assert.equal(
      sentTo('modern').filter((m) => m.method === 'tasks/cancel' && m.params?.taskId === created.taskId).length,
      1
    );
  });

  it('returns a plain result when the server answers plainly, or when the caller asks for no task', async () => {
    const quick = await host.call('tools.call', { serverId: 'modern', name: 'quick', arguments: { text: 'now' } });
    assert.equal(quick.type, 'result');
    assert.equal(
      quick.type === 'result' ? (quick.result.content as Array<{ text: string }>)[0]?.text : undefined,
      'quick: now'
    );
    const plain = await host.call('tools.call', {
      serverId: 'modern',
      name: 'echo',
      arguments: { text: 'x' },
      asTask: false
    });
    assert.equal(
      plain.type === 'result' ? (plain.result.content as Array<{ text: string }>)[0]?.text : undefined,
      'echo (plain): x'
    );
    const call = sentTo('modern').find(
      (m) => m.method === 'tools/call' && (m.params?.arguments as { text?: string }).text === 'x'
    );
    assert.equal(
      (call?.params?._meta as Record<string, { extensions?: unknown }>)[CAPABILITIES_KEY]?.extensions,
      undefined,
      'no tasks extension declared'
    );
    // Every tools/call so far (plain, and those that became tasks) carried a progress token beside the envelope.
    const toolCalls = sentTo('modern').filter((m) => m.method === 'tools/call');
    assert.ok(toolCalls.length >= 3);
    for (const sent of toolCalls) {
      const meta = sent.params?._meta as Record<string, unknown>;
      assert.notEqual(meta.progressToken, undefined, JSON.stringify(sent.params));
      assert.notEqual(meta[VERSION_KEY], undefined, 'the envelope is kept');
    }
  });

  it('refuses tasks/list, which the extension does not have', async () => {
    const reply = await host.dispatch('outbound.serverTasks', { serverId: 'modern' });
    assert.equal(reply.ok, false);
    if (!reply.ok) assert.equal(reply.error.code, -32601);
  });

  it('takes a dual-era server (one that would also initialize) as modern', async () => {
    const view = await host.connect('dual');
    assert.equal(view.state.status, 'ready', view.state.reason);
    assert.equal(view.state.era, 'modern');
    assert.equal(countSent(sentTo('dual'), 'initialize'), 0);
    const created = await host.call('tools.call', { serverId: 'dual', name: 'echo', arguments: { text: 'dual' } });
    assert.equal(created.type, 'task');
    if (created.type === 'task') assert.equal(resultText(await settled(created.task.outboundId)), 'echo: dual');
  });

  it('connects a legacy server the old way after server/discover fails, and calls its tools as 2025-11-25 tasks', async () => {
    const view = await host.connect('legacy');
    assert.equal(view.state.status, 'ready', view.state.reason);
    assert.equal(view.state.era, 'legacy');
    const methods = sentTo('legacy')
      .map((m) => m.method)
      .filter((m) => m !== undefined);
    assert.deepEqual(methods.slice(0, 3), ['server/discover', 'initialize', 'notifications/initialized']);
    const outcome = await host.call('tools.call', {
      serverId: 'legacy',
      name: 'work-required',
      arguments: { durationMs: 50, label: 'old way' }
    });
    assert.equal(outcome.type, 'task');
    if (outcome.type !== 'task') return;
    assert.equal(outcome.task.protocol, undefined);
    const done = await settled(outcome.task.outboundId);
    assert.equal(done.state, 'completed');
    assert.equal(resultText(done), 'done: old way');
    assert.equal(countSent(sentTo('legacy'), 'tasks/result'), 1);
  });

  it('starts a fresh process for a legacy server that exits on server/discover', async () => {
    const view = await host.connect('strict');
    assert.equal(view.state.status, 'ready', view.state.reason);
    assert.equal(view.state.era, 'legacy');
    const methods = sentTo('strict')
      .map((m) => m.method)
      .filter((m) => m !== undefined);
    assert.deepEqual(methods.slice(0, 2), ['server/discover', 'initialize']);
    assert.deepEqual(
      wire.get('strict')?.map((sent) => sent[0]?.method),
      ['server/discover', 'initialize'],
      'initialize went to a second process'
    );
    const tools = await host.call('tools.list', { serverId: 'strict' });
    assert.ok(tools.some((tool) => tool.name === 'work-required'));
  });
});
