import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HistorySummary } from '../../../app/contract/host-api.js';
import { failedEntryReason } from '../../../renderer/history/failed-entry-reason.js';

const at = '2026-06-01T00:00:00.000Z';

function summary(extra: Partial<HistorySummary>): HistorySummary {
  return {
    id: 'requested:1',
    direction: 'requested',
    kind: 'tool-call',
    serverId: 'a',
    serverName: 'Server a',
    taskId: 't1',
    title: 'Tool call: slow',
    status: 'failed',
    createdAt: at,
    updatedAt: at,
    ...extra
  };
}

describe('why a failed History entry failed, for its row', () => {
  it('is its status message, whole and without "Failed:"', () => {
    const reason = 'The upstream service refused the job: quota of 500 requests per day used up';
    assert.equal(failedEntryReason(summary({ statusMessage: reason })), reason);
  });

  it('is a plain tool call’s error line when no status message says why', () => {
    const call = { id: 'call:1', taskId: undefined, errorLine: 'Error -32603: The disk is full' };
    assert.equal(failedEntryReason(summary(call)), 'Error -32603: The disk is full');
    assert.equal(failedEntryReason(summary({ ...call, statusMessage: 'Its own words' })), 'Its own words');
    assert.equal(failedEntryReason(summary({ ...call, status: 'cancelled' })), undefined);
  });

  it('says nothing for an entry that did not fail, whatever its message', () => {
    for (const status of ['working', 'input_required', 'completed', 'cancelled', 'expired', 'lost'] as const)
      assert.equal(failedEntryReason(summary({ status, statusMessage: 'Some words' })), undefined, status);
  });

  it('says nothing for a failure without a word why', () => {
    assert.equal(failedEntryReason(summary({})), undefined);
    assert.equal(failedEntryReason(summary({ statusMessage: '  ' })), undefined);
  });

  it('leaves a model request turned down to its "Rejected" badge', () => {
    assert.equal(
      failedEntryReason(
        summary({
          kind: 'sampling',
          direction: 'received',
          rejected: true,
          statusMessage: 'User rejected sampling request'
        })
      ),
      undefined
    );
  });

  it('does not show the SDK’s generic "has no result stored"', () => {
    assert.equal(failedEntryReason(summary({ statusMessage: 'Task 4480abcd has no result stored' })), undefined);
    assert.equal(
      failedEntryReason(summary({ statusMessage: 'Task 4480abcd has no result stored: the server said so' })),
      'Task 4480abcd has no result stored: the server said so'
    );
  });
});
