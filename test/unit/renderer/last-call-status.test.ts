import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HistorySummary } from '../../../app/contract/history.js';
import { callResultWords, lastCallStatus } from '../../../renderer/tools/last-call-status.js';

const call = (over: Partial<HistorySummary>): HistorySummary =>
  ({ kind: 'tool-call', direction: 'requested', status: 'completed', ...over }) as HistorySummary;

describe('a tool card’s “Last called” line', () => {
  it('says how the call ended within its sentence: a first letter in lower case, a name as it is written', () => {
    assert.equal(lastCallStatus(call({})), 'completed');
    assert.equal(lastCallStatus(call({ status: 'cancelled', cancelledBy: 'you' })), 'cancelled by you');
    assert.equal(lastCallStatus(call({ status: 'cancelled', cancelledBy: 'taskdesk' })), 'cancelled by Taskdesk');
  });

  it('says a plain call that the tool marked as an error reported one, not that it answered', () => {
    assert.equal(callResultWords('echo', { content: [] } as { isError?: boolean }), 'echo answered.');
    assert.equal(callResultWords('echo', { isError: false }), 'echo answered.');
    assert.equal(
      callResultWords('trigger-sampling-request', { isError: true }),
      'trigger-sampling-request reported an error.'
    );
  });
});
