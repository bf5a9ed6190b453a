import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createHost, type Host } from '../../../app/host/host.js';
import type { HostResult, InboxItem } from '../../../app/contract/host-api.js';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import { type FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { nextEvent, tempDir } from '../../support/host-fixture.js';
import { mrtrServer as server, saveMrtrProvider, startMrtrHost } from '../../support/mrtr-host.js';

/**
 * Multi round-trip requests (MCP 2026-07-28, SEP-2322) against a real server on the v2 server
 * package over stdio (test/support/mrtr-server.ts): every question goes where the same question
 * from a legacy server goes (the Inbox, the sampling policy and its model, the user's folders),
 * several at once and over several rounds; a sealed `requestState` comes back unchanged (the
 * server verifies it), a changed one is refused and said so; prompts and resources ask too; and
 * a question pending at a restart is back in the Inbox, its answer sent with the retry.
 */

function textOf(outcome: HostResult<'tools.call'>): string {
  assert.equal(outcome.type, 'result', 'a plain result');
  if (outcome.type !== 'result') return '';
  assert.notEqual(outcome.result.isError, true, JSON.stringify(outcome.result));
  return (outcome.result.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('\n');
}

/** The next Inbox item of the server that matches. */
function asked(host: Host, matches: (item: InboxItem) => boolean = () => true): Promise<InboxItem> {
  const listed = host.inbox.list().find((item) => item.serverId === 'mrtr' && matches(item));
  if (listed) return Promise.resolve(listed);
  return nextEvent(host, 'inbox.added', ({ item }) => item.serverId === 'mrtr' && matches(item)).then(
    ({ item }) => item
  );
}

describe('multi round-trip requests to a 2026-07-28 server (v2 server package, stdio)', () => {
  let host: Host;
  let llm: FakeOpenAIServer;
  const data = tempDir();
  const folders = tempDir('taskdesk-roots-');

  before(async () => {
    ({ host, llm } = await startMrtrHost(data.dir));
  });

  after(async () => {
    await host.close();
    await llm.close();
    data.remove();
    folders.remove();
  });

  const call = (name: string) => host.call('tools.call', { serverId: 'mrtr', name, arguments: {} });

  it('a tool that asks with an elicitation form: the question is in the Inbox, naming the tool, and the answer goes with the retry', async () => {
    const calling = call('ask-name');
    const item = await asked(host);
    assert.equal(item.kind, 'elicitation');
    assert.equal(item.origin, 'tool ask-name');
    // Its related id is the exchange's, not a task's: the item says so.
    assert.equal(item.relatedCall, true);
    assert.equal(item.request.message, 'Your name?');
    assert.equal(host.requestor.exchanges?.list().length, 1, 'the exchange is kept while it waits');
    await host.call('inbox.answer', { id: item.id, answer: { action: 'accept', content: { name: 'Ada' } } });
    assert.equal(textOf(await calling), 'hello Ada');
    assert.deepEqual(await host.call('exchanges.list', {}), [], 'an exchange its caller saw end is not kept');
  });

  it('the retry carries a progress token too, so the long work after the answer can report progress', async () => {
    const calling = call('ask-then-token');
    const item = await asked(host, (one) => one.request.message === 'Your name, again?');
    await host.call('inbox.answer', { id: item.id, answer: { action: 'accept', content: { name: 'Ada' } } });
    assert.equal(textOf(await calling), 'progress token: true');
  });

  it('a declined form is an answer too', async () => {
    const calling = call('ask-name');
    const item = await asked(host);
    await host.call('inbox.answer', { id: item.id, answer: { action: 'decline' } });
    assert.equal(textOf(await calling), 'no name (decline)');
  });

  it('a tool that asks with a URL elicitation: consent in the Inbox, and the retry waits until the person says they are done', async () => {
    const calling = call('open-page');
    const item = await asked(host);
    assert.equal(item.request.mode, 'url');
    assert.equal(item.request.url, 'https://example.com/sign-in');
    // The first change after the answer: sent at once, it would be `retrying`.
    const next = nextEvent(host, 'exchange.changed', ({ exchange }) => exchange?.state !== 'asking');
    await host.call('inbox.answer', { id: item.id, answer: { action: 'accept' } });
    const { exchange } = await next;
    assert.equal(exchange?.state, 'waiting-for-you', 'consent is not the work done in the browser');
    assert.equal(exchange?.round, 1);
    assert.deepEqual(exchange?.answers, { page: { action: 'accept' } });
    assert.equal(host.inbox.list().length, 0, 'the link is not asked again');
    await assert.rejects(host.call('exchanges.forget', { exchangeId: exchange.exchangeId }), { code: -32600 });

    const continued = await host.call('exchanges.continue', { exchangeId: exchange.exchangeId });
    assert.equal(continued.state, 'retrying');
    assert.equal(textOf(await calling), 'page: accept');
    assert.deepEqual(await host.call('exchanges.list', {}), []);
  });

  it('a declined URL elicitation is retried at once, and an exchange that is not waiting cannot be continued', async () => {
    const calling = call('open-page');
    const item = await asked(host);
    await host.call('inbox.answer', { id: item.id, answer: { action: 'decline' } });
    assert.equal(textOf(await calling), 'page: decline');

    const asking = call('ask-name');
    const question = await asked(host);
    const [exchange] = await host.call('exchanges.list', {});
    assert.equal(exchange?.state, 'asking');
    await assert.rejects(host.call('exchanges.continue', { exchangeId: exchange.exchangeId }), {
      code: -32600,
      message: /is not waiting for you \(asking\)/
    });
    await assert.rejects(host.call('exchanges.continue', { exchangeId: 'ex-nobody' }), { code: -32602 });
    await host.call('inbox.answer', { id: question.id, answer: { action: 'accept', content: { name: 'Ada' } } });
    assert.equal(textOf(await asking), 'hello Ada');
  });

  it('an exchange waiting for the person after a link can be cancelled instead: no retry is sent', async () => {
    const calling = call('open-page');
    calling.catch(() => undefined);
    const item = await asked(host);
    const waiting = nextEvent(host, 'exchange.changed', ({ exchange }) => exchange?.state === 'waiting-for-you');
    await host.call('inbox.answer', { id: item.id, answer: { action: 'accept' } });
    const { exchangeId } = await waiting;
    // Its call waits on the person meanwhile, as on a question in the Inbox: its idle timeout does not end it.
    const running = host.requestor.plainCalls.list().find((one) => one.toolName === 'open-page');
    assert.equal(running?.state, 'running');
    assert.equal(running?.waitingOnPerson, true);
    await host.call('exchanges.cancel', { exchangeId });
    await assert.rejects(calling, { code: -32800, message: 'Cancelled by you' });
    assert.deepEqual(await host.call('exchanges.list', {}), []);
  });

  it('sampling under "auto" without review: the model answers, nobody is asked', async () => {
    await host.call('sampling.setPolicy', { serverId: 'mrtr', policy: { mode: 'auto', reviewCompletion: false } });
    llm.enqueue({ kind: 'text', tokens: ['Blue'] });
    assert.equal(textOf(await call('draft')), 'model said: Blue');
    assert.match(JSON.stringify(llm.chatRequests.at(-1)?.body.messages), /Write one word\./);
  });

  it('sampling under "ask" with review: approved before the model runs, and its answer reviewed', async () => {
    await host.call('sampling.setPolicy', { serverId: 'mrtr', policy: { mode: 'ask', reviewCompletion: true } });
    llm.enqueue({ kind: 'text', tokens: ['Green'] });
    const calling = call('draft');
    const approval = await asked(host, (item) => item.kind === 'sampling-approval');
    assert.equal(approval.origin, 'tool draft');
    await host.call('inbox.answer', { id: approval.id, answer: { action: 'approve' } });
    const review = await asked(host, (item) => item.kind === 'sampling-review');
    await host.call('inbox.answer', { id: review.id, answer: { action: 'approve' } });
    assert.equal(textOf(await calling), 'model said: Green');
  });

  it('sampling under "refuse": sampling is not declared, and the call fails saying why', async () => {
    await host.call('sampling.setPolicy', { serverId: 'mrtr', policy: { mode: 'refuse', reviewCompletion: false } });
    // The server's SDK checks each input request against the capabilities the request declared.
    await assert.rejects(call('draft'), (error: Error & { code?: number }) => {
      assert.equal(error.code, -32021);
      assert.match(error.message, /sampling\/createMessage.*do not declare the required capability/);
      return true;
    });
    assert.equal(host.inbox.list().length, 0, 'nobody was asked');
    await host.call('sampling.setPolicy', { serverId: 'mrtr', policy: { mode: 'auto', reviewCompletion: false } });
  });

  it('sampling with no provider: a person writes the reply in the Inbox', async () => {
    await host.call('providers.remove', { providerId: 'fake' });
    try {
      const calling = call('draft');
      const item = await asked(host, (candidate) => candidate.kind === 'sampling');
      await host.call('inbox.answer', { id: item.id, answer: { action: 'reply', text: 'Red' } });
      assert.equal(textOf(await calling), 'model said: Red');
    } finally {
      await saveMrtrProvider(host, llm);
    }
  });

  it('a tool that asks for roots gets the folders the user chose (none by default)', async () => {
    assert.equal(textOf(await call('where')), 'no roots');
    const a = path.join(folders.dir, 'alpha');
    const b = path.join(folders.dir, 'beta');
    fs.mkdirSync(a);
    fs.mkdirSync(b);
    assert.deepEqual(await host.call('roots.set', { serverId: 'mrtr', folders: [a, b] }), { folders: [a, b] });
    assert.equal(textOf(await call('where')), [pathToFileURL(a).href, pathToFileURL(b).href].join('\n'));
    assert.deepEqual((await host.call('roots.get', { serverId: 'mrtr' })).folders, [a, b]);
  });

  it('roots.set refuses a folder that does not exist, or a relative path', async () => {
    await assert.rejects(
      host.call('roots.set', { serverId: 'mrtr', folders: [path.join(folders.dir, 'nowhere')] }),
      /does not exist/
    );
    await assert.rejects(host.call('roots.set', { serverId: 'mrtr', folders: ['relative/dir'] }), /absolute path/);
  });

  it('several input requests at once: asked together, all answers in one retry', async () => {
    llm.enqueue({ kind: 'text', tokens: ['Teal'] });
    const calling = call('three-at-once');
    const item = await asked(host, (candidate) => candidate.kind === 'elicitation');
    const [exchange] = await host.call('exchanges.list', {});
    assert.deepEqual(Object.keys(exchange?.inputRequests ?? {}).sort(), ['draft', 'name', 'roots']);
    await host.call('inbox.answer', { id: item.id, answer: { action: 'accept', content: { name: 'Bo' } } });
    assert.equal(textOf(await calling), 'name=Bo model=Teal roots=2');
  });

  it('several rounds: each round asked in turn, the sealed requestState returned unchanged', async () => {
    const calling = call('two-rounds');
    const first = await asked(host, (item) => item.request.message === 'First word?');
    await host.call('inbox.answer', { id: first.id, answer: { action: 'accept', content: { name: 'alpha' } } });
    const second = await asked(host, (item) => item.request.message === 'Second word?');
    const [exchange] = await host.call('exchanges.list', {});
    assert.equal(exchange?.round, 2);
    await host.call('inbox.answer', { id: second.id, answer: { action: 'accept', content: { name: 'beta' } } });
    assert.equal(textOf(await calling), 'alpha then beta (rounds: 2)');
  });

  it('a requestState the server does not accept: the refusal is reported with its code and message', async () => {
    const calling = call('tampered');
    const item = await asked(host);
    await host.call('inbox.answer', { id: item.id, answer: { action: 'accept', content: { name: 'x' } } });
    await assert.rejects(calling, (error: Error & { code?: number }) => {
      assert.equal(error.code, -32602);
      assert.match(error.message, /Tool "tampered" on "MRTR server" refused the retry with the answers \(round 1\)/);
      assert.match(error.message, /Invalid or expired requestState/);
      return true;
    });
  });

  it('a prompt that asks for input', async () => {
    const getting = host.call('prompts.get', { serverId: 'mrtr', name: 'greeting' });
    const item = await asked(host);
    assert.equal(item.origin, 'prompt greeting');
    await host.call('inbox.answer', { id: item.id, answer: { action: 'accept', content: { name: 'Cy' } } });
    const prompt = await getting;
    assert.deepEqual(prompt.messages, [{ role: 'user', content: { type: 'text', text: 'Hello Cy' } }]);
  });

  it('a resource that asks for input', async () => {
    const reading = host.call('resources.read', { serverId: 'mrtr', uri: 'notes://private' });
    const item = await asked(host);
    assert.equal(item.origin, 'resource notes://private');
    await host.call('inbox.answer', { id: item.id, answer: { action: 'accept', content: { ok: true } } });
    const read = await reading;
    assert.deepEqual(read.contents, [{ uri: 'notes://private', text: 'the private notes' }]);
  });

  it('a call the person cancels withdraws its question as their own doing, not as the server’s', async () => {
    await host.call('sampling.setPolicy', { serverId: 'mrtr', policy: { mode: 'ask', reviewCompletion: false } });
    try {
      const calling = host.call('tools.call', { serverId: 'mrtr', name: 'draft', arguments: {}, callId: 'stop-me' });
      const item = await asked(host, (candidate) => candidate.kind === 'sampling-approval');
      const removed = nextEvent(host, 'inbox.removed', ({ id }) => id === item.id);
      await host.call('tools.cancelCall', { callId: 'stop-me' });
      // The server holds none of it (it waits in its requestState): Taskdesk withdrew it, for the person's Cancel.
      assert.deepEqual(await removed, {
        id: item.id,
        why: 'withdrawn',
        reason: 'The call this was asked for (tool draft) was cancelled by you.',
        byYou: true
      });
      await assert.rejects(calling, { code: -32800, message: 'Cancelled by you' });
      const [audited] = await host.call('audit.read', { type: 'inbox.withdrawn', limit: 1 });
      assert.equal(audited?.detail?.reason, 'The call this was asked for (tool draft) was cancelled by you.');
    } finally {
      await host.call('sampling.setPolicy', { serverId: 'mrtr', policy: { mode: 'auto', reviewCompletion: false } });
    }
  });

  it('an exchange the person cancels (exchanges.cancel) withdraws its question as their own doing too', async () => {
    const getting = host.call('prompts.get', { serverId: 'mrtr', name: 'greeting' });
    getting.catch(() => undefined);
    const item = await asked(host);
    const removed = nextEvent(host, 'inbox.removed', ({ id }) => id === item.id);
    const [exchange] = await host.call('exchanges.list', {});
    await host.call('exchanges.cancel', { exchangeId: exchange!.exchangeId });
    assert.deepEqual(await removed, {
      id: item.id,
      why: 'withdrawn',
      reason: 'The request this was asked for (prompt greeting) was cancelled by you.',
      byYou: true
    });
    await assert.rejects(getting, { code: -32800 });
  });
});

describe('a multi round-trip request waiting for the person after a link, across a restart', () => {
  it('still waits after a restart, and is retried once they continue', async (t) => {
    const data = tempDir();
    t.after(() => data.remove());
    const first = createHost({ dataDir: data.dir, autoConnect: false, keyStore: new InMemoryKeyStore() });
    await first.call('servers.add', server);
    assert.equal((await first.connect('mrtr')).state.status, 'ready');
    const calling = first.call('tools.call', { serverId: 'mrtr', name: 'open-page', arguments: {} });
    calling.catch(() => undefined);
    const item = await asked(first);
    const waiting = nextEvent(first, 'exchange.changed', ({ exchange }) => exchange?.state !== 'asking');
    await first.call('inbox.answer', { id: item.id, answer: { action: 'accept' } });
    const { exchangeId, exchange: before } = await waiting;
    assert.equal(before?.state, 'waiting-for-you');
    await first.close();
    await assert.rejects(calling);

    const second = createHost({ dataDir: data.dir, autoConnect: false, keyStore: new InMemoryKeyStore() });
    try {
      const [pending] = await second.call('exchanges.list', {});
      assert.equal(pending?.exchangeId, exchangeId);
      assert.equal(pending?.state, 'waiting-for-you');
      assert.deepEqual(pending?.answers, { page: { action: 'accept' } });
      assert.equal(second.inbox.list().length, 0, 'the answered link is not asked again');
      // Connected, it still waits for the person: nothing is sent without them.
      const next = nextEvent(second, 'exchange.changed', ({ exchange }) => exchange?.state !== 'waiting-for-you');
      assert.equal((await second.connect('mrtr')).state.status, 'ready');
      assert.equal((await second.call('exchanges.list', {}))[0]?.state, 'waiting-for-you');
      const ended = nextEvent(second, 'exchange.changed', ({ exchange }) => exchange?.state === 'completed');
      await second.call('exchanges.continue', { exchangeId });
      assert.equal((await next).exchange?.state, 'retrying', 'the next change is the person’s continue');
      const { exchange } = await ended;
      const result = exchange?.outcome?.type === 'result' ? exchange.outcome.result : {};
      assert.deepEqual(result.content, [{ type: 'text', text: 'page: accept' }]);
      await second.call('exchanges.forget', { exchangeId });
    } finally {
      await second.close();
    }
  });

  it('continued before a restart, is retried after it without waiting again', async (t) => {
    const data = tempDir();
    t.after(() => data.remove());
    const first = createHost({ dataDir: data.dir, autoConnect: false, keyStore: new InMemoryKeyStore() });
    await first.call('servers.add', server);
    assert.equal((await first.connect('mrtr')).state.status, 'ready');
    const calling = first.call('tools.call', { serverId: 'mrtr', name: 'open-page', arguments: {} });
    calling.catch(() => undefined);
    const item = await asked(first);
    const waiting = nextEvent(first, 'exchange.changed', ({ exchange }) => exchange?.state === 'waiting-for-you');
    await first.call('inbox.answer', { id: item.id, answer: { action: 'accept' } });
    const { exchangeId } = await waiting;
    // Continued while the server is away: the retry waits for it, and the restart comes first.
    await first.call('servers.disconnect', { serverId: 'mrtr' });
    assert.equal((await first.call('exchanges.continue', { exchangeId })).state, 'retrying');
    await first.close();

    const second = createHost({ dataDir: data.dir, autoConnect: false, keyStore: new InMemoryKeyStore() });
    try {
      assert.equal((await second.call('exchanges.list', {}))[0]?.state, 'retrying');
      const ended = nextEvent(second, 'exchange.changed', ({ exchange }) => exchange?.state === 'completed');
      assert.equal((await second.connect('mrtr')).state.status, 'ready');
      const { exchange } = await ended;
      const result = exchange?.outcome?.type === 'result' ? exchange.outcome.result : {};
      assert.deepEqual(result.content, [{ type: 'text', text: 'page: accept' }]);
      await second.call('exchanges.forget', { exchangeId });
    } finally {
      await second.close();
    }
  });
});

describe('a multi round-trip question pending across a restart', () => {
  const data = tempDir();
  after(() => data.remove());

  it('is back in the Inbox after the restart, and its answer is sent with the retry', async () => {
    const first = createHost({ dataDir: data.dir, autoConnect: false, keyStore: new InMemoryKeyStore() });
    await first.call('servers.add', server);
    assert.equal((await first.connect('mrtr')).state.status, 'ready');
    const calling = first.call('tools.call', { serverId: 'mrtr', name: 'ask-name', arguments: {} });
    calling.catch(() => undefined);
    const before = await asked(first);
    assert.equal(before.origin, 'tool ask-name');
    await first.close();
    await assert.rejects(calling, 'the caller of the first host does not get an answer');

    const second = createHost({ dataDir: data.dir, autoConnect: false, keyStore: new InMemoryKeyStore() });
    try {
      const item = await asked(second);
      assert.equal(item.origin, 'tool ask-name');
      assert.equal(item.request.message, 'Your name?');
      const [pending] = await second.call('exchanges.list', {});
      assert.equal(pending?.state, 'asking');
      const ended = nextEvent(second, 'exchange.changed', ({ exchange }) => exchange?.state === 'completed');
      const retrying = nextEvent(second, 'exchange.changed', ({ exchange }) => exchange?.state === 'retrying');
      // Answered before the server is connected: the retry waits for it, the answer kept on disk.
      await second.call('inbox.answer', { id: item.id, answer: { action: 'accept', content: { name: 'Di' } } });
      assert.deepEqual((await retrying).exchange?.answers, { name: { action: 'accept', content: { name: 'Di' } } });
      assert.equal((await second.connect('mrtr')).state.status, 'ready');
      const { exchange } = await ended;
      assert.equal(exchange?.outcome?.type, 'result');
      const result = exchange?.outcome?.type === 'result' ? exchange.outcome.result : {};
      assert.deepEqual(result.content, [{ type: 'text', text: 'hello Di' }]);
      const kept = await second.call('exchanges.list', {});
      assert.equal(kept[0]?.state, 'completed', 'kept for the person, since no caller saw it end');
      await second.call('exchanges.forget', { exchangeId: exchange.exchangeId });
      assert.deepEqual(await second.call('exchanges.list', {}), []);
    } finally {
      await second.close();
    }
  });
});
