import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CreateTaskResultSchema,
  ElicitResultSchema,
  ListToolsRequestSchema,
  type CallToolResult
} from '@modelcontextprotocol/sdk/types.js';
import type { HostEventPayload } from '../../../app/contract/host-api.js';
import { auditSentence } from '../../../app/contract/audit-words.js';
import { ManualClock } from '../../support/manual-clock.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createHost, type Host } from '../../../app/host/host.js';
import { nextEvent, peerServer, startHostWith, tempDir, type InMemoryHostFixture } from '../../support/host-fixture.js';

/**
 * A server whose `slow` tool reports progress and ends when the test says, and whose `ask` tool
 * elicits first (and with `thenWait`, goes on after the answer until the test says). `ask-as-task`
 * asks the same question as a task-augmented request (Taskdesk receives it as a task) and waits
 * on `tasks/result` for the answer, as server-everything's `trigger-sampling-request-async` does.
 */
function toolServer() {
  const server = new Server({ name: 'tools', version: '1.0.0' }, { capabilities: { tools: {} } });
  const controls: {
    progress?: (progress: number, message: string) => Promise<void>;
    finish?: (text: string) => void;
    aborted: Promise<string>;
    /** Settles once the next call that runs on past its question can report progress. */
    nextListening: () => Promise<void>;
  } = {
    aborted: new Promise(() => undefined),
    nextListening: () => new Promise<void>((resolve) => listening.push(resolve))
  };
  const listening: Array<() => void> = [];
  let markAborted: (reason: string) => void = () => undefined;
  controls.aborted = new Promise((resolve) => (markAborted = resolve));
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      { name: 'slow', inputSchema: { type: 'object' } },
      { name: 'ask', inputSchema: { type: 'object' } },
      { name: 'ask-as-task', inputSchema: { type: 'object' } }
    ]
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    // A cancel can reach the server before its handler runs: the signal is then aborted already.
    if (extra.signal.aborted) markAborted(String(extra.signal.reason));
    else extra.signal.addEventListener('abort', () => markAborted(String(extra.signal.reason)), { once: true });
    if (request.params.name === 'ask') {
      const answer = await extra.sendRequest(
        {
          method: 'elicitation/create',
          params: { mode: 'form', message: 'Go on?', requestedSchema: { type: 'object', properties: {} } }
        },
        ElicitResultSchema,
        // Its question ends with the call: a cancelled call cancels it (notifications/cancelled).
        { timeout: 24 * 3_600_000, signal: extra.signal }
      );
      if (!request.params.arguments?.thenWait)
        return { content: [{ type: 'text', text: `answered ${answer.action}` }] };
    }
    if (request.params.name === 'ask-as-task') {
      const { task } = await extra.sendRequest(
        {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Go on?',
            requestedSchema: { type: 'object', properties: {} },
            task: { ttl: 3_600_000 }
          }
        },
        CreateTaskResultSchema
      );
      const answer = await extra.sendRequest(
        { method: 'tasks/result', params: { taskId: task.taskId } },
        ElicitResultSchema,
        { timeout: 24 * 3_600_000 }
      );
      if (!request.params.arguments?.thenWait)
        return { content: [{ type: 'text', text: `answered ${answer.action}` }] };
    }
    const token = request.params._meta?.progressToken;
    return new Promise<CallToolResult>((resolve) => {
      controls.progress = (progress, message) =>
        extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token!, progress, total: 3, message }
        });
      controls.finish = (text) => resolve({ content: [{ type: 'text', text }] });
      for (const settle of listening.splice(0)) settle();
    });
  });
  return { peer: { ...peerServer('tools'), server }, controls, hasToken: () => controls.progress !== undefined };
}

function calls(fixture: InMemoryHostFixture) {
  const seen: Array<HostEventPayload<'call.changed'>['call']> = [];
  fixture.host.on('call.changed', ({ call }) => seen.push(call));
  return seen;
}

/**
 * Answers Inbox item `itemId`; once call `callId` no longer says it waits on the person, checks
 * that its idle timeout starts afresh: still running 59 s later, ended −32001 at 60 s.
 */
