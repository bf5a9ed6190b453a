import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inboundMarks } from '../../app/host/inbound-view.js';
import type { TaskRecord } from '../../app/receiver/task-record.js';

const finished = (notes: TaskRecord['notes']): TaskRecord => ({
  schemaVersion: 1,
  task: {
    taskId: 't1',
    status: 'completed',
    createdAt: '2026-12-05T10:00:00.000Z',
    lastUpdatedAt: '2026-12-05T10:01:00.000Z',
    ttl: 60_000
  },
  owner: { serverId: 'a', serverName: 'A', identity: 'a#1' },
  kind: 'elicitation',
  request: { message: 'Which depot?' },
  expiresAt: null,
  outcome: { type: 'result', result: { action: 'accept', content: { depot: 'east' } } },
  notes,
  sequence: 0
});

describe('whether a finished task’s result was fetched, as its view says it', () => {
  it('says kept and not fetched, then fetched, and nothing of a task that ended before fetches were noted', () => {
    assert.deepEqual(inboundMarks(finished([{ resultKept: true }])), { awaitingFetch: true });
    assert.deepEqual(inboundMarks(finished([{ resultKept: true }, { resultFetchedAt: '2026-12-05T10:02:00.000Z' }])), {
      resultFetchedAt: '2026-12-05T10:02:00.000Z'
    });
    assert.deepEqual(inboundMarks(finished([])), {}, 'an older task: nothing known, nothing said');
  });
});
