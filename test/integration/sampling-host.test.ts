import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import {
  CallToolResultSchema,
  CancelTaskResultSchema,
  CreateMessageResultWithToolsSchema,
  CreateTaskResultSchema
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { createHost, type Host } from '../../app/host/host.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { nextEvent, peerServer, startHostWith, tempDir, type InMemoryHostFixture } from '../support/host-fixture.js';
import { everythingServer } from '../support/everything-server.js';

const Loose = z.looseObject({});
const KEY = 'sk-test-never-shown-4242';

function textOf(value: unknown): string {
  return (value as { content: Array<{ text?: string }> }).content.map((block) => block.text ?? '').join('\n');
}

describe('sampling through a real LLM provider, end to end (server-everything over stdio)', () => {
  let host: Host;
  let llm: FakeOpenAIServer;
  const data = tempDir();
  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small', 'fake-large'], apiKey: KEY });
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      keyStore: new InMemoryKeyStore(),
      servers: [everythingServer]
    });
    await host.call('providers.save', {
      id: 'fake',
      name: 'Fake LLM',
      baseURL: llm.baseURL,
      apiKey: KEY,
      models: [{ name: 'fake-small' }, { name: 'fake-large' }],
      defaultModel: 'fake-small'
    });
    assert.equal((await host.connect('everything')).state.status, 'ready');
  });
  after(async () => {
    await host.close();
    await llm.close();
    data.remove();
  });

  const call = (name: string, args: Record<string, unknown>) =>
    host
      .connection('everything')!
      .client.callTool({ name, arguments: args }, CallToolResultSchema, { timeout: 120_000 });

  it('keeps the key out of everything the UI sees, and tests the connection', async () => {
    const [view] = await host.call('providers.list', {});
    assert.equal(view?.hasKey, true);
    assert.doesNotMatch(JSON.stringify(view), new RegExp(KEY));
    const tested = await host.call('providers.test', { providerId: 'fake' });
    assert.deepEqual(tested, { ok: true, models: ['fake-small', 'fake-large'] });
  });

  it('auto policy without review: trigger-sampling-request-async is answered by the model', async () => {
    await host.call('sampling.setPolicy', {
      serverId: 'everything',
      policy: { mode: 'auto', reviewCompletion: false }
    });
    llm.enqueue({ kind: 'text', tokens: ['Blue', ' is', ' calm.'] });
    const text = textOf(await call('trigger-sampling-request-async', { prompt: 'Name a colour', maxTokens: 20 }));
    assert.match(text, /Blue is calm\./);
    const body = llm.chatRequests.at(-1)!.body;
    assert.equal(body.model, 'fake-small');
    assert.equal(body.stream, true);
    assert.equal(body.messages[0].role, 'system');
    const task = (await host.call('tasks.list', { serverId: 'everything' })).at(-1)!;
    assert.equal(task.task.status, 'completed');
    assert.ok(
      task.notes.some((note) => note.model === 'fake-small' && typeof note.reason === 'string'),
      'the choice and its reason are on the task'
    );
    assert.doesNotMatch(JSON.stringify(host.audit.read({ limit: 1000 })), new RegExp(KEY));
  });

  it('ask policy: the user edits the request and picks another model, then edits the answer in review', async () => {
    await host.call('sampling.setPolicy', { serverId: 'everything', policy: { mode: 'ask', reviewCompletion: true } });
    llm.enqueue({ kind: 'text', tokens: ['Original', ' answer'] });
    const approval = nextEvent(host, 'inbox.added', (p) => p.item.kind === 'sampling-approval');
    const pending = call('trigger-sampling-request', { prompt: 'Say hi', maxTokens: 10 });
    const { item } = await approval;
    assert.equal(item.draft?.model, 'fake-small');
    const edited = { ...item.request, systemPrompt: 'Answer in French.' };
    const review = nextEvent(host, 'inbox.added', (p) => p.item.kind === 'sampling-review');
    await host.call('inbox.answer', {
      id: item.id,
      answer: { action: 'approve', params: edited, model: 'fake-large' }
    });
    const reviewItem = (await review).item;
    assert.equal((reviewItem.draft?.result as { content: { text: string } }).content.text, 'Original answer');
    assert.equal(reviewItem.createdAt, item.createdAt, 'the review says when the server asked, as the approval did');
    const body = llm.chatRequests.at(-1)!.body;
    assert.equal(body.model, 'fake-large');
    assert.equal(body.messages[0].content, 'Answer in French.');
    const bad = await host.dispatch('inbox.answer', {
      id: reviewItem.id,
      answer: { action: 'approve', result: { role: 'nobody' } }
    });
    assert.equal(bad.ok, false, 'an edited answer that is not a sampling result is refused');
    await host.call('inbox.answer', {
      id: reviewItem.id,
      answer: {
        action: 'approve',
        result: {
          role: 'assistant',
          content: { type: 'text', text: 'Bonjour !' },
          model: 'fake-large',
          stopReason: 'endTurn'
        }
      }
    });
    assert.match(textOf(await pending), /Bonjour !/);
    const decisions = host.audit
      .read({ serverId: 'everything', limit: 200 })
      .filter((entry) => entry.type.startsWith('sampling.'))
      .map((entry) => entry.detail?.decision);
    assert.ok(decisions.includes('approved-with-edits'));
  });

  it('auto policy answers the ordinary trigger-sampling-request too, and ask with approval answers the async one', async () => {
    await host.call('sampling.setPolicy', {
      serverId: 'everything',
      policy: { mode: 'auto', reviewCompletion: false }
    });
    llm.enqueue({ kind: 'text', tokens: ['Plain', ' answer'] });
    assert.match(textOf(await call('trigger-sampling-request', { prompt: 'Say hi', maxTokens: 10 })), /Plain answer/);

    await host.call('sampling.setPolicy', { serverId: 'everything', policy: { mode: 'ask', reviewCompletion: false } });
    llm.enqueue({ kind: 'text', tokens: ['Approved', ' answer'] });
    const approval = nextEvent(host, 'inbox.added', (p) => p.item.kind === 'sampling-approval');
    const pending = call('trigger-sampling-request-async', { prompt: 'Anything', maxTokens: 10 });
    const { item } = await approval;
    assert.ok(item.taskId, 'the async tool sends a task');
    await host.call('inbox.answer', { id: item.id, answer: { action: 'approve' } });
    assert.match(textOf(await pending), /Approved answer/);
  });

  it('ask policy: a rejection reaches the server as the usual error', async () => {
    const approval = nextEvent(host, 'inbox.added', (p) => p.item.kind === 'sampling-approval');
    const pending = call('trigger-sampling-request-async', { prompt: 'Anything', maxTokens: 10 });
    const requestsBefore = llm.chatRequests.length;
    await host.call('inbox.answer', { id: (await approval).item.id, answer: { action: 'reject' } });
    assert.match(textOf(await pending), /FAILED|User rejected/i);
    assert.equal(llm.chatRequests.length, requestsBefore, 'no model call after a rejection');
  });

  it('refuse policy: answered at once with an error, no model called', async () => {
    await host.call('sampling.setPolicy', {
      serverId: 'everything',
      policy: { mode: 'refuse', reviewCompletion: false }
    });
    const before = llm.chatRequests.length;
    const result = await call('trigger-sampling-request-async', { prompt: 'Anything', maxTokens: 10 });
    assert.match(textOf(result), /FAILED|refuse/i);
    assert.equal(llm.chatRequests.length, before);
    assert.equal((await host.call('sampling.getPolicy', { serverId: 'everything' })).mode, 'refuse');
    const ordinary = await call('trigger-sampling-request', { prompt: 'Anything', maxTokens: 10 }).then(
      (value) => textOf(value),
      (error: Error) => error.message
    );
    assert.match(ordinary, /refuse|error/i);
    assert.equal(llm.chatRequests.length, before);
  });

  it('refuse set while approvals wait: they leave the Inbox, refused, and cannot be approved', async () => {
    await host.call('sampling.setPolicy', { serverId: 'everything', policy: { mode: 'ask', reviewCompletion: false } });
    const approval = nextEvent(host, 'inbox.added', (p) => p.item.kind === 'sampling-approval');
    const pending = call('trigger-sampling-request', { prompt: 'Anything', maxTokens: 10 }).then(
      (value) => textOf(value),
      (error: Error) => error.message
    );
    const { item } = await approval;
    const before = llm.chatRequests.length;
    const removed = nextEvent(host, 'inbox.removed', (p) => p.id === item.id);
    await host.call('sampling.setPolicy', {
      serverId: 'everything',
      policy: { mode: 'refuse', reviewCompletion: false }
    });
    const gone = await removed;
    assert.equal(gone.why, 'withdrawn');
    assert.equal(gone.reason, 'This server’s model requests were set to Refuse.');
    assert.equal(gone.byYou, true);
    assert.ok(!(await host.call('inbox.list', {})).some((waiting) => waiting.id === item.id));
    await assert.rejects(host.call('inbox.answer', { id: item.id, answer: { action: 'approve' } }));
    assert.match(await pending, /model requests were set to Refuse/);
    assert.equal(llm.chatRequests.length, before, 'no model call');
  });

  it('refuse set while requests wait: History and Tasks say them rejected by the setting, not cancelled by you', async () => {
    await host.call('sampling.setPolicy', { serverId: 'everything', policy: { mode: 'ask', reviewCompletion: false } });
    const asTask = nextEvent(
      host,
      'inbox.added',
      (p) => p.item.kind === 'sampling-approval' && p.item.taskId !== undefined
    );
    const asyncCall = call('trigger-sampling-request-async', { prompt: 'Refused as a task', maxTokens: 10 }).then(
      textOf,
      (error: Error) => error.message
    );
    const taskId = (await asTask).item.taskId!;
    const plainItem = nextEvent(
      host,
      'inbox.added',
      (p) => p.item.kind === 'sampling-approval' && p.item.taskId === undefined
    );
    const plainCall = call('trigger-sampling-request', { prompt: 'Refused plainly', maxTokens: 10 }).then(
      textOf,
      (error: Error) => error.message
    );
    await plainItem;
    const asTaskEnded = nextEvent(host, 'task.changed', (p) => p.taskId === taskId && p.task?.task.status === 'failed');
    await host.call('sampling.setPolicy', {
      serverId: 'everything',
      policy: { mode: 'refuse', reviewCompletion: false }
    });
    await Promise.all([asyncCall, plainCall, asTaskEnded]);
    const words = 'Refused when you set Everything’s model requests to Refuse.';

    // The task as the Tasks screen gets it: its −1, not a withdrawal of the person's.
    const inbound = await host.call('tasks.get', { taskId });
    assert.equal(inbound.task.status, 'failed');
    assert.equal(inbound.outcome?.type === 'error' && inbound.outcome.error.code, -1);
    assert.equal(inbound.withdrawn, undefined);
    assert.equal(inbound.cancelledBy, undefined);

    const taskEntry = await host.call('history.get', { id: `received:${taskId}` });
    assert.equal(taskEntry.status, 'failed');
    assert.equal(taskEntry.cancelledBy, undefined);
    assert.equal(taskEntry.error?.code, -1);
    assert.equal(taskEntry.statusMessage, words);

    const rejected = await host.call('history.list', {
      filter: { serverId: 'everything', status: 'rejected', text: 'Refused plainly' }
    });
    assert.equal(rejected.entries.length, 1, 'the plain request is listed as rejected');
    const plainEntry = await host.call('history.get', { id: rejected.entries[0]!.id });
    assert.equal(plainEntry.status, 'failed');
    assert.equal(plainEntry.cancelledBy, undefined);
    assert.equal(plainEntry.error?.code, -1);
    assert.equal(plainEntry.statusMessage, words);
    assert.equal(plainEntry.timeline.at(-1)?.message, words);
  });
});

