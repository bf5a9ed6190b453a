import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { nextEvent, peerServer, startHostWith, type InMemoryHostFixture } from '../support/host-fixture.js';

/**
 * The person's Stop of a model writing an answer (`sampling.stop`), against the real core and a
 * provider on loopback that streams only as the test lets it: the provider request is aborted,
 * the run ends "Stopped by you." in a defined state, and the provider is not taken for failing.
 */
describe('sampling.stop: the person stops a model while it writes', () => {
  const peer = peerServer('stop-peer');
  let llm: FakeOpenAIServer;
  let fixture: InMemoryHostFixture;

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    fixture = await startHostWith({ p: peer }, { keyStore: new InMemoryKeyStore() });
    await fixture.host.call('providers.save', {
      id: 'fake',
      name: 'Fake LLM',
      baseURL: llm.baseURL,
      models: [{ name: 'fake-small' }],
      defaultModel: 'fake-small'
    });
  });

  after(async () => {
    await fixture?.dispose();
    await llm?.close();
  });

  it('asked first: the request is back before the person, stopped, and runs again when they try again', async () => {
    const { host } = fixture;
    await host.call('sampling.setPolicy', { serverId: 'p', policy: { mode: 'ask', reviewCompletion: false } });
    const asked = nextEvent(host, 'inbox.added', ({ item }) => item.kind === 'sampling-approval');
    const { task } = await peer.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'Write a long story' } }],
          maxTokens: 1000,
          task: { ttl: 60_000 }
        }
      },
      CreateTaskResultSchema
    );
    const { item } = await asked;
    llm.enqueue({ kind: 'hold' });
    await host.call('inbox.answer', { id: item.id, answer: { action: 'approve' } });
    const held = await llm.nextHeld();
    const writing = nextEvent(host, 'sampling.partial', (update) => update.text.includes('Once upon'));
    held.push('Once upon', ' a time');
    const partial = await writing;
    assert.equal(partial.taskId, task.taskId);

    const back = nextEvent(host, 'inbox.added', (added) => added.item.id === item.id);
    const done = nextEvent(host, 'sampling.partial', (update) => update.done === true);
    assert.deepEqual(await host.call('sampling.stop', { serverId: 'p', taskId: task.taskId }), { stopped: true });
    await held.closed;
    assert.equal(held.closedByClient, true, 'the provider request was aborted');
    await done;

    const returned = (await back).item;
    assert.equal(returned.kind, 'sampling-approval');
    assert.equal(returned.draft?.lastFailure?.stopped, true);
    assert.equal(returned.draft?.lastFailure?.message, 'Stopped by you.');
    assert.equal(returned.draft?.lastFailure?.model, 'fake-small');
    const waiting = await host.call('tasks.get', { taskId: task.taskId });
    assert.equal(waiting.task.status, 'working', 'the server still waits: the request is the person’s again');
    // What the server reads in tasks/get: stopped by the person, not a failure.
    assert.equal(
      waiting.task.statusMessage,
      'Waiting for your answer in the Inbox: you stopped the approved model run; run it again or reject the request from Server p'
    );
    const [provider] = await host.call('providers.list', {});
    assert.notEqual(provider?.health?.ok, false, 'a Stop is no failure of the provider’s');
    const entries = host.audit.read({ type: 'sampling.llm', taskId: task.taskId });
    assert.deepEqual(
      entries.map((entry) => [entry.detail?.decision, entry.detail?.reason]),
      [['stopped', 'Stopped by you.']]
    );
    assert.deepEqual(await host.call('sampling.stop', { serverId: 'p', taskId: task.taskId }), { stopped: false });

    llm.enqueue({ kind: 'text', tokens: ['The', ' end.'] });
    await host.call('inbox.answer', { id: returned.id, answer: { action: 'approve' } });
    const result = await peer.server.request(
      { method: 'tasks/result', params: { taskId: task.taskId } },
      CreateMessageResultSchema
    );
    assert.deepEqual(result.content, { type: 'text', text: 'The end.' });
  });

  it('run without asking: the server is told the model was stopped, and gets none of its text', async () => {
    const { host } = fixture;
    await host.call('sampling.setPolicy', { serverId: 'p', policy: { mode: 'auto', reviewCompletion: false } });
    llm.enqueue({ kind: 'hold' });
    const warned: string[] = [];
    const off = host.on('store.warning', ({ message }) => warned.push(message));
    try {
      const answer = peer.server
        .request(
          {
            method: 'sampling/createMessage',
            params: { messages: [{ role: 'user', content: { type: 'text', text: 'Ramble on' } }], maxTokens: 1000 }
          },
          CreateMessageResultSchema
        )
        .catch((error: unknown) => error);
      const held = await llm.nextHeld();
      const writing = nextEvent(host, 'sampling.partial', (update) => update.text.includes('Ramble'));
      held.push('Ramble', ' ramble');
      const partial = await writing;
      assert.equal(partial.taskId, undefined);
      // Named by its stream, as a request that is no task is; another server's name stops nothing.
      assert.deepEqual(await host.call('sampling.stop', { serverId: 'other', streamId: partial.streamId }), {
        stopped: false
      });
      assert.deepEqual(await host.call('sampling.stop', { serverId: 'p', streamId: partial.streamId }), {
        stopped: true
      });
      await held.closed;
      assert.equal(held.closedByClient, true);
      const error = (await answer) as Error & { code?: number; data?: unknown };
      assert.ok(error instanceof Error);
      assert.match(error.message, /stopped it before it finished/);
      assert.deepEqual(error.data, { kind: 'stopped' });
      assert.deepEqual(warned, [], 'the person stopped it: no notice of a failed run');
    } finally {
      off();
      await host.call('sampling.setPolicy', { serverId: 'p', policy: { mode: 'ask', reviewCompletion: true } });
    }
  });

  it('is refused without one of taskId and streamId', async () => {
    for (const params of [{ serverId: 'p' }, { serverId: 'p', taskId: 't', streamId: 's' }]) {
      const reply = await fixture.host.dispatch('sampling.stop', params);
      assert.equal(reply.ok, false);
      if (!reply.ok) assert.equal(reply.error.code, -32602);
    }
  });
});
