import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { HistoryEntrySchema } from '../../app/contract/history.js';
import type { HostEventPayload } from '../../app/contract/host-api.js';
import { createHost, type Host } from '../../app/host/host.js';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { everythingServer } from '../support/everything-server.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { nextEvent, peerServer, startHostWith, tempDir } from '../support/host-fixture.js';
import { serveHttp } from '../support/http-peer.js';
import { buildTaskPeer } from '../support/task-peer-server.js';

const ASYNC_QUESTION = 'Please provide inputs for the following fields (async task demo):';

const said = (removed: HostEventPayload<'inbox.removed'>) => ({
  why: removed.why,
  reason: removed.reason,
  byYou: removed.byYou
});

/**
 * A server's tool call that makes it hand Taskdesk a task-augmented question (a received task);
 * resolves once the question waits in the Inbox, with what its removal and the task's end say.
 */
async function receivedQuestion(host: Host, serverId: string, tool: string, args: Record<string, unknown> = {}) {
  const added = nextEvent(host, 'inbox.added', ({ item }) => item.serverId === serverId && item.taskId !== undefined);
  // The call waits on the task's answer: it ends with the connection, whatever the task does.
  const call = host.call('tools.call', { serverId, name: tool, arguments: args }).catch((error: unknown) => error);
  const { item } = await added;
  const taskId = item.taskId!;
  return {
    item,
    taskId,
    call,
    removed: nextEvent(host, 'inbox.removed', ({ id }) => id === item.id),
    ended: nextEvent(
      host,
      'history.changed',
      ({ entry }) =>
        entry.taskId === taskId && entry.direction === 'received' && ['cancelled', 'failed'].includes(entry.status)
    )
  };
}