async function answerThenTimeOut(
  host: Host,
  clock: ManualClock,
  itemId: string,
  callId: string,
  call: Promise<{ ok: true } | { ok: false; error: { code: number } }>
): Promise<void> {
  const answered = nextEvent(
    host,
    'call.changed',
    ({ call }) => call.callId === callId && call.state === 'running' && call.waitingOnPerson === undefined
  );
  await host.dispatch('inbox.answer', { id: itemId, answer: { action: 'accept', content: {} } });
  await answered;
  await clock.advance(59_000);
  assert.equal((await host.call('tools.runningCalls', {})).length, 1, '59 s after the answer');
  await clock.advance(1_000);
  const reply = await call;
  assert.equal(reply.ok ? undefined : reply.error.code, -32001);
}

/** The audit log's entries of tool calls and Inbox answers, oldest first: when, and what they say. */
async function audited(host: Host): Promise<Array<[string, string]>> {
  const entries = await host.call('audit.read', {});
  return entries
    .filter((entry) => entry.type.startsWith('tool.') || entry.type.startsWith('inbox.'))
    .reverse()
    .map((entry) => [entry.at, auditSentence(entry)]);
}

describe('plain tool calls: progress, a timeout that progress and the person hold off, cancel', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** The tool server joined to a host on the test's clock, disposed after the test. */
  const joined = async () => {
    const clock = new ManualClock();
    const { peer, controls } = toolServer();
    const fixture = await startHostWith({ tools: peer }, { clock });
    cleanups.push(() => fixture.dispose());
    return { clock, peer, controls, fixture };
  };

  it('carries a progress token; progress shows and resets the 60 s timeout; no progress for 60 s times out with notifications/cancelled', async () => {
    const { clock, controls, fixture } = await joined();
    const seen = calls(fixture);

    const started = nextEvent(fixture.host, 'call.changed', ({ call }) => call.state === 'running');
    const first = fixture.host.dispatch('tools.call', { serverId: 'tools', name: 'slow', callId: 'c1' });
    assert.equal((await started).call.callId, 'c1');
    await clock.advance(59_000);
    const progressed = nextEvent(fixture.host, 'call.changed', ({ call }) => call.progress?.progress === 1);
    await controls.progress!(1, 'Reading');
    assert.deepEqual((await progressed).call.progress, {
      progress: 1,
      total: 3,
      message: 'Reading',
      at: new Date(clock.now()).toISOString()
    });
    await clock.advance(59_000);
    const running = await fixture.host.dispatch('tools.runningCalls', {});
    assert.ok(running.ok && running.result.length === 1, 'progress reset the timeout');
    controls.finish!('done');
    const reply = await first;
    assert.ok(reply.ok && reply.result.type === 'result');
    assert.equal(seen.at(-1)?.state, 'completed');

    const second = fixture.host.dispatch('tools.call', { serverId: 'tools', name: 'slow', callId: 'c2' });
    await nextEvent(fixture.host, 'call.changed', ({ call }) => call.callId === 'c2');
    await clock.advance(60_000);
    const timedOut = await second;
    assert.equal(timedOut.ok ? undefined : timedOut.error.code, -32001);
    assert.match(timedOut.ok ? '' : timedOut.error.message, /sent no answer or progress for 60 s/);
    assert.match(await controls.aborted, /60 s/, 'the server was told with notifications/cancelled');
  });

  it('does not time out while the person answers the question the call asked, however long', async () => {
    const { clock, fixture } = await joined();
    const asked = nextEvent(fixture.host, 'inbox.added');
    const waiting = nextEvent(fixture.host, 'call.changed', ({ call }) => call.waitingOnPerson === true);
    const call = fixture.host.dispatch('tools.call', { serverId: 'tools', name: 'ask', callId: 'c3' });
    const { item } = await asked;
    await waiting;
    await clock.advance(10 * 60_000);
    assert.equal((await fixture.host.call('tools.runningCalls', {})).length, 1, 'still running after 10 min');
    await fixture.host.dispatch('inbox.answer', { id: item.id, answer: { action: 'accept', content: {} } });
    const reply = await call;
    assert.ok(reply.ok && reply.result.type === 'result');
    assert.deepEqual(reply.result.type === 'result' && reply.result.result.content, [
      { type: 'text', text: 'answered accept' }
    ]);
  });

  it('says at once that the call may wait on the person, and starts its timeout afresh once answered', async () => {
    const { clock, controls, fixture } = await joined();
    const asked = nextEvent(fixture.host, 'inbox.added');
    // Said when the question comes in, with no time passing: not only once the idle timeout runs out.
    const waiting = nextEvent(
      fixture.host,
      'call.changed',
      ({ call }) => call.callId === 'c5' && call.waitingOnPerson === true
    );
    const call = fixture.host.dispatch('tools.call', {
      serverId: 'tools',
      name: 'ask',
      arguments: { thenWait: true },
      callId: 'c5'
    });
    const { item } = await asked;
    await waiting;
    // A call started while the question waits may wait on it as well: said from its start.
    const second = nextEvent(fixture.host, 'call.changed', ({ call }) => call.callId === 'c6');
    const slowListening = controls.nextListening();
    const slow = fixture.host.dispatch('tools.call', { serverId: 'tools', name: 'slow', callId: 'c6' });
    assert.equal((await second).call.waitingOnPerson, true);
    // Progress says the server works, but its question is still in the Inbox: still said.
    await slowListening;
    const progressed = nextEvent(fixture.host, 'call.changed', ({ call }) => call.callId === 'c6' && !!call.progress);
    await controls.progress!(1, 'Working');
    assert.equal((await progressed).call.waitingOnPerson, true);
    await fixture.host.dispatch('tools.cancelCall', { callId: 'c6' });
    await slow;
    await clock.advance(59_000);
    // The server has its answer: a full 60 s from then, not from the call's start.
    await answerThenTimeOut(fixture.host, clock, item.id, 'c5', call);
  });

  it("does not time out while the server's task-augmented question waits in the Inbox, says so at once, and starts afresh once answered", async () => {
    const { clock, fixture } = await joined();
    const asked = nextEvent(fixture.host, 'inbox.added');
    const call = fixture.host.dispatch('tools.call', {
      serverId: 'tools',
      name: 'ask-as-task',
      arguments: { thenWait: true },
      callId: 'c7'
    });
    const { item } = await asked;
    assert.ok(item.taskId !== undefined, 'the question is a task Taskdesk received');
    // Said when the question comes in ("is waiting for you in the Inbox"), with no time passing.
    const [said] = await fixture.host.call('tools.runningCalls', {});
    assert.deepEqual([said?.callId, said?.waitingOnPerson], ['c7', true]);
    await clock.advance(10 * 60_000);
    const [running] = await fixture.host.call('tools.runningCalls', {});
    assert.deepEqual([running?.callId, running?.waitingOnPerson], ['c7', true], 'still running after 10 min');
    // The server's task is answered: a full 60 s from then, and the call times out as any other.
    await answerThenTimeOut(fixture.host, clock, item.id, 'c7', call);
  });

  it('Cancel ends the call as cancelled by you and tells the server', async () => {
    const { controls, fixture } = await joined();
    const seen = calls(fixture);
    const call = fixture.host.dispatch('tools.call', { serverId: 'tools', name: 'slow', callId: 'c4' });
    await nextEvent(fixture.host, 'call.changed', ({ call }) => call.callId === 'c4');
    assert.deepEqual(await fixture.host.dispatch('tools.cancelCall', { callId: 'c4' }), {
      ok: true,
      result: { ok: true }
    });
    const reply = await call;
    assert.deepEqual(reply.ok ? undefined : reply.error, {
      code: -32800,
      message: 'Cancelled by you',
      data: { cancelledBy: 'you' }
    });
    // Its words alone: the reason the server is told is `String(reason)`.
    assert.equal(await controls.aborted, 'Cancelled by you');
    assert.equal(seen.at(-1)?.state, 'cancelled');
    const [entry] = (await fixture.host.call('history.list', { filter: { status: 'cancelled' } })).entries;
    assert.deepEqual([entry?.title, entry?.cancelledBy], ['Tool call: slow', 'you']);
    const unknown = await fixture.host.dispatch('tools.cancelCall', { callId: 'c4' });
    assert.equal(unknown.ok ? undefined : unknown.error.code, -32602);
  });

  it('the audit log says the call when it was made, before the question it asked, and how it ended after', async () => {
    const { clock, fixture } = await joined();
    const asked = nextEvent(fixture.host, 'inbox.added');
    const madeAt = new Date(clock.now()).toISOString();
    const call = fixture.host.dispatch('tools.call', { serverId: 'tools', name: 'ask', callId: 'a1' });
    const { item } = await asked;
    await clock.advance(14_000);
    const answeredAt = new Date(clock.now()).toISOString();
    await fixture.host.dispatch('inbox.answer', { id: item.id, answer: { action: 'accept', content: {} } });
    assert.ok((await call).ok);
    assert.deepEqual(await audited(fixture.host), [
      [madeAt, 'You called the tool ask'],
      [answeredAt, 'You answered a question: “Go on?”'],
      [answeredAt, 'The tool ask returned its result']
    ]);
  });

  it('the audit log says a call the person cancelled was cancelled by them, not that it failed', async () => {
    const { fixture } = await joined();
    // Cancelled with its Cancel (the Tools screen's, which knows the call by the id it gave): said once.
    const first = fixture.host.dispatch('tools.call', { serverId: 'tools', name: 'slow', callId: 'a2' });
    await nextEvent(fixture.host, 'call.changed', ({ call }) => call.callId === 'a2');
    await fixture.host.dispatch('tools.cancelCall', { callId: 'a2' });
    assert.equal((await first).ok, false);
    // A call of a caller that gave no id, cancelled by the id Taskdesk gave it: said once too.
    const started = nextEvent(fixture.host, 'call.changed', ({ call }) => call.state === 'running');
    const second = fixture.host.dispatch('tools.call', { serverId: 'tools', name: 'slow' });
    const { callId } = (await started).call;
    await fixture.host.dispatch('tools.cancelCall', { callId });
    assert.equal((await second).ok, false);
    const said = (await audited(fixture.host)).map(([, sentence]) => sentence);
    assert.deepEqual(said, [
      'You called the tool slow',
      'You cancelled the call to the tool slow',
      'You called the tool slow',
      'You cancelled the call to the tool slow'
    ]);
    // A second call under the id of one still running is refused, and nothing is said of it.
    const third = fixture.host.dispatch('tools.call', { serverId: 'tools', name: 'slow', callId: 'a3' });
    await nextEvent(fixture.host, 'call.changed', ({ call }) => call.callId === 'a3');
    const again = await fixture.host.dispatch('tools.call', { serverId: 'tools', name: 'slow', callId: 'a3' });
    assert.equal(again.ok, false);
    await fixture.host.dispatch('tools.cancelCall', { callId: 'a3' });
    await third;
    assert.equal((await audited(fixture.host)).length, 6);
  });

  it('tells that a question its server withdrew came after the person stopped the call it was asked during', async () => {
    const { clock, peer, fixture } = await joined();
    const asked = nextEvent(fixture.host, 'inbox.added');
    const call = fixture.host.dispatch('tools.call', { serverId: 'tools', name: 'ask', callId: 'c8' });
    const { item } = await asked;
    const removed = nextEvent(fixture.host, 'inbox.removed');
    await fixture.host.dispatch('tools.cancelCall', { callId: 'c8' });
    // The server cancelled its question as the call ended: not its own change of mind.
    assert.deepEqual(await removed, { id: item.id, why: 'withdrawn', afterStoppedCall: 'ask' });
    await call;

    // A question asked after that stop, and withdrawn, is its server's doing alone.
    await clock.advance(1_000);
    const controller = new AbortController();
    const later = nextEvent(fixture.host, 'inbox.added');
    const question = peer.server
      .elicitInput(
        { mode: 'form', message: 'Later?', requestedSchema: { type: 'object', properties: {} } },
        {
          signal: controller.signal
        }
      )
      .catch(() => undefined);
    const { item: second } = await later;
    const withdrawn = nextEvent(fixture.host, 'inbox.removed');
    controller.abort('changed its mind');
    assert.deepEqual(await withdrawn, { id: second.id, why: 'withdrawn' });
    await question;
  });
});

