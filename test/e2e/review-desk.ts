import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { peerServer, startHostWith, type InMemoryHostFixture, type PeerServer } from '../support/host-fixture.js';

/** A model request's params: one user message. */
export const sampling = (text: string) => ({
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
  maxTokens: 50
});

/**
 * A host whose server `desk` (the peer) has its model requests asked first and their answers
 * reviewed, run by a fake OpenAI-compatible server on loopback (the network is faked, not the
 * app): the set-up of the History tests of answers the person reviewed.
 */
export async function startReviewDesk(): Promise<{
  fixture: InMemoryHostFixture;
  llm: FakeOpenAIServer;
  peer: PeerServer;
}> {
  const llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
  const peer = peerServer('desk-peer');
  const fixture = await startHostWith({ desk: peer }, { keyStore: new InMemoryKeyStore() });
  await fixture.host.call('providers.save', {
    id: 'fake',
    name: 'Fake LLM',
    baseURL: llm.baseURL,
    models: [{ name: 'fake-small' }],
    defaultModel: 'fake-small'
  });
  await fixture.host.call('sampling.setPolicy', {
    serverId: 'desk',
    policy: { mode: 'ask', reviewCompletion: true }
  });
  return { fixture, llm, peer };
}
