import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHost } from '../../../app/host/host.js';
import { INBOX_HOLD_MAX_MS } from '../../../app/inbox/inbox.js';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import { followPendingCount, pendingLabel } from '../../../main/pending-badge.js';
import { answered, echoServer, saveFakeProvider, settled } from '../../support/assistant-fixture.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { ManualClock } from '../../support/manual-clock.js';
import { nextEvent, startHostWith, tempDir, type InMemoryHostFixture } from '../../support/host-fixture.js';

describe('the tray and dock badge follow the Inbox (through the glue interface)', () => {
  const data = tempDir('badge-');
  const host = createHost({ dataDir: data.dir, autoConnect: false });
  after(async () => {
    await host.close();
    data.remove();
  });

  it('shows the number of waiting questions as they arrive and are answered or withdrawn', async () => {
    const shown: Array<[number, string]> = [];
    const stop = followPendingCount(host, { show: (count, label) => shown.push([count, label]) });
    const base = { kind: 'elicitation' as const, serverId: 's', serverName: 'S', request: { message: 'Q' } };
    const first = host.inbox.ask({ ...base, id: 'one' }, new AbortController().signal);
    const withdraw = new AbortController();
    const second = host.inbox.ask({ ...base, id: 'two' }, withdraw.signal);
    host.inbox.answer('one', { action: 'decline' });
    await first;
    withdraw.abort(new Error('cancelled by the server'));
    await assert.rejects(second);
    stop();
    host.inbox.ask({ ...base, id: 'three' }, new AbortController().signal).catch(() => undefined);
    assert.deepEqual(shown, [
      [0, 'Nothing waiting for you'],
      [1, '1 question waiting in the Inbox'],
      [2, '2 questions waiting in the Inbox'],
      [1, '1 question waiting in the Inbox'],
      [0, 'Nothing waiting for you']
    ]);
    assert.equal(pendingLabel(12), '12 questions waiting in the Inbox');
  });
});

describe('the tray and dock badge leave out what the person answered in the Desk, while it waits out its undo window', () => {
  const data = tempDir('badge-held-');
  const clock = new ManualClock();
  const host = createHost({ dataDir: data.dir, autoConnect: false, clock });
  after(async () => {
    await host.close();
    data.remove();
  });

  const base = { kind: 'elicitation' as const, serverId: 's', serverName: 'S', request: { message: 'Q' } };
  const ask = (id: string) => host.inbox.ask({ ...base, id }, new AbortController().signal);

  it('counts a question whose Decline the Desk holds no more, and again after Undo; one sent goes', async () => {
    const shown: Array<[number, string]> = [];
    const stop = followPendingCount(host, { show: (count, label) => shown.push([count, label]) });
    const told: Array<{ id: string; held: boolean }> = [];
    const listening = host.on('inbox.held', (event) => told.push(event));
    const first = ask('one');
    ask('two').catch(() => undefined);
    assert.deepEqual(shown.at(-1), [2, '2 questions waiting in the Inbox']);

    // The person declines one: the Desk holds it for its undo window, and says so.
    assert.deepEqual(await host.call('inbox.hold', { id: 'one', held: true }), { ok: true });
    assert.deepEqual(shown.at(-1), [1, '1 question waiting in the Inbox']);
    assert.equal(host.inbox.size, 2, 'still pending: its answer has not come');
    assert.equal(host.inbox.waiting, 1);
    // Said again, it changes nothing.
    await host.call('inbox.hold', { id: 'one', held: true });
    // Undo: it waits on the person again.
    await host.call('inbox.hold', { id: 'one', held: false });
    assert.deepEqual(shown.at(-1), [2, '2 questions waiting in the Inbox']);

    // Declined again, and sent when the window ends: the item goes, and its hold with it.
    await host.call('inbox.hold', { id: 'one', held: true });
    await host.call('inbox.answer', { id: 'one', answer: { action: 'decline' } });
    assert.deepEqual(await first, { action: 'decline' });
    await host.call('inbox.hold', { id: 'one', held: false });
    assert.equal(host.inbox.waiting, 1);
    assert.deepEqual(
      shown.map(([count]) => count),
      [0, 1, 2, 1, 2, 1],
      'nothing, one and two asked; one held, undone, held again; sent, which leaves the count as it was'
    );
    assert.deepEqual(told, [
      { id: 'one', held: true },
      { id: 'one', held: false },
      { id: 'one', held: true }
    ]);
    listening();
    stop();
  });

  it('counts a held question again once its hold has lasted a minute: the Desk that held it went without sending it', async () => {
    const shown: Array<[number, string]> = [];
    const stop = followPendingCount(host, { show: (count, label) => shown.push([count, label]) });
    assert.deepEqual(shown, [[1, '1 question waiting in the Inbox']]);
    await host.call('inbox.hold', { id: 'two', held: true });
    assert.deepEqual(shown.at(-1), [0, 'Nothing waiting for you']);
    await clock.advance(INBOX_HOLD_MAX_MS - 1);
    assert.equal(host.inbox.waiting, 0);
    await clock.advance(1);
    assert.deepEqual(shown.at(-1), [1, '1 question waiting in the Inbox']);
    // An item no longer pending is held by nobody.
    await host.call('inbox.hold', { id: 'gone', held: true });
    assert.equal(host.inbox.waiting, 1);
    stop();
  });
});