describe('sampling through the host with an SDK server peer', () => {
  let llm: FakeOpenAIServer;
  let fixture: InMemoryHostFixture | undefined;
  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
  });
  after(() => llm.close());
  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  async function autoHost(
    extra: { localLlmPorts?: Array<{ id: string; port: number; name: string }>; localLlmProbeTimeoutMs?: number } = {}
  ) {
    const peer = peerServer();
    fixture = await startHostWith({ a: peer }, { keyStore: new InMemoryKeyStore(), ...extra });
    await fixture.host.call('providers.save', {
      id: 'local',
      name: 'Local',
      baseURL: llm.baseURL,
      models: [{ name: 'fake-small' }],
      defaultModel: 'fake-small'
    });
    await fixture.host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'auto', reviewCompletion: false } });
    return { peer, host: fixture.host };
  }

  it('runs a multi-turn tool loop: tool_use out, tool_result back, final text', async () => {
    const { peer } = await autoHost();
    const tools = [
      {
        name: 'get_weather',
        description: 'Weather for a city',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }
      }
    ];
    llm.enqueue({ kind: 'tool-calls', calls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] });
    const first = await peer.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'Weather in Paris?' } }],
          maxTokens: 50,
          tools,
          toolChoice: { mode: 'auto' }
        }
      },
      CreateMessageResultWithToolsSchema
    );
    assert.equal(first.stopReason, 'toolUse');
    const toolUse = (Array.isArray(first.content) ? first.content : [first.content]).find(
      (block) => block.type === 'tool_use'
    ) as { id: string; name: string; input: unknown };
    assert.deepEqual([toolUse.name, toolUse.input], ['get_weather', { city: 'Paris' }]);

    llm.enqueue({ kind: 'text', tokens: ['It is ', 'sunny.'] });
    const { task } = await peer.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [
            { role: 'user', content: { type: 'text', text: 'Weather in Paris?' } },
            { role: 'assistant', content: [toolUse] },
            {
              role: 'user',
              content: [
                { type: 'tool_result', toolUseId: toolUse.id, content: [{ type: 'text', text: '22°C, sunny' }] }
              ]
            }
          ],
          maxTokens: 50,
          tools,
          task: { ttl: 60_000 }
        }
      },
      CreateTaskResultSchema
    );
    const final = await peer.server.request({ method: 'tasks/result', params: { taskId: task.taskId } }, Loose);
    assert.deepEqual(final.content, { type: 'text', text: 'It is sunny.' });
    assert.equal(final.stopReason, 'endTurn');
    const sent = llm.chatRequests.at(-1)!.body;
    assert.deepEqual(
      sent.messages.map((m: { role: string }) => m.role),
      ['user', 'assistant', 'tool']
    );
    assert.equal(sent.messages[2].tool_call_id, 'call_1');
  });

  it('streams: progress notifications with the task tagged reach the server, partial text reaches the UI', async () => {
    const { peer, host } = await autoHost();
    llm.enqueue({ kind: 'hold' });
    const partial = nextEvent(host, 'sampling.partial', (p) => p.text.includes('Once'));
    // The SDK gives the request a progress token and keeps its handler for the task's life.
    let onProgress!: (params: Record<string, unknown>) => void;
    const progress = new Promise<Record<string, unknown>>((resolve) => (onProgress = resolve));
    const { task } = await peer.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'Story' } }],
          maxTokens: 50,
          task: { ttl: 60_000 }
        }
      },
      CreateTaskResultSchema,
      { onprogress: (params) => onProgress(params as unknown as Record<string, unknown>) }
    );
    const held = await llm.nextHeld();
    held.push('Once', ' upon', ' a time');
    const update = await partial;
    assert.equal(update.taskId, task.taskId);
    assert.equal(update.serverId, 'a');
    const note = await progress;
    assert.equal(typeof note.progress, 'number');
    assert.deepEqual((note._meta as Record<string, unknown>)['io.modelcontextprotocol/related-task'], {
      taskId: task.taskId
    });
    // The last update is never throttled away: the UI gets all the text and the end of the stream.
    const done = nextEvent(host, 'sampling.partial', (p) => p.done === true);
    held.push(' there', ' was');
    held.finish('stop');
    const last = await done;
    assert.deepEqual(last, {
      serverId: 'a',
      taskId: task.taskId,
      streamId: update.streamId,
      providerId: last.providerId,
      model: last.model,
      text: 'Once upon a time there was',
      done: true
    });
    const result = await peer.server.request({ method: 'tasks/result', params: { taskId: task.taskId } }, Loose);
    assert.deepEqual(result.content, { type: 'text', text: 'Once upon a time there was' });
    const stored = await host.call('tasks.get', { taskId: task.taskId });
    assert.equal(
      JSON.stringify(stored).includes('"delta"'),
      false,
      'only the final result is persisted, not the stream'
    );
  });

  it('tasks/cancel aborts the HTTP request to the provider', async () => {
    const { peer } = await autoHost();
    llm.enqueue({ kind: 'hold' });
    const { task } = await peer.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'Write a long story' } }],
          maxTokens: 500,
          task: { ttl: 60_000 }
        }
      },
      CreateTaskResultSchema
    );
    const held = await llm.nextHeld();
    held.push('Once', ' upon');
    const cancelled = await peer.server.request(
      { method: 'tasks/cancel', params: { taskId: task.taskId } },
      CancelTaskResultSchema
    );
    assert.equal(cancelled.status, 'cancelled');
    await held.closed;
    assert.equal(held.closedByClient, true, 'Taskdesk closed the provider connection');
  });

  it('with no provider, asks a person and says on the item when "auto" would have run a model', async () => {
    const peer = peerServer();
    fixture = await startHostWith({ a: peer }, { keyStore: new InMemoryKeyStore() });
    const ask = async (text: string) => {
      const added = nextEvent(fixture!.host, 'inbox.added');
      const answered = peer.server.request(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 10 }
        },
        CreateMessageResultWithToolsSchema
      );
      const { item } = await added;
      await fixture!.host.call('inbox.answer', { id: item.id, answer: { action: 'reply', text: 'by hand' } });
      assert.deepEqual((await answered).content, { type: 'text', text: 'by hand' });
      return item;
    };
    await fixture.host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'auto', reviewCompletion: false } });
    const auto = await ask('Run without asking');
    assert.equal(auto.kind, 'sampling');
    assert.equal(auto.fallback, 'no-provider', 'the policy would have run it: the item says why a person is asked');
    await fixture.host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'ask', reviewCompletion: true } });
    const asked = await ask('Ask me first');
    assert.equal(asked.kind, 'sampling');
    assert.equal(asked.fallback, undefined, 'the policy asks a person anyway');
  });

  it('with providers that list no model, asks a person whatever the policy, and the item says why', async () => {
    const peer = peerServer();
    fixture = await startHostWith({ a: peer }, { keyStore: new InMemoryKeyStore() });
    const { host } = fixture;
    // Saved while its model list could not be read: none listed, none typed in.
    await host.call('providers.save', {
      id: 'local',
      name: 'Local Llama',
      baseURL: 'http://127.0.0.1:9/v1',
      models: []
    });
    for (const mode of ['ask', 'auto'] as const) {
      await host.call('sampling.setPolicy', { serverId: 'a', policy: { mode, reviewCompletion: false } });
      const added = nextEvent(host, 'inbox.added');
      const answered = peer.server.request(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: `Say hi (${mode})` } }], maxTokens: 10 }
        },
        CreateMessageResultWithToolsSchema
      );
      const { item } = await added;
      assert.equal(item.kind, 'sampling', `${mode}: a person writes the reply, not a model that is not there`);
      assert.equal(item.fallback, 'no-model');
      await host.call('inbox.answer', { id: item.id, answer: { action: 'reply', text: 'hi by hand' } });
      assert.deepEqual((await answered).content, { type: 'text', text: 'hi by hand' });
    }
  });

  it('detects a local OpenAI-compatible server on a usual port', async () => {
    const { host } = await autoHost({
      localLlmPorts: [{ id: 'ollama', port: llm.port, name: 'Ollama' }],
      localLlmProbeTimeoutMs: 15_000
    });
    const found = await host.call('providers.detect', {});
    assert.equal(found.length, 1);
    assert.equal(found[0]!.baseURL, llm.baseURL);
    assert.deepEqual(
      found[0]!.models.map((model) => model.name),
      ['fake-small']
    );
  });
});

