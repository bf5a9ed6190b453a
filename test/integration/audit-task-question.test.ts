import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import {
  CancelTaskResultSchema,
  CreateMessageResultSchema,
  CreateTaskResultSchema,
  ElicitResultSchema
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AuditEntry } from '../../app/contract/host-api.js';
import { SECRET_MASK } from '../../app/core/secret-mask.js';
import { serverSecretId } from '../../app/host/server-secrets.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { ManualClock } from '../support/manual-clock.js';
import { nextEvent, peerServer, startHostWith, type InMemoryHostFixture } from '../support/host-fixture.js';

const Loose = z.looseObject({});

/** A secret of the server's own (an env var marked secret), which a question of its own repeats. */
const SECRET = 'sk-live-0123456789abcdef';

const form = (message: string) => ({
  mode: 'form',
  message,
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }
});

describe('what a task asks, in its audit entries', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start(clock: ManualClock) {
    const peer = peerServer();
    const fixture: InMemoryHostFixture = await startHostWith(
      { a: peer },
      {
        clock,
        keyStore: new InMemoryKeyStore({ [serverSecretId('a', 'env', 'API_TOKEN')]: SECRET }),
        servers: [
          {
            id: 'a',
            name: 'Server a',
            transport: { type: 'stdio', command: 'in-memory-a' },
            secrets: { env: ['API_TOKEN'], headers: [] },
            autoConnect: false
          }
        ]
      }
    );
    cleanups.push(() => fixture.dispose());
    return { peer, host: fixture.host };
  }

  /** The entries of one task whose type is `task.…`, oldest first. */
  const taskEntries = (entries: AuditEntry[], taskId: string) =>
    entries.filter((entry) => entry.taskId === taskId && entry.type.startsWith('task.')).reverse();

  it('quotes the question in every entry of its task, so that a search by its words finds them', async () => {
    const clock = new ManualClock();
    const { peer, host } = await start(clock);
    // One the person answers, whose result its server fetches.
    const added = nextEvent(host, 'inbox.added');
    const answered = await peer.server.request(
      { method: 'elicitation/create', params: { ...form('Which edition of Ivanhoe?'), task: { ttl: 60_000 } } },
      CreateTaskResultSchema
    );
    const { item } = await added;
    await host.call('inbox.answer', { id: item.id, answer: { action: 'accept', content: { name: '1820' } } });
    await peer.server.request({ method: 'tasks/result', params: { taskId: answered.task.taskId } }, Loose);
    // One left unanswered until it expires.
    const asked = nextEvent(host, 'inbox.added');
    const expired = await peer.server.request(
      { method: 'elicitation/create', params: { ...form('Who wrote\n  Ivanhoe?'), task: { ttl: 10_000 } } },
      CreateTaskResultSchema
    );
    await asked;
    await clock.advance(10_000);

    const answeredEntries = taskEntries(host.audit.read({ taskId: answered.task.taskId }), answered.task.taskId);
    assert.deepEqual(
      answeredEntries.map((entry) => entry.type),
      ['task.created', 'task.status', 'task.result-retrieved']
    );
    for (const entry of answeredEntries) assert.equal(entry.detail?.question, 'Which edition of Ivanhoe?', entry.type);
    const expiredEntries = taskEntries(host.audit.read({ taskId: expired.task.taskId }), expired.task.taskId);
    assert.deepEqual(
      expiredEntries.map((entry) => entry.type),
      ['task.created', 'task.expired']
    );
    // In one short line, as the Inbox's entries quote it.
    for (const entry of expiredEntries) assert.equal(entry.detail?.question, 'Who wrote Ivanhoe?', entry.type);

    // Found by the question's words as by the task's id.
    const found = host.audit.read({ text: 'ivanhoe' }).filter((entry) => entry.type.startsWith('task.'));
    assert.deepEqual(
      found.map((entry) => `${entry.type} ${entry.taskId === expired.task.taskId ? 'expired' : 'answered'}`),
      [
        'task.expired expired',
        'task.created expired',
        'task.result-retrieved answered',
        'task.status answered',
        'task.created answered'
      ]
    );
  });

  it('quotes a model request by its last text of the person’s side, in the entry of its cancel too', async () => {
    const clock = new ManualClock();
    const { peer, host } = await start(clock);
    const added = nextEvent(host, 'inbox.added');
    const { task } = await peer.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [
            { role: 'user', content: { type: 'text', text: 'Summarize the novel' } },
            { role: 'assistant', content: { type: 'text', text: 'Which one?' } },
            { role: 'user', content: { type: 'text', text: 'Ivanhoe, chapter one' } }
          ],
          maxTokens: 50,
          task: { ttl: 60_000 }
        }
      },
      CreateTaskResultSchema
    );
    await added;
    await peer.server.request({ method: 'tasks/cancel', params: { taskId: task.taskId } }, CancelTaskResultSchema);
    const cancelled = taskEntries(host.audit.read({ taskId: task.taskId }), task.taskId).find(
      (entry) => entry.type === 'task.cancelled'
    );
    assert.deepEqual(cancelled?.detail, {
      question: 'Ivanhoe, chapter one',
      reason: 'The task was cancelled by request.',
      by: 'server'
    });
  });

  it('masks the server’s secrets in the question it quotes, even one its cut would leave half of', async () => {
    const clock = new ManualClock();
    const { peer, host } = await start(clock);
    const added = nextEvent(host, 'inbox.added');
    // The quote keeps 80 characters: the secret starts at 70, so cutting first would leave "sk-live-01".
    const { task } = await peer.server.request(
      { method: 'elicitation/create', params: { ...form(`${'x'.repeat(70)}${SECRET} – use this key?`), task: {} } },
      CreateTaskResultSchema
    );
    await added;
    const entries = taskEntries(host.audit.read({ taskId: task.taskId }), task.taskId);
    assert.ok(entries.length > 0);
    for (const entry of entries) {
      const question = String(entry.detail?.question);
      assert.ok(question.startsWith(`${'x'.repeat(70)}${SECRET_MASK}`), question);
      assert.ok(!JSON.stringify(entry).includes('sk-live'), JSON.stringify(entry));
    }
  });

  it('masks them in every entry that quotes a question: the Inbox’s answer, and a model request’s rejection', async () => {
    const { peer, host } = await start(new ManualClock());
    const asked = nextEvent(host, 'inbox.added');
    const answered = peer.server.request(
      { method: 'elicitation/create', params: form(`Use ${SECRET}?`) },
      ElicitResultSchema
    );
    await host.call('inbox.answer', { id: (await asked).item.id, answer: { action: 'decline' } });
    await answered;
    const approval = nextEvent(host, 'inbox.added');
    const sampled = peer.server
      .request(
        {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: `Sum up with ${SECRET}` } }],
            maxTokens: 10
          }
        },
        CreateMessageResultSchema
      )
      .catch((error: unknown) => error);
    await host.call('inbox.answer', { id: (await approval).item.id, answer: { action: 'reject' } });
    await sampled;
    const quoting = host.audit.read({ limit: 1000 }).filter((entry) => entry.detail?.question !== undefined);
    assert.deepEqual(
      quoting.map((entry) => [entry.type, entry.detail?.kind, entry.detail?.question]),
      [
        ['inbox.answered', 'sampling', `Sum up with ${SECRET_MASK}`],
        ['inbox.answered', 'elicitation', `Use ${SECRET_MASK}?`]
      ]
    );
    assert.ok(!JSON.stringify(host.audit.read({ limit: 1000 })).includes('sk-live'));
  });
});
