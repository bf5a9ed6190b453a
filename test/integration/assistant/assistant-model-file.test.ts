import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { AssistantMessage } from '../../../app/contract/assistant.js';
import { LOCAL_MODEL_BASE_URL } from '../../../app/contract/providers.js';
import { createHost, type Host } from '../../../app/host/host.js';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import { answered, settled } from '../../support/assistant-fixture.js';
import { everythingServer } from '../../support/everything-server.js';
import { tempDir } from '../../support/host-fixture.js';

// The real tiny model beside the project (stories260K, a context of 512 tokens): see local-model.test.ts.
const MODEL = path.resolve(fileURLToPath(new URL('../../../../shared/models/stories260K.gguf', import.meta.url)));

type ErrorMessage = Extract<AssistantMessage, { role: 'error' }>;

/**
 * The assistant on a model file whose context cannot hold what it is asked: the failure says
 * what to do once, and marks whether the tools' descriptions were part of what did not fit.
 */
describe('the assistant on a model file too small for what it is asked (stories260K, server-everything)', () => {
  let host: Host;
  const data = tempDir();
  before(async () => {
    assert.ok(existsSync(MODEL), `The test model is not at ${MODEL}: shared/ goes beside the checkout.`);
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      keyStore: new InMemoryKeyStore(),
      servers: [everythingServer]
    });
    assert.equal((await host.connect('everything')).state.status, 'ready');
    await host.call('providers.save', {
      id: 'stories',
      name: 'Stories',
      baseURL: LOCAL_MODEL_BASE_URL,
      modelFile: MODEL,
      models: []
    });
  });
  after(async () => {
    await host.close();
    data.remove();
  });

  const lastError = (messages: AssistantMessage[]): ErrorMessage => {
    const last = messages.at(-1);
    assert.ok(last?.role === 'error', `the last message is a failure, not ${last?.role}`);
    return last;
  };

  it('fails the first message when the tools’ descriptions do not fit, with one advice and the reason marked; without the tools it answers', async () => {
    const c = await host.call('assistant.create', {
      providerId: 'stories',
      model: 'stories260K',
      serverIds: ['everything']
    });
    await host.call('assistant.send', { conversationId: c.id, text: 'Once upon a time' });
    const failed = await settled(host, c.id, (x) => x.status === 'failed');
    const error = lastError(failed.messages);
    assert.equal(error.kind, 'bad-request');
    assert.equal(error.reason, 'tools-too-long');
    assert.equal(
      error.message,
      "Stories: The conversation, with the descriptions of the tools it offers, does not fit the model's context of 512 tokens: offer fewer tools (or none), or use a model with a larger context."
    );
    // Kept as it was shown: read back from the store, the mark is still there.
    const stored = await host.call('assistant.get', { conversationId: c.id });
    assert.equal(lastError(stored.messages).reason, 'tools-too-long');

    await host.call('assistant.update', { conversationId: c.id, serverIds: [] });
    await host.call('assistant.retry', { conversationId: c.id });
    const done = await settled(host, c.id, answered);
    assert.ok(done.messages.every((m) => m.role !== 'error'));
    const answer = done.messages.at(-1);
    assert.ok(answer?.role === 'assistant' && answer.text.trim() !== '', 'the model wrote a story');
  });

  it('says a conversation too long without tools in its own words, with no mark about tools', async () => {
    const c = await host.call('assistant.create', { providerId: 'stories', model: 'stories260K', serverIds: [] });
    await host.call('assistant.send', {
      conversationId: c.id,
      text: 'Once upon a time there was a little girl who liked to play in the park with her dog. '.repeat(40)
    });
    const failed = await settled(host, c.id, (x) => x.status === 'failed');
    const error = lastError(failed.messages);
    assert.equal(error.kind, 'bad-request');
    assert.equal(error.reason, undefined);
    assert.equal(
      error.message,
      "Stories: The conversation does not fit the model's context of 512 tokens: start a new conversation, or use a model with a larger context."
    );
  });
});
