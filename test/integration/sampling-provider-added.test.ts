import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { CreateMessageResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { HostEventPayload, InboxItem } from '../../app/contract/host-api.js';
import type { Host } from '../../app/host/host.js';
import { InboxSamplingRunner } from '../../app/inbox/inbox-runners.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import {
  inboxHolds,
  nextEvent,
  peerServer,
  startHostWith,
  tempDir,
  type InMemoryHostFixture,
  type PeerServer
} from '../support/host-fixture.js';

const Loose = z.looseObject({});

const ask = (text: string) => ({
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
  maxTokens: 20
});

/** A plain model request of the peer's: what its server gets back, or the error's message. */
function plainRequest(peer: PeerServer, text: string): Promise<unknown> {
  return peer.server
    .request({ method: 'sampling/createMessage', params: ask(text) }, CreateMessageResultSchema)
    .catch((error: Error) => error.message);
}

/** A task-augmented model request of the peer's: its task id. */
async function taskRequest(peer: PeerServer, text: string): Promise<string> {
  const created = await peer.server.request(
    { method: 'sampling/createMessage', params: { ...ask(text), task: { ttl: 600_000 } } },
    CreateTaskResultSchema
  );
  return created.task.taskId;
}

/** What the Inbox's events said, in order: removals with their payload, additions by id and kind. */
function inboxEvents(host: Host): Array<string | HostEventPayload<'inbox.removed'>> {
  const seen: Array<string | HostEventPayload<'inbox.removed'>> = [];
  host.on('inbox.removed', (payload) => seen.push(payload));
  host.on('inbox.added', ({ item }) => seen.push(`added ${item.id} ${item.kind}`));
  return seen;
}

/** Resolves once the Inbox holds `count` items of `kind` (listening before looking). */
function inboxHoldsKind(host: Host, kind: InboxItem['kind'], count: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (host.inbox.list().filter((item) => item.kind === kind).length < count) return;
      off();
      resolve();
    };
    const off = host.on('inbox.added', check);
    check();
  });
}

/** The audit log's entries of `type`, oldest first. */
async function entries(host: Host, type: string) {
  return (await host.call('audit.read', { limit: 1000, type })).reverse();
}

const provider = (llm: FakeOpenAIServer, listed = true) => ({
  id: 'local',
  name: 'Local',
  baseURL: llm.baseURL,
  ...(listed && { models: [{ name: 'fake-small' }], defaultModel: 'fake-small' })
});

/**
 * Model requests a person was asked to answer because no provider could run them go to the model
 * path once a provider that lists a model is saved, as they would if they came then.
 */
