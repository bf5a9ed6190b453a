import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ProviderView } from '../../app/contract/providers.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FileKeyStore } from '../../app/store/file-key-store.js';
import { settled } from '../support/assistant-fixture.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { nextEvent, peerServer, startHostWith, tempDir, type InMemoryHostFixture } from '../support/host-fixture.js';

const KEY = 'sk-right-key-never-shown-1234';

/** The fake LLM server as the provider `fake`, without a key. */
const fakeProvider = (llm: FakeOpenAIServer) => ({
  id: 'fake',
  name: 'Fake LLM',
  baseURL: llm.baseURL,
  models: [{ name: 'fake-small' }]
});

/**
 * A provider's card says how its calls have been going since Taskdesk started: the assistant's,
 * a server's model requests and "Test connection" all tell it, and the windows hear of a change
 * (not of every call).
 */
describe('a provider’s health, from every call of it', () => {
  let llm: FakeOpenAIServer;
  let fixture: InMemoryHostFixture;
  const peer = peerServer('asks');

  before(async () => {
    llm = await FakeOpenAIServer.start({ apiKey: KEY });
    fixture = await startHostWith({ asks: peer }, { keyStore: new InMemoryKeyStore() });
  });
  after(async () => {
    await fixture.dispose();
    await llm.close();
  });

  const changed = () =>
    nextEvent(fixture.host, 'providers.changed').then(({ providers }) => providers.find((p) => p.id === 'fake'));
  const healthNow = async (): Promise<ProviderView['health']> =>
    (await fixture.host.call('providers.list', {})).find((p) => p.id === 'fake')?.health;

  it('is told failing by a conversation, forgotten with a new key, answering after a test, and failing again from a server’s model request', async () => {
    const { host } = fixture;
    await host.call('providers.save', { ...fakeProvider(llm), apiKey: 'sk-wrong' });
    assert.equal(await healthNow(), undefined, 'nothing known before a call');

    // A conversation's model call: the key is refused.
    const failing = changed();
    const { id } = await host.call('assistant.create', { providerId: 'fake', model: 'fake-small', serverIds: [] });
    await host.call('assistant.send', { conversationId: id, text: 'Hello' });
    await settled(host, id, (c) => c.status === 'failed');
    const told = (await failing)?.health;
    assert.equal(told?.ok, false);
    assert.equal(told?.via, 'assistant');
    assert.match(told?.message ?? '', /key/i);
    assert.doesNotMatch(told?.message ?? '', /Once it is right/, 'the provider’s words, not the chat’s advice');
    assert.ok(!JSON.stringify(told).includes('sk-wrong'), 'no key in what the windows hear');

    // The right key: what was known was of the old one.
    await host.call('providers.save', { ...fakeProvider(llm), apiKey: KEY, mode: 'update' });
    assert.equal(await healthNow(), undefined);

    const answering = changed();
    assert.equal((await host.call('providers.test', { providerId: 'fake' })).ok, true);
    assert.deepEqual(
      { ok: (await answering)?.health?.ok, via: (await answering)?.health?.via },
      { ok: true, via: 'test' }
    );

    // A server's model request the provider refuses (400): failing, through sampling.
    await host.call('sampling.setPolicy', { serverId: 'asks', policy: { mode: 'auto', reviewCompletion: false } });
    llm.enqueue({ kind: 'error', status: 400, message: 'This model cannot read that.' });
    const refused = changed();
    await assert.rejects(
      peer.server.request(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 10 }
        },
        CreateMessageResultSchema
      )
    );
    const health = (await refused)?.health;
    assert.equal(health?.ok, false);
    assert.equal(health?.via, 'sampling');
    assert.match(health?.message ?? '', /cannot read that/);
  });
});

/** A provider whose answers the test lets through one at a time (`release`), after they came. */
function heldProvider(): { fetch: typeof fetch; arrived: () => Promise<void>; release: () => void } {
  let came: () => void = () => undefined;
  let arrival = new Promise<void>((resolve) => (came = resolve));
  let gate: () => void = () => undefined;
  return {
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      const held = new Promise<void>((resolve) => (gate = resolve));
      came();
      await held;
      return response;
    },
    arrived: async () => {
      await arrival;
      arrival = new Promise<void>((resolve) => (came = resolve));
    },
    release: () => gate()
  };
}

