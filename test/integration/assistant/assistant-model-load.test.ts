import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Conversation } from '../../../app/contract/assistant.js';
import { LOCAL_MODEL_BASE_URL } from '../../../app/contract/providers.js';
import { JsonRpcCode } from '../../../app/core/errors.js';
import { createHost, type Host } from '../../../app/host/host.js';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import { LocalModelError } from '../../../app/sampling/local-model.js';
import { answered, settled } from '../../support/assistant-fixture.js';
import { everythingServer } from '../../support/everything-server.js';
import { HeldModelLoads } from '../../support/held-model-loads.js';
import { tempDir } from '../../support/host-fixture.js';

// The real tiny model beside the project (stories260K, a context of 512 tokens): see local-model.test.ts.
const MODEL = path.resolve(fileURLToPath(new URL('../../../../shared/models/stories260K.gguf', import.meta.url)));

/**
 * New chat on a model file whose load takes a while (held by the test, as a large model's would
 * be): the chat is made at once, says how far its model's load is, decides its tools once the
 * model has loaded, and a message sent meanwhile waits for that rather than failing; a load that
 * fails says why and is tried again by Retry.
 */
describe('a new chat on a model file while its model loads (stories260K, server-everything)', () => {
  let host: Host;
  let loads: HeldModelLoads;
  const data = tempDir();
  /** How many tools of server-everything a chat offers (those that can be called). */
  let offered: number;
  const newChat = () =>
    host.call('assistant.create', {
      providerId: 'stories',
      model: 'stories260K',
      serverIds: ['everything'],
      fitTools: true
    });
  const loaded = (c: Conversation) => c.modelLoad === undefined;

  before(async () => {
    assert.ok(existsSync(MODEL), `The test model is not at ${MODEL}: shared/ goes beside the checkout.`);
    loads = new HeldModelLoads();
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      keyStore: new InMemoryKeyStore(),
      servers: [everythingServer],
      modelFiles: loads
    });
    assert.equal((await host.connect('everything')).state.status, 'ready');
    await host.call('providers.save', {
      id: 'stories',
      name: 'Stories',
      baseURL: LOCAL_MODEL_BASE_URL,
      modelFile: MODEL,
      models: []
    });
    offered = (await host.call('tools.list', { serverId: 'everything' })).filter(
      (tool) => tool.callMode !== 'unavailable'
    ).length;
  });
  after(async () => {
    await host.close();
    data.remove();
  });

  it('makes the chat before its model has loaded, says how far the load is, and answers a message sent meanwhile once it has, without the tools that do not fit', async () => {
    const c = await newChat();
    assert.deepEqual(c.modelLoad, { state: 'loading' });
    assert.deepEqual(c.serverIds, ['everything'], 'its tools are decided once the model has loaded');
    assert.equal(c.updatedAt, c.createdAt);
    const load = await loads.next();
    assert.equal(load.modelFile, MODEL);

    load.progress(0.25);
    const along = await settled(host, c.id, (x) => x.modelLoad?.state === 'loading' && x.modelLoad.progress === 0.25);
    assert.equal(along.updatedAt, c.createdAt, 'how far a load is changes nothing of the chat');

    const sent = await host.call('assistant.send', { conversationId: c.id, text: 'Once upon a time' });
    assert.equal(sent.status, 'generating');
    assert.deepEqual(sent.modelLoad, { state: 'loading', progress: 0.25 });

    load.release();
    const done = await settled(host, c.id, (x) => x.status === 'idle' || x.status === 'failed');
    assert.ok(
      done.messages.every((m) => m.role !== 'error'),
      'not failed for tools that do not fit'
    );
    assert.ok(answered(done));
    assert.equal(done.modelLoad, undefined);
    assert.deepEqual(done.serverIds, []);
    assert.deepEqual(done.toolsOff, { tools: offered, contextSize: 512 });
    const answer = done.messages.at(-1);
    assert.ok(answer?.role === 'assistant' && answer.text.trim() !== '', 'the model wrote a story');
  });

  it('keeps a chat loaded as it was made when nothing else changed: New chat can replace it', async () => {
    const c = await newChat();
    (await loads.next()).release();
    const done = await settled(host, c.id, loaded);
    assert.equal(done.updatedAt, c.createdAt);
    assert.deepEqual(done.toolsOff, { tools: offered, contextSize: 512 });
    assert.deepEqual(await host.call('assistant.get', { conversationId: c.id }), done, 'kept as announced');
  });

  it('says why the model did not load, and Retry loads it again; nothing else is retried', async () => {
    const c = await newChat();
    const problem = `The model file ${MODEL} could not be loaded: not enough memory.`;
    (await loads.next()).fail(new LocalModelError(problem));
    const failed = await settled(host, c.id, (x) => x.modelLoad?.state === 'failed');
    assert.deepEqual(failed.modelLoad, { state: 'failed', message: problem });
    assert.deepEqual(failed.serverIds, ['everything'], 'its tools not decided');
    assert.equal(failed.status, 'idle');

    const retried = await host.call('assistant.retry', { conversationId: c.id });
    assert.deepEqual(retried.modelLoad, { state: 'loading' });
    assert.equal(retried.status, 'idle', 'no model call made');
    (await loads.next()).release();
    const done = await settled(host, c.id, loaded);
    assert.deepEqual(done.toolsOff, { tools: offered, contextSize: 512 });
    assert.deepEqual(done.messages, []);
    // Loaded: nothing is left to retry.
    await assert.rejects(host.call('assistant.retry', { conversationId: c.id }), {
      code: JsonRpcCode.InvalidRequest,
      message: 'Only a conversation whose last model call failed can be retried.'
    });
  });

  it('no longer says the load failed once a message is sent: its model call loads the model, and says what stops it', async () => {
    const c = await newChat();
    (await loads.next()).fail(new LocalModelError('not enough memory'));
    await settled(host, c.id, (x) => x.modelLoad?.state === 'failed');

    const sent = await host.call('assistant.send', { conversationId: c.id, text: 'Once upon a time' });
    assert.equal(sent.modelLoad, undefined, 'the header no longer says it, nor offers its Retry');
    const done = await settled(host, c.id, (x) => x.status === 'idle' || x.status === 'failed');
    assert.equal(done.modelLoad, undefined);
    // The model loaded this time; the tools its load would have left out are what stops it now, said as such.
    const last = done.messages.at(-1);
    assert.ok(last?.role === 'error' && last.reason === 'tools-too-long', JSON.stringify(last));
  });

  it('stops a message waiting for the load at once, the load going on', async () => {
    const c = await newChat();
    const load = await loads.next();
    await host.call('assistant.send', { conversationId: c.id, text: 'Once upon a time' });
    const stopped = await host.call('assistant.stop', { conversationId: c.id });
    assert.equal(stopped.status, 'idle');
    const answer = await settled(host, c.id, (x) => x.messages.at(-1)?.role === 'assistant');
    const last = answer.messages.at(-1);
    assert.ok(last?.role === 'assistant' && last.stopped === true && last.text === '', 'stopped before a word');
    assert.deepEqual(answer.modelLoad, { state: 'loading' });
    load.release();
    assert.deepEqual((await settled(host, c.id, loaded)).toolsOff, { tools: offered, contextSize: 512 });
  });

  it('drops the load of a model the chat no longer uses: moved to another, its tools stay as they are', async () => {
    await host.call('providers.save', {
      id: 'remote',
      name: 'Remote',
      baseURL: 'http://127.0.0.1:9/v1',
      models: [{ name: 'big' }]
    });
    const c = await newChat();
    const load = await loads.next();
    const moved = await host.call('assistant.update', { conversationId: c.id, providerId: 'remote', model: 'big' });
    assert.equal(moved.modelLoad, undefined, 'no longer said to load');
    load.release();
    // A later chat's load, let go after it, has ended: so has that one.
    const later = await newChat();
    (await loads.next()).release();
    await settled(host, later.id, loaded);
    const after = await host.call('assistant.get', { conversationId: c.id });
    assert.deepEqual(after.serverIds, ['everything']);
    assert.equal(after.toolsOff, undefined);
    assert.equal(after.modelLoad, undefined);
    assert.equal(after.updatedAt, moved.updatedAt, 'nothing changed after the move');
  });

  it('forgets a load that Taskdesk’s closing cut: the chat starts again as it was made', async () => {
    const c = await newChat();
    await loads.next();
    await host.close();
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      keyStore: new InMemoryKeyStore(),
      servers: [everythingServer],
      modelFiles: loads
    });
    const again = await host.call('assistant.get', { conversationId: c.id });
    assert.equal(again.modelLoad, undefined);
    assert.deepEqual(again.serverIds, ['everything']);
    assert.equal(again.updatedAt, c.createdAt);
  });
});
