import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { createHost, type Host } from '../../app/host/host.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { everythingServer } from '../support/everything-server.js';

function textOf(value: unknown): string {
  return (value as { content: Array<{ text?: string }> }).content.map((block) => block.text ?? '').join('\n');
}

/** A loopback port nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const listener = net.createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as net.AddressInfo;
  await new Promise<void>((resolve, reject) => listener.close((error) => (error ? reject(error) : resolve())));
  return port;
}

describe('a person writes the reply when the provider cannot be reached (server-everything over stdio)', () => {
  let host: Host;
  const data = tempDir();
  before(async () => {
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      keyStore: new InMemoryKeyStore(),
      servers: [everythingServer]
    });
    await host.call('providers.save', {
      id: 'down',
      name: 'Down LLM',
      baseURL: `http://127.0.0.1:${await closedPort()}/v1`,
      models: [{ name: 'gpt-4o-mini' }],
      defaultModel: 'gpt-4o-mini'
    });
    assert.equal((await host.connect('everything')).state.status, 'ready');
  });
  after(async () => {
    await host.close();
    data.remove();
  });

  const call = (name: string, args: Record<string, unknown>) =>
    host
      .connection('everything')!
      .client.callTool({ name, arguments: args }, CallToolResultSchema, { timeout: 120_000 });

  it('ask policy: the approved run fails, the person replies on the approval, and the server gets the reply', async () => {
    await host.call('sampling.setPolicy', { serverId: 'everything', policy: { mode: 'ask', reviewCompletion: true } });
    const approval = nextEvent(host, 'inbox.added', (p) => p.item.kind === 'sampling-approval');
    const pending = call('trigger-sampling-request', { prompt: 'Name a colour', maxTokens: 10 });
    const { item } = await approval;
    const failed = nextEvent(
      host,
      'inbox.added',
      (p) => p.item.kind === 'sampling-approval' && p.item.draft?.lastFailure !== undefined
    );
    await host.call('inbox.answer', { id: item.id, answer: { action: 'approve' } });
    const back = (await failed).item;
    assert.match(back.draft!.lastFailure!.message, /Could not connect to Down LLM/);
    await host.call('inbox.answer', { id: back.id, answer: { action: 'reply', text: 'Teal, by hand.' } });
    assert.match(textOf(await pending), /Teal, by hand\./);

    const entries = host.audit.read({ serverId: 'everything', limit: 200 });
    // The reply once, in its decision's entry (no `inbox.answered` besides), naming the server's question.
    const written = entries.filter(
      (entry) => entry.type === 'sampling.request' && entry.detail?.decision === 'written-by-you'
    );
    assert.deepEqual(
      written.map((entry) => entry.detail?.question),
      ['Resource trigger-sampling-request context: Name a colour']
    );
    assert.ok(!entries.some((entry) => entry.type === 'inbox.answered'), 'not said twice');
    assert.ok(!entries.some((entry) => entry.type === 'sampling.completion'), 'a reply of a person is not reviewed');
  });

  it('the async tool (a task): replied before any run, the task notes say a person answered', async () => {
    const approval = nextEvent(host, 'inbox.added', (p) => p.item.kind === 'sampling-approval');
    const pending = call('trigger-sampling-request-async', { prompt: 'Name a fruit', maxTokens: 10 });
    const { item } = await approval;
    assert.ok(item.taskId, 'the async tool sends a task');
    await host.call('inbox.answer', { id: item.id, answer: { action: 'reply', text: 'Plum', model: 'me' } });
    assert.match(textOf(await pending), /Plum/);
    const task = (await host.call('tasks.list', { serverId: 'everything' })).find(
      (candidate) => candidate.task.taskId === item.taskId
    );
    assert.equal(task?.task.status, 'completed');
    assert.ok(task?.notes.some((note) => note.answeredBy === 'user' && note.action === 'reply'));
  });

  it('Refuse still refuses, with nobody asked to write the reply', async () => {
    const waiting = host.inbox.size;
    await host.call('sampling.setPolicy', {
      serverId: 'everything',
      policy: { mode: 'refuse', reviewCompletion: false }
    });
    const ordinary = await call('trigger-sampling-request', { prompt: 'Anything', maxTokens: 10 }).then(
      (value) => textOf(value),
      (error: Error) => error.message
    );
    assert.match(ordinary, /Model requests from .+ are set to Refuse\./);
    assert.equal(host.inbox.size, waiting);
  });
});