describe('sampling approvals survive restarts', () => {
  it('asks again for an approval, resumes a review with the stored answer, and fails only a running model call', async () => {
    const llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    const data = tempDir();
    const boot = async () => {
      const peer = peerServer();
      const fixture = await startHostWith({ a: peer }, { dir: data.dir, keyStore: new InMemoryKeyStore() });
      return { peer, host: fixture.host, stop: () => fixture.stop() };
    };
    try {
      const first = await boot();
      await first.host.call('providers.save', {
        id: 'local',
        name: 'Local',
        baseURL: llm.baseURL,
        models: [{ name: 'fake-small' }],
        defaultModel: 'fake-small'
      });
      await first.host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'ask', reviewCompletion: true } });
      const approval = nextEvent(first.host, 'inbox.added', (p) => p.item.kind === 'sampling-approval');
      const { task } = await first.peer.server.request(
        {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'Hello?' } }],
            maxTokens: 20,
            task: { ttl: 3_600_000 }
          }
        },
        CreateTaskResultSchema
      );
      await approval;
      await first.stop();

      // Restart 1: the approval is back; approve it, the model answers, the review waits.
      const second = await boot();
      assert.deepEqual(
        second.host.inbox.list().map((item) => [item.id, item.kind]),
        [[task.taskId, 'sampling-approval']]
      );
      // The stop broke the wait off: audited as interrupted (it waits again), not as cancelled.
      const logged = await second.host.call('audit.read', { limit: 1000, serverId: 'a' });
      assert.deepEqual(
        logged
          .filter((entry) => entry.type === 'sampling.request' && entry.taskId === task.taskId)
          .map((entry) => entry.detail?.decision),
        ['interrupted']
      );
      llm.enqueue({ kind: 'text', tokens: ['Hi', ' there'] });
      const review = nextEvent(second.host, 'inbox.added', (p) => p.item.kind === 'sampling-review');
      await second.host.call('inbox.answer', { id: task.taskId, answer: { action: 'approve' } });
      await review;
      assert.equal(llm.chatRequests.length, 1);
      await second.stop();

      // Restart 2: the review is back with the same answer, and the model is not called again.
      const third = await boot();
      const [item] = third.host.inbox.list();
      assert.equal(item?.kind, 'sampling-review');
      assert.equal((item?.draft?.result as { content: { text: string } }).content.text, 'Hi there');
      const waiting = third.peer.server.request({ method: 'tasks/result', params: { taskId: task.taskId } }, Loose);
      await third.host.call('inbox.answer', { id: task.taskId, answer: { action: 'approve' } });
      assert.deepEqual((await waiting).content, { type: 'text', text: 'Hi there' });
      assert.equal(llm.chatRequests.length, 1, 'the model ran once in all');

      // A model call cut by a restart is failed, not repeated.
      await third.host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'auto', reviewCompletion: false } });
      llm.enqueue({ kind: 'hold' });
      const running = await third.peer.server.request(
        {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'Long one' } }],
            maxTokens: 20,
            task: { ttl: 3_600_000 }
          }
        },
        CreateTaskResultSchema
      );
      await llm.nextHeld();
      await third.stop();
      const fourth = await boot();
      const record = await fourth.host.call('tasks.get', { taskId: running.task.taskId });
      assert.equal(record.task.status, 'failed');
      assert.match(record.task.statusMessage ?? '', /restarted/);
      assert.equal(llm.chatRequests.length, 2);
      await fourth.stop();
    } finally {
      await llm.close();
      data.remove();
    }
  });
});
