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
    assert.match(
      error.message,
      /^Stories: The conversation, with the descriptions of the \d+ tools it offers, does not fit the model's context of 512 tokens: offer fewer tools \(or none\), or use a model with a larger context\.$/
    );
    assert.equal(error.tries, undefined, 'asked once');
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

  it('says a retry with one tool ran, and that turning tools off is what is left', async () => {
    const c = await host.call('assistant.create', {
      providerId: 'stories',
      model: 'stories260K',
      serverIds: ['everything']
    });
    await host.call('assistant.send', { conversationId: c.id, text: 'Once upon a time' });
    const first = lastError((await settled(host, c.id, (x) => x.status === 'failed')).messages);
    assert.equal(first.reason, 'tools-too-long');

    // Only echo kept, then Retry: the new failure says it was tried again, with that one tool.
    await host.call('assistant.update', { conversationId: c.id, toolsOffered: { everything: ['echo'] } });
    await host.call('assistant.retry', { conversationId: c.id });
    const again = await settled(host, c.id, (x) => x.status === 'failed' && lastError(x.messages).id !== first.id);
    const second = lastError(again.messages);
    assert.equal(again.messages.filter((m) => m.role === 'error').length, 1, 'one failure shown, the last');
    assert.equal(second.reason, 'tools-too-long');
    assert.equal(second.tries, 2);
    assert.equal(
      second.message,
      "Stories: The conversation, with the description of the one tool it offers, does not fit the model's context of 512 tokens: turn off tools and retry, or use a model with a larger context."
    );
    await host.call('assistant.retry', { conversationId: c.id });
    const third = await settled(host, c.id, (x) => x.status === 'failed' && lastError(x.messages).id !== second.id);
    assert.equal(lastError(third.messages).tries, 3);
    assert.equal((await host.call('assistant.get', { conversationId: c.id })).messages.at(-1)?.role, 'error');
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
