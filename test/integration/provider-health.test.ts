import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ProviderView } from '../../app/contract/providers.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { settled } from '../support/assistant-fixture.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { nextEvent, peerServer, startHostWith, type InMemoryHostFixture } from '../support/host-fixture.js';

const KEY = 'sk-right-key-never-shown-1234';

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
    await host.call('providers.save', {
      id: 'fake',
      name: 'Fake LLM',
      baseURL: llm.baseURL,
      apiKey: 'sk-wrong',
      models: [{ name: 'fake-small' }]
    });
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
    await host.call('providers.save', {
      id: 'fake',
      name: 'Fake LLM',
      baseURL: llm.baseURL,
      apiKey: KEY,
      models: [{ name: 'fake-small' }],
      mode: 'update'
    });
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
