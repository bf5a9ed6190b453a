import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InboxItem } from '../../../app/contract/host-api.js';
import { Inbox } from '../../../app/inbox/inbox.js';
import { ManualClock } from '../../support/manual-clock.js';

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();

describe('the Inbox order', () => {
  it('lists its items oldest first by when their servers asked: an answer to review takes its request’s place', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const added: string[] = [];
    const inbox = new Inbox(clock, { added: (item) => added.push(item.id), removed: () => {} });
    const signal = new AbortController().signal;
    const sampling = (kind: 'sampling-approval' | 'sampling-review'): Omit<InboxItem, 'id' | 'createdAt'> => ({
      kind,
      serverId: 's',
      serverName: 'S',
      request: { messages: [], maxTokens: 10 }
    });
    const question: Omit<InboxItem, 'id' | 'createdAt'> = {
      kind: 'elicitation',
      serverId: 's',
      serverName: 'S',
      request: { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: {} } }
    };
    const approval = inbox.ask({ ...sampling('sampling-approval'), id: 't1', createdAt: at(1) }, signal);
    await clock.advance(2_000);
    void inbox.ask({ ...question, id: 'q2' }, signal);
    inbox.answer('t1', { action: 'approve' });
    await approval;
    // The model ran meanwhile: its answer comes last, with the request's own time.
    await clock.advance(1_000);
    void inbox.ask({ ...sampling('sampling-review'), id: 't1', createdAt: at(1) }, signal);
    void inbox.ask({ ...question, id: 'q3' }, signal);
    assert.deepEqual(added, ['t1', 'q2', 't1', 'q3']);
    assert.deepEqual(
      inbox.list().map((item) => `${item.id} ${item.kind}`),
      ['t1 sampling-review', 'q2 elicitation', 'q3 elicitation']
    );
  });
});