/**
 * A 2025-11-25 server that accepts task-augmented tools/call and still answers its one tool
 * plainly (the SDK's own Server refuses to, so this peer answers JSON-RPC by hand): it sends
 * progress for the call's token and answers when the test says, or ends on notifications/cancelled.
 */
function plainAnsweringTaskServer(transport: InMemoryTransport) {
  const seen: { call?: Record<string, unknown>; cancelled?: Record<string, unknown> } = {};
  let pending: { id: number | string; token: unknown } | undefined;
  const send = (message: Record<string, unknown>) => transport.send({ jsonrpc: '2.0', ...message } as never);
  transport.onmessage = (message) => {
    const m = message as { id?: number | string; method?: string; params?: Record<string, unknown> };
    if (m.method === 'initialize')
      void send({
        id: m.id,
        result: {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } } } },
          serverInfo: { name: 'plain-answering', version: '1.0.0' }
        }
      });
    else if (m.method === 'tools/list')
      void send({
        id: m.id,
        result: {
          tools: [{ name: 'maybe', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } }]
        }
      });
    else if (m.method === 'tools/call') {
      seen.call = m.params;
      const token = (m.params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
      pending = { id: m.id!, token };
      void send({
        method: 'notifications/progress',
        params: { progressToken: token, progress: 1, total: 2, message: 'Halfway' }
      });
    } else if (m.method === 'notifications/cancelled') seen.cancelled = m.params;
    else if (m.id !== undefined && m.method)
      void send({ id: m.id, error: { code: -32601, message: 'Method not found' } });
  };
  return {
    seen,
    answer: (text: string) => send({ id: pending!.id, result: { content: [{ type: 'text', text }] } })
  };
}