describe('the tray and dock badge count the assistant’s tool calls waiting for approval', () => {
  let fixture: InMemoryHostFixture;
  let llm: FakeOpenAIServer;

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    fixture = await startHostWith({ tools: echoServer() }, { keyStore: new InMemoryKeyStore() });
    await saveFakeProvider(fixture.host, llm.baseURL);
  });

  after(async () => {
    await fixture?.dispose();
    await llm?.close();
  });

  it('adds a call waiting in a chat to the Inbox’s count, from the start and as it is decided', async () => {
    const host = fixture.host;
    const chat = await host.call('assistant.create', {
      title: 'Chat',
      providerId: 'fake',
      model: 'fake-small',
      serverIds: ['tools']
    });
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'call_echo', name: 'tools__echo', arguments: '{"message":"hi"}' }] },
      { kind: 'text', tokens: ['Done.'] }
    );
    const approval = nextEvent(host, 'assistant.approval', (event) => event.conversationId === chat.id);
    await host.call('assistant.send', { conversationId: chat.id, text: 'Say hi through the tool' });
    await approval;

    // Started while the call waits: it counts from the conversations as they are.
    const shown: Array<[number, string]> = [];
    const stop = followPendingCount(host, { show: (count, label) => shown.push([count, label]) });
    assert.deepEqual(shown, [[1, '1 tool call to approve']]);
    const question = host.inbox.ask(
      { kind: 'elicitation', serverId: 's', serverName: 'S', request: { message: 'Q' }, id: 'q' },
      new AbortController().signal
    );
    assert.deepEqual(shown.at(-1), [2, '1 question waiting in the Inbox, 1 tool call to approve']);

    await host.call('assistant.decide', {
      conversationId: chat.id,
      toolCallId: 'call_echo',
      decision: { action: 'deny' }
    });
    await settled(host, chat.id, answered);
    assert.deepEqual(shown.at(-1), [1, '1 question waiting in the Inbox']);
    host.inbox.answer('q', { action: 'decline' });
    await question;
    assert.deepEqual(shown.at(-1), [0, 'Nothing waiting for you']);
    stop();
    assert.equal(pendingLabel(0, 3), '3 tool calls to approve');
  });
});

describe('the tray and dock badge count requests waiting for the person to finish in the browser', () => {
  it('counts each exchange waiting for the person, as the Inbox shows them, with its own words', () => {
    const listeners = new Map<string, Array<() => void>>();
    const exchanges: Array<{ state: string }> = [];
    const source = {
      on: (event: string, listener: () => void) => {
        listeners.set(event, [...(listeners.get(event) ?? []), listener]);
        return () => undefined;
      },
      inbox: { waiting: 1 },
      assistant: { list: () => [] },
      requestor: {
        exchanges: { waitingForYou: () => exchanges.filter((exchange) => exchange.state === 'waiting-for-you').length }
      }
    } as unknown as Parameters<typeof followPendingCount>[0];
    const changed = () => listeners.get('exchange.changed')?.forEach((listener) => listener());
    const shown: Array<[number, string]> = [];
    followPendingCount(source, { show: (count, label) => shown.push([count, label]) });
    exchanges.push({ state: 'asking' });
    changed();
    exchanges.push({ state: 'waiting-for-you' });
    changed();
    exchanges.push({ state: 'waiting-for-you' });
    changed();
    exchanges.splice(1, 2, { state: 'retrying' });
    changed();
    assert.deepEqual(shown, [
      [1, '1 question waiting in the Inbox'],
      [2, '1 question waiting in the Inbox, 1 page to finish in your browser'],
      [3, '1 question waiting in the Inbox, 2 pages to finish in your browser'],
      [1, '1 question waiting in the Inbox']
    ]);
  });
});
