import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HistorySummary } from '../../../app/contract/history.js';
import { lastCallStatus } from '../../../renderer/tools/last-call-status.js';

const call = (over: Partial<HistorySummary>): HistorySummary =>
  ({ kind: 'tool-call', direction: 'requested', status: 'completed', ...over }) as HistorySummary;

describe('a tool card’s “Last called” line', () => {
  it('says how the call ended within its sentence: a first letter in lower case, a name as it is written', () => {
    assert.equal(lastCallStatus(call({})), 'completed');
    assert.equal(lastCallStatus(call({ status: 'cancelled', cancelledBy: 'you' })), 'cancelled by you');
    assert.equal(lastCallStatus(call({ status: 'cancelled', cancelledBy: 'taskdesk' })), 'cancelled by Taskdesk');
  });
});