describe('a task-preferred call the server answers plainly: a running call all along', () => {
  it('has a progress token, shows progress and elapsed time, and times out, or ends with its answer', async () => {
    const clock = new ManualClock();
    const data = tempDir();
    let server: ReturnType<typeof plainAnsweringTaskServer> | undefined;
    const host = createHost({
      dataDir: data.dir,
      clock,
      autoConnect: false,
      servers: [{ id: 'p', name: 'Plain answerer', transport: { type: 'stdio', command: 'in-memory' } }],
      transportFactory: () => {
        const [client, peer] = InMemoryTransport.createLinkedPair();
        server = plainAnsweringTaskServer(peer);
        void peer.start();
        return client;
      }
    });
    try {
      assert.equal((await host.connect('p')).state.status, 'ready');
      const progressed = nextEvent(host, 'call.changed', ({ call }) => call.progress !== undefined);
      const answered = host.dispatch('tools.call', { serverId: 'p', name: 'maybe', callId: 'pref-1' });
      const { call } = await progressed;
      assert.deepEqual([call.callId, call.state, call.progress?.message], ['pref-1', 'running', 'Halfway']);
      assert.ok(server!.seen.call?.task !== undefined, 'the call asked for a task');
      assert.notEqual((server!.seen.call?._meta as { progressToken?: unknown }).progressToken, undefined);
      // Progress reset the idle timeout: 59 s later it still runs; the plain answer ends it.
      await clock.advance(59_000);
      const running = await host.call('tools.runningCalls', {});
      assert.deepEqual(
        running.map((one) => one.callId),
        ['pref-1']
      );
      const ended = nextEvent(host, 'call.changed', ({ call }) => call.callId === 'pref-1' && call.state !== 'running');
      await server!.answer('done plainly');
      const reply = await answered;
      assert.ok(reply.ok && reply.result.type === 'result');
      assert.equal((await ended).call.state, 'completed');

      // The same call left without answer or progress for 60 s times out. It asked for a task, so its
      // server is not told with notifications/cancelled, which MCP forbids for a task-augmented request.
      const second = host.dispatch('tools.call', { serverId: 'p', name: 'maybe', callId: 'pref-2' });
      await nextEvent(host, 'call.changed', ({ call }) => call.callId === 'pref-2' && call.progress !== undefined);
      await clock.advance(60_000);
      const timedOut = await second;
      assert.equal(timedOut.ok ? undefined : timedOut.error.code, -32001);
      assert.equal(server!.seen.cancelled, undefined);

      // Neither became a task, and History keeps both: what was asked, and how each ended.
      const page = await host.call('history.list', {});
      assert.deepEqual(
        page.entries.map((entry) => [entry.id.split(':')[0], entry.kind, entry.direction, entry.status, entry.taskId]),
        [
          ['call', 'tool-call', 'requested', 'failed', undefined],
          ['call', 'tool-call', 'requested', 'completed', undefined]
        ]
      );
      const [failed, completed] = await Promise.all(
        page.entries.map((entry) => host.call('history.get', { id: entry.id }))
      );
      assert.deepEqual(completed!.request, { name: 'maybe', arguments: {} });
      assert.deepEqual(completed!.result, { content: [{ type: 'text', text: 'done plainly' }] });
      assert.equal(failed!.error?.code, -32001);
      assert.equal(failed!.result, undefined);
    } finally {
      await host.close();
      data.remove();
    }
  });
});
