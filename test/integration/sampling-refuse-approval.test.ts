import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { auditSentence } from '../../app/contract/audit-words.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { saveFakeProvider } from '../support/assistant-fixture.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { nextEvent, peerServer, startHostWith } from '../support/host-fixture.js';

describe('Refuse set while a model request waits for approval', () => {
  const cleanups: Array<() => unknown> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('its record notes the policy as the cause of its withdrawal', async () => {
    const llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    cleanups.push(() => llm.close());
    const a = peerServer();
    const fixture = await startHostWith({ a }, { keyStore: new InMemoryKeyStore() });
    cleanups.push(() => fixture.dispose());
    const { host } = fixture;
    await saveFakeProvider(host, llm.baseURL);
    await host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'ask', reviewCompletion: false } });
    const approval = nextEvent(host, 'inbox.added', (p) => p.item.kind === 'sampling-approval');
    const created = await a.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'Approve me' } }],
          maxTokens: 10,
          task: { ttl: 600_000 }
        }
      },
      CreateTaskResultSchema
    );
    await approval;
    const { taskId } = created.task;
    const failed = nextEvent(host, 'task.changed', (p) => p.taskId === taskId && p.task?.task.status === 'failed');
    assert.equal((await host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'refuse' } })).refused, 1);
    await failed;
    const { notes } = await host.call('tasks.get', { taskId });
    assert.deepEqual(
      notes.filter((note) => 'answeredBy' in note).map(({ answeredBy, cause }) => ({ answeredBy, cause })),
      [{ answeredBy: 'taskdesk', cause: 'policy' }]
    );
    const entry = await host.call('history.get', { id: `received:${taskId}` });
    assert.equal(entry.statusMessage, 'Refused when you set Server a’s model requests to Refuse.');
    // Its server is told, and the Audit log says, in the words of the person's choice: not "sampling".
    const ended = await host.call('tasks.get', { taskId });
    assert.equal(
      ended.outcome?.type === 'error' ? ended.outcome.error.message : undefined,
      'Taskdesk withdrew this request: This server’s model requests were set to Refuse.'
    );
    const [withdrawn] = await host.call('audit.read', { type: 'inbox.withdrawn' });
    assert.equal(
      withdrawn && auditSentence(withdrawn),
      'A model request was closed without an answer: “Approve me”. This server’s model requests were set to Refuse.'
    );
  });
});
