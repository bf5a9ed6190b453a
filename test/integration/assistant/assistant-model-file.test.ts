import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { AssistantMessage, Conversation } from '../../../app/contract/assistant.js';
import { LOCAL_MODEL_BASE_URL } from '../../../app/contract/providers.js';
import { JsonRpcCode } from '../../../app/core/errors.js';
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
 * what to do once, and marks whether the tools' descriptions were part of what did not fit; tools
 * that cannot fit whatever the conversation holds are not tried again, and a new chat asked to fit
 * them starts without them.
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

  const loadEnded = (c: Conversation): boolean => c.modelLoad === undefined;

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

  it('does not ask the model again while the tools it offers cannot fit, with many tools or one: the retry is refused in words, the failure left as it was', async () => {
    const c = await host.call('assistant.create', {
      providerId: 'stories',
      model: 'stories260K',
      serverIds: ['everything']
    });
    await host.call('assistant.send', { conversationId: c.id, text: 'Once upon a time' });
    const failed = await settled(host, c.id, (x) => x.status === 'failed');
    const first = lastError(failed.messages);
    assert.equal(first.reason, 'tools-too-long');
    const tools = Number(/the (\d+) tools/.exec(first.message)?.[1]);

    // The same tools again: they cannot fit, so the model is not asked (no "Tried 2 times.").
    await assert.rejects(host.call('assistant.retry', { conversationId: c.id }), {
      code: JsonRpcCode.InvalidParams,
      message: `The descriptions of the ${tools} tools this chat offers take more than the model's context of 512 tokens by themselves: offer fewer tools (or none).`
    });
    // Only echo kept: its description alone is still more than the context holds.
    await host.call('assistant.update', { conversationId: c.id, toolsOffered: { everything: ['echo'] } });
    await assert.rejects(host.call('assistant.retry', { conversationId: c.id }), {
      code: JsonRpcCode.InvalidParams,
      message:
        "The description of the one tool this chat offers takes more than the model's context of 512 tokens by itself: turn off tools and retry."
    });
    const after = await host.call('assistant.get', { conversationId: c.id });
    assert.equal(after.status, 'failed');
    assert.deepEqual(after.messages, failed.messages, 'the failure as it was: not tried again');
  });

  it('starts a chat asked to fit its tools without them when the model cannot hold their descriptions, and says why until servers are chosen again', async () => {
    // What the chat would offer: the server's tools that can be called.
    const offered = (await host.call('tools.list', { serverId: 'everything' })).filter(
      (tool) => tool.callMode !== 'unavailable'
    ).length;
    const made = await host.call('assistant.create', {
      providerId: 'stories',
      model: 'stories260K',
      serverIds: ['everything'],
      toolsOffered: { everything: ['echo', 'get-sum'] },
      fitTools: true
    });
    // Decided once its model has loaded (see assistant-model-load.test.ts).
    const c = await settled(host, made.id, loadEnded);
    assert.deepEqual(c.serverIds, []);
    assert.equal(c.toolsOffered, undefined);
    assert.deepEqual(c.toolsOff, { tools: 2, contextSize: 512 });
    assert.equal('fitTools' in c, false);
    assert.equal(c.updatedAt, c.createdAt, 'a chat as it was made');
    assert.deepEqual((await host.call('assistant.get', { conversationId: c.id })).toolsOff, c.toolsOff);
    // A rename keeps why; a server ticked again offers its tools (the person's choice), and the why goes.
    assert.deepEqual(
      (await host.call('assistant.update', { conversationId: c.id, title: 'Stories', serverIds: [] })).toolsOff,
      c.toolsOff
    );
    const ticked = await host.call('assistant.update', { conversationId: c.id, serverIds: ['everything'] });
    assert.deepEqual(ticked.serverIds, ['everything']);
    assert.equal(ticked.toolsOff, undefined);

    // All the server's tools: their number is said.
    const all = await settled(
      host,
      (
        await host.call('assistant.create', {
          providerId: 'stories',
          model: 'stories260K',
          serverIds: ['everything'],
          fitTools: true
        })
      ).id,
      loadEnded
    );
    assert.deepEqual(all.toolsOff, { tools: offered, contextSize: 512 });
    // Another model: what was said of this one's context no longer holds.
    await host.call('providers.save', {
      id: 'remote',
      name: 'Remote',
      baseURL: 'http://127.0.0.1:9/v1',
      models: [{ name: 'big' }]
    });
    const moved = await host.call('assistant.update', { conversationId: all.id, providerId: 'remote', model: 'big' });
    assert.deepEqual(moved.serverIds, []);
    assert.equal(moved.toolsOff, undefined);

    // A provider elsewhere, whose context is not known: its servers as asked.
    const remote = await host.call('assistant.create', {
      providerId: 'remote',
      model: 'big',
      serverIds: ['everything'],
      fitTools: true
    });
    assert.deepEqual(remote.serverIds, ['everything']);
    assert.equal(remote.toolsOff, undefined);
    // Not asked to fit them: as given (the first message then says they do not fit).
    const asGiven = await host.call('assistant.create', {
      providerId: 'stories',
      model: 'stories260K',
      serverIds: ['everything']
    });
    assert.deepEqual(asGiven.serverIds, ['everything']);
    assert.equal(asGiven.toolsOff, undefined);
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