describe('model requests waiting for a person’s reply when a provider is added', () => {
  let fixture: InMemoryHostFixture | undefined;
  let llm: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await fixture?.dispose();
    await llm?.close();
    fixture = undefined;
    llm = undefined;
  });

  it(
    'under “ask”, each card becomes the approval card in its place, withdrawn by nobody',
    { timeout: 30_000 },
    async () => {
      const peer = peerServer();
      llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
      fixture = await startHostWith({ a: peer }, { keyStore: new InMemoryKeyStore() });
      const { host } = fixture;
      await host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'ask', reviewCompletion: false } });
      const plain = plainRequest(peer, 'Plain one');
      const taskId = await taskRequest(peer, 'As a task');
      await inboxHolds(host, 2);
      const waiting = host.inbox.list();
      assert.deepEqual(
        waiting.map((item) => item.kind),
        ['sampling', 'sampling']
      );
      const seen = inboxEvents(host);

      const approvals = inboxHoldsKind(host, 'sampling-approval', 2);
      await host.call('providers.save', provider(llm));
      // Handed over as the save ends: no card waits for a person's reply any more.
      assert.deepEqual(
        host.inbox.list().filter((item) => item.kind === 'sampling'),
        []
      );
      await approvals;

      // In place: the same ids, in the same order, at the times their servers asked.
      const now = host.inbox.list();
      assert.deepEqual(
        now.map(({ id, kind, createdAt }) => ({ id, kind, createdAt })),
        waiting.map(({ id, createdAt }) => ({ id, kind: 'sampling-approval', createdAt }))
      );
      assert.deepEqual(
        now.map((item) => item.draft?.model),
        ['fake-small', 'fake-small']
      );
      // Each went as answered (no reason: nobody withdrew it), and came back under its id.
      for (const { id } of waiting)
        assert.deepEqual(
          seen.filter((event) => (typeof event === 'string' ? event.includes(id) : event.id === id)),
          [{ id, why: 'answered', handedOver: true }, `added ${id} sampling-approval`]
        );
      assert.equal(seen.length, 4);
      const status = await host.call('tasks.get', { taskId });
      assert.equal(
        status.task.statusMessage,
        'Waiting for your answer in the Inbox: approve a model request from Server a'
      );

      // Approved, the plain one runs on the model; the task's the person answers themselves.
      llm.enqueue({ kind: 'text', tokens: ['From', ' the model'] });
      const plainId = waiting.find((item) => item.taskId === undefined)!.id;
      await host.call('inbox.answer', { id: plainId, answer: { action: 'approve' } });
      assert.deepEqual(((await plain) as { content: unknown }).content, { type: 'text', text: 'From the model' });
      await host.call('inbox.answer', { id: taskId, answer: { action: 'reply', text: 'From me', model: 'human' } });
      const result = await peer.server.request({ method: 'tasks/result', params: { taskId } }, Loose);
      assert.deepEqual(result.content, { type: 'text', text: 'From me' });
      assert.equal(llm.chatRequests.length, 1);

      // The log says what was decided, and nothing of a withdrawal or of an answer nobody gave.
      assert.deepEqual(await entries(host, 'inbox.withdrawn'), []);
      assert.deepEqual(await entries(host, 'inbox.answered'), []);
      assert.deepEqual(
        (await entries(host, 'sampling.request')).map((entry) => entry.detail?.decision),
        ['approved', 'written-by-you']
      );
      const { notes } = await host.call('tasks.get', { taskId });
      assert.deepEqual(
        notes.filter((note) => 'answeredBy' in note),
        [{ answeredBy: 'user', action: 'reply' }]
      );
    }
  );

  it('under “auto”, each runs on the model at once, once its models are listed', { timeout: 30_000 }, async () => {
    const peer = peerServer();
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    fixture = await startHostWith({ a: peer }, { keyStore: new InMemoryKeyStore() });
    const { host } = fixture;
    await host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'auto', reviewCompletion: false } });
    const plain = plainRequest(peer, 'Plain one');
    const taskId = await taskRequest(peer, 'As a task');
    await inboxHolds(host, 2);
    const waiting = host.inbox.list();
    assert.deepEqual(
      waiting.map((item) => [item.kind, item.fallback]),
      [
        ['sampling', 'no-provider'],
        ['sampling', 'no-provider']
      ]
    );
    const seen = inboxEvents(host);
    const completed = nextEvent(
      host,
      'task.changed',
      (p) => p.taskId === taskId && p.task?.task.status === 'completed'
    );

    llm.enqueue({ kind: 'text', tokens: ['Auto', ' one'] }, { kind: 'text', tokens: ['Auto', ' two'] });
    // Saved with no model: the provider is asked for its models, and lists one.
    const saved = await host.call('providers.save', provider(llm, false));
    // Handed over as the save ends: nothing waits in the Inbox any more.
    assert.equal(host.inbox.size, 0);
    assert.deepEqual(
      saved.models.map((model) => model.name),
      ['fake-small']
    );
    const answers = [((await plain) as { content: { text: string } }).content.text];
    await completed;
    const result = await peer.server.request({ method: 'tasks/result', params: { taskId } }, Loose);
    answers.push((result.content as { text: string }).text);
    assert.deepEqual(answers.sort(), ['Auto one', 'Auto two']);
    assert.equal(llm.chatRequests.length, 2);

    assert.equal(host.inbox.size, 0);
    assert.deepEqual(
      seen,
      waiting.map(({ id }) => ({ id, why: 'answered', handedOver: true }))
    );
    const { task, notes } = await host.call('tasks.get', { taskId });
    assert.equal(task.status, 'completed');
    assert.equal(
      notes.some((note) => 'answeredBy' in note),
      false,
      'nobody answered it in the Inbox'
    );
    assert.deepEqual(await entries(host, 'inbox.withdrawn'), []);
    assert.deepEqual(await entries(host, 'inbox.answered'), []);
    assert.deepEqual(
      (await entries(host, 'sampling.request')).map((entry) => entry.detail?.decision),
      ['auto-approved', 'auto-approved']
    );
    assert.deepEqual(
      (await entries(host, 'sampling.llm')).map((entry) => entry.detail?.decision),
      ['completed', 'completed']
    );
  });

  describe('a person’s answer on its way as the provider is saved: answered once, by one of them', () => {
    it('the answer taken first: the person’s reply goes, and nothing is handed over', { timeout: 30_000 }, async () => {
      const peer = peerServer();
      llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
      fixture = await startHostWith({ a: peer }, { keyStore: new InMemoryKeyStore() });
      const { host } = fixture;
      const plain = plainRequest(peer, 'Answer me');
      await inboxHolds(host, 1);
      const [item] = host.inbox.list();
      const seen = inboxEvents(host);
      // Both on their way at once: the answer reaches the Inbox before the save is done.
      const answered = host.call('inbox.answer', {
        id: item!.id,
        answer: { action: 'reply', text: 'Mine', model: 'human' }
      });
      const saved = host.call('providers.save', provider(llm));
      await Promise.all([answered, saved]);
      assert.deepEqual(((await plain) as { content: unknown }).content, { type: 'text', text: 'Mine' });
      assert.deepEqual(seen, [{ id: item!.id, why: 'answered' }]);
      assert.equal(host.inbox.size, 0);
      assert.equal(llm.chatRequests.length, 0);
      assert.deepEqual(
        (await entries(host, 'inbox.answered')).map((entry) => entry.detail?.action),
        ['reply']
      );
      assert.deepEqual(await entries(host, 'sampling.request'), []);
    });

    it(
      'handed over first (“ask”): the reply sent from the old card answers its approval card',
      { timeout: 30_000 },
      async () => {
        const peer = peerServer();
        llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
        fixture = await startHostWith({ a: peer }, { keyStore: new InMemoryKeyStore() });
        const { host } = fixture;
        const plain = plainRequest(peer, 'Answer me');
        await inboxHolds(host, 1);
        const [item] = host.inbox.list();
        const approval = inboxHoldsKind(host, 'sampling-approval', 1);
        await host.call('providers.save', provider(llm));
        assert.deepEqual(
          host.inbox.list().filter((item) => item.kind === 'sampling'),
          []
        );
        await approval;
        // The reply the person sent from the reply card arrives now, under the same id.
        await host.call('inbox.answer', { id: item!.id, answer: { action: 'reply', text: 'Mine', model: 'human' } });
        assert.deepEqual(((await plain) as { content: unknown }).content, { type: 'text', text: 'Mine' });
        const again = await host.dispatch('inbox.answer', { id: item!.id, answer: { action: 'reject' } });
        assert.equal(again.ok, false, 'answered once');
        assert.equal(llm.chatRequests.length, 0, 'no model ran');
        assert.deepEqual(
          (await entries(host, 'sampling.request')).map((entry) => entry.detail?.decision),
          ['written-by-you']
        );
        assert.deepEqual(await entries(host, 'inbox.withdrawn'), []);
      }
    );

    it(
      'handed over first (“auto”): the model answers, and a reply arriving after is refused',
      { timeout: 30_000 },
      async () => {
        const peer = peerServer();
        llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
        fixture = await startHostWith({ a: peer }, { keyStore: new InMemoryKeyStore() });
        const { host } = fixture;
        await host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'auto', reviewCompletion: false } });
        const plain = plainRequest(peer, 'Answer me');
        await inboxHolds(host, 1);
        const [item] = host.inbox.list();
        llm.enqueue({ kind: 'hold' });
        await host.call('providers.save', provider(llm));
        assert.equal(host.inbox.size, 0);
        const held = await llm.nextHeld();
        const late = await host.dispatch('inbox.answer', {
          id: item!.id,
          answer: { action: 'reply', text: 'Mine', model: 'human' }
        });
        assert.equal(late.ok, false);
        held.push('From', ' the model');
        held.finish();
        assert.deepEqual(((await plain) as { content: unknown }).content, { type: 'text', text: 'From the model' });
        assert.equal(llm.chatRequests.length, 1);
        assert.deepEqual(await entries(host, 'inbox.answered'), []);
        assert.deepEqual(
          (await entries(host, 'sampling.request')).map((entry) => entry.detail?.decision),
          ['auto-approved']
        );
      }
    );
  });

  it(
    'after a restart, a task left waiting for a person’s reply with a provider saved asks for approval',
    { timeout: 30_000 },
    async () => {
      llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
      const data = tempDir();
      const keyStore = new InMemoryKeyStore();
      try {
        // As a Taskdesk that did not hand requests over left it: a provider saved while it waited.
        const peer = peerServer();
        const first = await startHostWith(
          { a: peer },
          { dir: data.dir, keyStore, sampling: ({ inbox }) => new InboxSamplingRunner(inbox) }
        );
        await first.host.call('sampling.setPolicy', {
          serverId: 'a',
          policy: { mode: 'ask', reviewCompletion: false }
        });
        const taskId = await taskRequest(peer, 'Still there?');
        await inboxHolds(first.host, 1);
        await first.host.call('providers.save', provider(llm));
        assert.deepEqual(
          first.host.inbox.list().map((item) => item.kind),
          ['sampling']
        );
        await first.stop();

        const again = peerServer();
        fixture = await startHostWith({ a: again }, { dir: data.dir, keyStore });
        assert.deepEqual(
          fixture.host.inbox.list().map((item) => [item.id, item.kind]),
          [[taskId, 'sampling-approval']]
        );
        llm.enqueue({ kind: 'text', tokens: ['Yes'] });
        await fixture.host.call('inbox.answer', { id: taskId, answer: { action: 'approve' } });
        const result = await again.server.request({ method: 'tasks/result', params: { taskId } }, Loose);
        assert.deepEqual(result.content, { type: 'text', text: 'Yes' });
      } finally {
        await fixture?.dispose();
        fixture = undefined;
        data.remove();
      }
    }
  );
});