describe('received tasks of a server whose connection ends', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function stdioHost(): Host {
    const data = tempDir();
    const host = createHost({ dataDir: data.dir, autoConnect: false, servers: [everythingServer] });
    cleanups.push(data.remove, () => host.close());
    return host;
  }

  it('a stdio server’s Disconnect withdraws its task’s question and cancels the task, as the person’s act', async () => {
    const host = stdioHost();
    assert.equal((await host.connect('everything')).state.status, 'ready');
    const asked = await receivedQuestion(host, 'everything', 'trigger-elicitation-request-async');
    assert.equal(asked.item.request.message, ASYNC_QUESTION);

    await host.call('servers.disconnect', { serverId: 'everything' });
    // The task is ended, not left waiting until its TTL; kept in the store, saying why.
    const record = await host.call('tasks.get', { taskId: asked.taskId });
    assert.equal(record.task.status, 'cancelled');
    assert.equal(record.task.statusMessage, 'You disconnected Everything before it was answered');
    assert.equal(record.cancelledBy, 'you');
    // The question leaves the Inbox, said as the person's doing (as a question outside a task is).
    assert.equal(host.inbox.size, 0);
    assert.deepEqual(said(await asked.removed), {
      why: 'withdrawn',
      reason: 'You disconnected Everything.',
      byYou: true
    });
    // History: cancelled by the person, in their act's words.
    const { entry } = await asked.ended;
    assert.equal(entry.status, 'cancelled');
    assert.equal(entry.cancelledBy, 'you');
    assert.equal(entry.statusMessage, 'You disconnected Everything before it was answered');
    const detail = HistoryEntrySchema.parse(await host.call('history.get', { id: entry.id }));
    assert.equal(detail.timeline.at(-1)?.message, 'You disconnected Everything before it was answered');
    // The audit log says why the question went.
    host.audit.flush();
    const withdrawn = host.audit
      .read({ limit: 200 })
      .find((audited) => audited.type === 'inbox.withdrawn' && audited.taskId === asked.taskId);
    assert.equal((withdrawn?.detail as { reason?: string } | undefined)?.reason, 'You disconnected Everything.');
    await asked.call;

    // Connected again (a new process): the ended task stays as it is, and nothing is asked again.
    assert.equal((await host.connect('everything')).state.status, 'ready');
    assert.equal((await host.call('tasks.get', { taskId: asked.taskId })).task.status, 'cancelled');
    assert.equal(host.inbox.size, 0);
  });

  it('a stdio server whose process exits by itself: its task fails in words of the process, not of the person', async () => {
    const host = stdioHost();
    assert.equal((await host.connect('everything')).state.status, 'ready');
    const asked = await receivedQuestion(host, 'everything', 'trigger-elicitation-request-async');
    const failed = nextEvent(host, 'server.state', (p) => p.serverId === 'everything' && p.state.status === 'failed');
    const pid = (host.connection('everything')!.client.transport as unknown as { pid: number | null }).pid;
    assert.ok(pid);
    process.kill(pid, 'SIGKILL');
    await failed;

    const record = await host.call('tasks.get', { taskId: asked.taskId });
    assert.equal(record.task.status, 'failed');
    assert.equal(record.task.statusMessage, 'Everything’s process ended before it was answered');
    assert.equal(record.cancelledBy, undefined);
    assert.equal(host.inbox.size, 0);
    const removed = said(await asked.removed);
    assert.deepEqual(removed, { why: 'withdrawn', reason: 'Everything’s process ended.', byYou: undefined });
    const { entry } = await asked.ended;
    assert.equal(entry.status, 'failed');
    assert.equal(entry.cancelledBy, undefined);
    assert.equal(entry.statusMessage, 'Everything’s process ended before it was answered');
    assert.doesNotMatch(entry.statusMessage ?? '', /\byou\b/i);
    await asked.call;
  });

  it('a stdio server’s Disconnect stops a model answering its task’s request: the provider call is aborted', async () => {
    const llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    cleanups.push(() => llm.close());
    const peer = peerServer('model-peer');
    const fixture = await startHostWith({ p: peer }, { keyStore: new InMemoryKeyStore() });
    cleanups.push(() => fixture.dispose());
    const { host } = fixture;
    await host.call('providers.save', {
      id: 'fake',
      name: 'Fake LLM',
      baseURL: llm.baseURL,
      models: [{ name: 'fake-small' }],
      defaultModel: 'fake-small'
    });
    // Run without asking: nothing waits in the Inbox, the model answers at once.
    await host.call('sampling.setPolicy', { serverId: 'p', policy: { mode: 'auto', reviewCompletion: false } });
    llm.enqueue({ kind: 'hold' });
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
    const held = await llm.nextHeld();
    assert.equal(host.inbox.size, 0);

    await host.call('servers.disconnect', { serverId: 'p' });
    const record = await host.call('tasks.get', { taskId: task.taskId });
    assert.equal(record.task.status, 'cancelled');
    assert.equal(record.task.statusMessage, 'You disconnected Server p before it was answered');
    assert.equal(record.cancelledBy, 'you');
    await held.closed;
    assert.equal(held.closedByClient, true, 'the provider request was aborted');
  });

  it('an HTTP server’s task stays after a Disconnect: the server can come back for it', async () => {
    const endpoint = await serveHttp(buildTaskPeer);
    cleanups.push(() => endpoint.close());
    const data = tempDir();
    const host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [{ id: 'remote', name: 'Remote', transport: { type: 'http', url: endpoint.url } }]
    });
    cleanups.push(data.remove, () => host.close());
    assert.equal((await host.connect('remote')).state.status, 'ready');
    const asked = await receivedQuestion(host, 'remote', 'elicit-as-task', { message: 'Which city?' });

    const view = await host.call('servers.disconnect', { serverId: 'remote' });
    assert.equal(view.state.status, 'closed');
    await asked.call;
    // Still waiting for the person: the question in the Inbox, the task not ended.
    assert.deepEqual(
      host.inbox.list().map((item) => item.id),
      [asked.item.id]
    );
    const record = await host.call('tasks.get', { taskId: asked.taskId });
    assert.equal(record.task.status, 'working');
    assert.equal(record.task.statusMessage, 'Waiting for your answer in the Inbox');
  });
});