describe('a provider’s health, when the provider changes while a call of it runs', () => {
  let llm: FakeOpenAIServer;
  const held = heldProvider();
  const keys = tempDir('taskdesk-keys-');
  let fixture: InMemoryHostFixture;

  before(async () => {
    llm = await FakeOpenAIServer.start({ apiKey: KEY });
    fixture = await startHostWith({}, { keyStore: new FileKeyStore(keys.dir), llmFetch: held.fetch });
  });
  after(async () => {
    await fixture.dispose();
    await llm.close();
    keys.remove();
  });

  it('says nothing of a test made with the old key that ends once the right one is saved', async () => {
    const { host } = fixture;
    await host.call('providers.save', { ...fakeProvider(llm), apiKey: 'sk-wrong' });
    const testing = host.call('providers.test', { providerId: 'fake' });
    await held.arrived();
    await host.call('providers.save', { ...fakeProvider(llm), apiKey: KEY, mode: 'update' });
    held.release();
    assert.equal((await testing).ok, false, 'the old key was refused');
    const health = (await host.call('providers.list', {})).find((p) => p.id === 'fake')?.health;
    assert.equal(health, undefined, 'nothing known yet of the key saved since');
  });

  it('leaves the windows as they were, with no unhandled rejection, when the key store cannot be read as a call ends', async () => {
    const { host } = fixture;
    await host.call('providers.remove', { providerId: 'fake' });
    await host.call('providers.save', { ...fakeProvider(llm), apiKey: KEY });
    const testing = host.call('providers.test', { providerId: 'fake' });
    await held.arrived();
    const file = path.join(keys.dir, 'provider-keys.json');
    const kept = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, '{ not json');
    try {
      held.release();
      assert.equal((await testing).ok, true);
      // What the windows would read now says why; the host stays up (an unhandled rejection would fail this file).
      await assert.rejects(host.call('providers.list', {}));
    } finally {
      fs.writeFileSync(file, kept);
    }
    assert.equal((await host.call('providers.list', {})).find((p) => p.id === 'fake')?.health?.ok, true);
  });
});

describe('a provider’s health, when a person approves a run on a model name it does not know', () => {
  let llm: FakeOpenAIServer;
  let fixture: InMemoryHostFixture;
  const peer = peerServer('asks');

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'], strictModels: true });
    fixture = await startHostWith({ asks: peer }, { keyStore: new InMemoryKeyStore() });
    await fixture.host.call('providers.save', fakeProvider(llm));
    await fixture.host.call('sampling.setPolicy', {
      serverId: 'asks',
      policy: { mode: 'ask', reviewCompletion: false }
    });
  });
  after(async () => {
    await fixture.dispose();
    await llm.close();
  });

  /** The request's approval card as it comes back after the run the person approved failed. */
  const failedBack = () =>
    nextEvent(fixture.host, 'inbox.added', ({ item }) => item.draft?.lastFailure !== undefined).then(
      ({ item }) => item
    );
  const health = async () => (await fixture.host.call('providers.list', {})).find((p) => p.id === 'fake')?.health;

  it('says nothing of the provider for a name it does not list (a typo), and fails it for one it lists', async () => {
    const { host } = fixture;
    const approval = nextEvent(host, 'inbox.added', ({ item }) => item.kind === 'sampling-approval');
    const asked = peer.server
      .request(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 10 }
        },
        CreateMessageResultSchema
      )
      .then(
        () => 'answered',
        (error: Error) => error.message
      );
    const { item } = await approval;

    // The person's typo: the provider does not know it (404), and lists no such model.
    let back = failedBack();
    await host.call('inbox.answer', { id: item.id, answer: { action: 'approve', model: 'n a time in Tromsø' } });
    const typo = await back;
    assert.match(typo.draft?.lastFailure?.message ?? '', /does not know model "n a time in Tromsø" \(404\)/);
    assert.equal(await health(), undefined, 'nothing known of the provider: it was not its doing');

    // A model it lists and then does not know: its list (or its address) is wrong, its failing.
    back = failedBack();
    llm.enqueue({ kind: 'error', status: 404, message: 'No such model here.' });
    await host.call('inbox.answer', { id: typo.id, answer: { action: 'approve', model: 'fake-small' } });
    const listed = await back;
    const failing = await health();
    assert.equal(failing?.ok, false);
    assert.match(failing?.message ?? '', /does not know model "fake-small" \(404\)/);

    await host.call('inbox.answer', { id: listed.id, answer: { action: 'reject' } });
    assert.match(await asked, /rejected/);
  });
});
