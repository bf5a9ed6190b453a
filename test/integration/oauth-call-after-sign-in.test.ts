import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createHost, type Host } from '../../app/host/host.js';
import type { CallToolOutcome } from '../../app/contract/outbound-tasks.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { signInHeadlessly } from '../support/conformance-auth.js';
import { startOAuthTestServers, type OAuthTestServers } from '../support/oauth-test-servers.js';
import { ManualClock } from '../support/manual-clock.js';
import { createTaskToolServer } from '../support/task-tool-server.js';
import { ClockedTaskStore } from '../support/requestor-task-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { answered, saveFakeProvider, settled } from '../support/assistant-fixture.js';

/**
 * A tool call that an OAuth-protected server refuses for want of a sign-in (its grant was revoked:
 * 401, and no refresh helps) never reached the tool. It waits, in the core, for the sign-in the
 * server's card asks for, and is sent again once the person signed in and the server is connected
 * again; a sign-in given up ends it failed, saying why, and so does a second refusal.
 */
describe('a tool call refused for want of a sign-in, sent again after it', () => {
  let servers: OAuthTestServers | undefined;
  let data: ReturnType<typeof tempDir> | undefined;
  let host: Host | undefined;
  let llm: FakeOpenAIServer | undefined;

  afterEach(async () => {
    await host?.close();
    await servers?.close();
    await llm?.close();
    data?.remove();
    host = servers = data = llm = undefined;
  });

  /** The pair of servers and a host signed in to Protected, its tool list read. */
  async function start(
    mcpServer?: () => McpServer,
    clock?: ManualClock
  ): Promise<{ host: Host; servers: OAuthTestServers }> {
    servers = await startOAuthTestServers({ consent: 'auto', ...(mcpServer && { mcpServer }) });
    data = tempDir('taskdesk-oauth-resend-');
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      keyStore: new InMemoryKeyStore(),
      ...(clock && { clock }),
      servers: [{ id: 'protected', name: 'Protected', transport: { type: 'http', url: servers.mcpUrl } }]
    });
    await host.call('servers.connect', { serverId: 'protected' });
    await signInHeadlessly(host, 'protected');
    // Read as the Tools screen reads it: a call then goes without reading it first.
    await host.call('tools.list', { serverId: 'protected' });
    return { host, servers };
  }

  /** How a call ended, for an assertion's message. */
  const said = (ended: CallToolOutcome | Error): string =>
    ended instanceof Error ? `${ended.name}: ${ended.message}` : JSON.stringify(ended);

  /** Starts a call (`whoami` on Protected); resolves once it waits for the sign-in, fails if it ends first. */
  async function callWaiting(
    host: Host,
    { serverId = 'protected', name = 'whoami', args = {} }: { serverId?: string; name?: string; args?: object } = {}
  ): Promise<{ outcome: Promise<CallToolOutcome | Error>; callId: string }> {
    const callId = `call-${Math.random().toString(36).slice(2)}`;
    const waiting = new Promise<void>((resolve) => {
      const off = host.on('call.changed', ({ call }) => {
        if (call.callId !== callId || call.waitingForSignIn !== true) return;
        off();
        resolve();
      });
    });
    const outcome = host.call('tools.call', { serverId, name, arguments: { ...args }, callId }).then(
      (result) => result,
      (error: Error) => error
    );
    await Promise.race([waiting, outcome.then((ended) => assert.fail(`ended without waiting: ${said(ended)}`))]);
    return { outcome, callId };
  }

  const textOf = (outcome: CallToolOutcome | Error): unknown => {
    assert.ok(!(outcome instanceof Error), `answered, not ${said(outcome)}`);
    assert.equal(outcome.type, 'result');
    if (outcome.type !== 'result') return undefined;
    const [block] = (outcome.result.content ?? []) as Array<{ text?: string }>;
    return JSON.parse(block?.text ?? 'null');
  };

  it('waits for the sign-in, then sends the call once more and returns its result', async () => {
    const { host, servers } = await start();
    const reached = servers.toolCallsReached;
    servers.revokeOnToolCalls(1);
    const { outcome, callId } = await callWaiting(host);
    // Waiting: the call still runs (no timeout), and the card asks for the sign-in.
    const [running] = (await host.call('tools.runningCalls', {})).filter((call) => call.callId === callId);
    assert.equal(running?.waitingForSignIn, true);
    assert.equal((await host.call('servers.list', {}))[0]?.state.auth?.status, 'sign-in-required');
    assert.equal(servers.toolCallsReached, reached, 'the refused call never reached the tool');

    await signInHeadlessly(host, 'protected');
    assert.deepEqual(textOf(await outcome), { subject: 'alice' });
    assert.equal(servers.toolCallsReached, reached + 1, 'sent again once');
    const ended = (await host.call('audit.read', { serverId: 'protected' })).filter(
      (entry) => entry.type === 'tool.call-ended' && (entry.detail as { callId?: string }).callId === callId
    );
    assert.deepEqual(
      ended.map((entry) => (entry.detail as { outcome?: string }).outcome),
      ['result']
    );
  });

  it('waits too when its tool list read before the call is what is refused', async () => {
    const { host, servers } = await start();
    // A new connection starts with no tool list: the call reads it first, and that is refused.
    await host.call('servers.disconnect', { serverId: 'protected' });
    await host.call('servers.connect', { serverId: 'protected' });
    servers.expireAccessTokens();
    servers.revokeRefreshTokens();
    const reached = servers.toolCallsReached;
    const listsRefused = servers.refused('tools/list');
    const callsRefused = servers.refused('tools/call');
    const { outcome } = await callWaiting(host);
    assert.equal(servers.refused('tools/list'), listsRefused + 1, 'its tool list read was refused');
    assert.equal(servers.refused('tools/call'), callsRefused, 'the call itself was not sent');
    await signInHeadlessly(host, 'protected');
    assert.deepEqual(textOf(await outcome), { subject: 'alice' });
    assert.equal(servers.toolCallsReached, reached + 1);
  });

  it('ends the call failed, not sent again, when the person cancels the sign-in', async () => {
    const { host, servers } = await start();
    const reached = servers.toolCallsReached;
    servers.revokeOnToolCalls(1);
    const { outcome } = await callWaiting(host);
    await host.call('auth.signIn', { serverId: 'protected' });
    await host.call('auth.cancelSignIn', { serverId: 'protected' });
    const ended = await outcome;
    assert.ok(ended instanceof Error);
    assert.equal(ended.message, 'You cancelled the sign-in to Protected, so the call was not sent again.');
    assert.equal(servers.toolCallsReached, reached);
    const [entry] = (await host.call('history.list', { filter: { serverId: 'protected' } })).entries;
    assert.equal(entry?.status, 'failed');
  });

  it('fails the call with the reason when the server refuses it again after the sign-in', async () => {
    const { host, servers } = await start();
    const reached = servers.toolCallsReached;
    servers.revokeOnToolCalls(2);
    const { outcome } = await callWaiting(host);
    await signInHeadlessly(host, 'protected');
    const ended = await outcome;
    assert.ok(ended instanceof Error);
    assert.match(
      ended.message,
      /^Protected asked for a sign-in again after you signed in; Taskdesk sends a call again only once\. Sign in to Protected at http:\/\/127\.0\.0\.1:\d+\/ to use it: press Sign in on its card in Taskdesk\.$/
    );
    assert.equal(servers.toolCallsReached, reached, 'neither request reached the tool');
  });

  it('ends the call failed when the server is removed while it waits, and cancelled when the person cancels it', async () => {
    const { host, servers } = await start();
    await host.call('servers.add', {
      id: 'mine',
      name: 'Mine',
      transport: { type: 'http', url: servers.mcpUrl },
      autoConnect: false
    });
    await host.call('servers.connect', { serverId: 'mine' });
    await signInHeadlessly(host, 'mine');
    servers.revokeOnToolCalls(1);
    const removed = await callWaiting(host, { serverId: 'mine' });
    await host.call('servers.remove', { serverId: 'mine' });
    assert.equal(((await removed.outcome) as Error).message, 'You removed Mine, so the call was not sent again.');

    servers.revokeOnToolCalls(1);
    const { outcome, callId: cancelled } = await callWaiting(host);
    await host.call('tools.cancelCall', { callId: cancelled });
    const ended = await outcome;
    assert.ok(ended instanceof Error);
    assert.equal((ended as Error & { data?: { cancelledBy?: string } }).data?.cancelledBy, 'you');
  });

  it('sends again the tools/call that creates a task, which then runs as any task', async () => {
    const clock = new ManualClock();
    const store = new ClockedTaskStore({ clock, pollInterval: 50 });
    const { host, servers } = await start(() => createTaskToolServer({ clock, store }).server);
    const reached = servers.toolCallsReached;
    servers.revokeOnToolCalls(1);
    const { outcome } = await callWaiting(host, { name: 'work-required', args: { durationMs: 1000, label: 'report' } });
    assert.equal((await store.listTasks()).tasks.length, 0, 'the refused call created no task');
    await signInHeadlessly(host, 'protected');
    const created = await outcome;
    assert.ok(!(created instanceof Error), said(created));
    assert.equal(created.type, 'task');
    assert.equal(servers.toolCallsReached, reached + 1);
    assert.equal((await store.listTasks()).tasks.length, 1, 'one task, created by the call sent again');
    if (created.type !== 'task') return;
    const outboundId = created.task.outboundId;
    const completed = nextEvent(
      host,
      'outbound.changed',
      (event) => event.type === 'changed' && event.task.outboundId === outboundId && event.task.outcome !== undefined
    );
    await clock.advance(1000);
    const ended = await completed;
    const taskOutcome = ended.type === 'changed' ? ended.task.outcome : undefined;
    assert.deepEqual(taskOutcome?.type === 'result' && taskOutcome.result.content, [
      { type: 'text', text: 'done: report' }
    ]);
  });

  it('sends again a call the Assistant made, and the model reads its result', async () => {
    const { host } = await start();
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    await saveFakeProvider(host, llm.baseURL);
    await host.call('assistant.setPolicy', { serverId: 'protected', policy: { mode: 'auto', alwaysAllow: [] } });
    const c = await host.call('assistant.create', {
      title: 'Who',
      providerId: 'fake',
      model: 'fake-small',
      serverIds: ['protected']
    });
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'w1', name: 'protected__whoami', arguments: '{}' }] },
      { kind: 'text', tokens: ['You are alice.'] }
    );
    servers!.revokeOnToolCalls(1);
    const waiting = new Promise<void>((resolve) => {
      const off = host.on('call.changed', ({ call }) => {
        if (call.origin?.conversationId !== c.id || call.waitingForSignIn !== true) return;
        off();
        resolve();
      });
    });
    await host.call('assistant.send', { conversationId: c.id, text: 'Who am I?' });
    await Promise.race([
      waiting,
      settled(host, c.id, answered).then((early) => assert.fail(`answered without waiting: ${JSON.stringify(early)}`))
    ]);
    await signInHeadlessly(host, 'protected');
    const done = await settled(host, c.id, answered);
    const call = done.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls : []))[0]!;
    assert.equal(call.state, 'completed');
    const result = done.messages.find((m) => m.role === 'tool' && m.toolCallId === call.id);
    assert.match(result?.role === 'tool' ? result.text : '', /alice/);
  });

  /** The call's running view, if it still runs. */
  const runningCall = async (host: Host, callId: string) =>
    (await host.call('tools.runningCalls', {})).find((call) => call.callId === callId);

  it('ends the call, not sent again, when the person disconnects the server while it waits', async () => {
    const { host, servers } = await start();
    const reached = servers.toolCallsReached;
    servers.revokeOnToolCalls(1);
    const { outcome, callId } = await callWaiting(host);
    await host.call('servers.disconnect', { serverId: 'protected' });
    assert.equal(await runningCall(host, callId), undefined, 'the Disconnect stopped it, as its dialog says');
    const ended = await outcome;
    assert.ok(ended instanceof Error);
    assert.equal(ended.message, 'You disconnected Protected, so the call was not sent again.');
    // A sign-in afterwards sends nothing.
    await signInHeadlessly(host, 'protected');
    assert.equal(servers.toolCallsReached, reached, 'never sent again');
    const [entry] = (await host.call('history.list', { filter: { serverId: 'protected' } })).entries;
    assert.equal(entry?.status, 'failed');
  });

  it('ends the call, not sent again, when a Save restarts the server while it waits', async () => {
    const { host, servers } = await start();
    await host.call('servers.add', {
      id: 'mine',
      name: 'Mine',
      transport: { type: 'http', url: servers.mcpUrl },
      autoConnect: false
    });
    await host.call('servers.connect', { serverId: 'mine' });
    await signInHeadlessly(host, 'mine');
    const reached = servers.toolCallsReached;
    servers.revokeOnToolCalls(1);
    const { outcome, callId } = await callWaiting(host, { serverId: 'mine' });
    const { id: _id, editable: _editable, ...settings } = await host.call('servers.get', { serverId: 'mine' });
    const saved = await host.call('servers.update', {
      serverId: 'mine',
      settings: {
        ...settings,
        transport: { type: 'http', url: servers.mcpUrl, headers: [{ name: 'X-Shelf', value: 'two', secret: false }] }
      }
    });
    assert.equal(saved.reconnects, true);
    assert.equal(await runningCall(host, callId), undefined, 'the restart stopped it');
    const ended = await outcome;
    assert.ok(ended instanceof Error);
    assert.equal(
      ended.message,
      'You changed Mine’s settings, and Taskdesk restarted it, so the call was not sent again.'
    );
    assert.equal(servers.toolCallsReached, reached);
  });

  it('waits for a sign-in page made after a change of client as long as that page waits', async () => {
    const clock = new ManualClock();
    const { host, servers } = await start(undefined, clock);
    const reached = servers.toolCallsReached;
    servers.revokeOnToolCalls(1);
    const { outcome, callId } = await callWaiting(host);
    await clock.advance(9 * 60_000);
    // The person goes back to automatic registration (the page under way is dropped, the call
    // still waits), then signs in on a new page, which waits 10 minutes of its own.
    await host.call('auth.forgetClient', { serverId: 'protected' });
    await host.call('auth.signIn', { serverId: 'protected' });
    await clock.advance(9 * 60_000);
    assert.equal((await runningCall(host, callId))?.waitingForSignIn, true, 'still waiting for that sign-in');
    await signInHeadlessly(host, 'protected');
    assert.deepEqual(textOf(await outcome), { subject: 'alice' });
    assert.equal(servers.toolCallsReached, reached + 1);
  });
});
