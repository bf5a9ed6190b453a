import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HistorySummary } from '../../../app/contract/history.js';
import { callResultWords, callRunningWords, lastCallStatus } from '../../../renderer/tools/last-call-status.js';

const call = (over: Partial<HistorySummary>): HistorySummary =>
  ({ kind: 'tool-call', direction: 'requested', status: 'completed', ...over }) as HistorySummary;

describe('a tool card’s “Last called” line', () => {
  it('says how the call ended within its sentence: a first letter in lower case, a name as it is written', () => {
    assert.equal(lastCallStatus(call({})), 'completed');
    assert.equal(lastCallStatus(call({ status: 'cancelled', cancelledBy: 'you' })), 'cancelled by you');
    assert.equal(lastCallStatus(call({ status: 'cancelled', cancelledBy: 'taskdesk' })), 'cancelled by Taskdesk');
  });

  it('says a plain call’s end with its server: a result returned, or an error the tool reported, never “answered”', () => {
    assert.equal(
      callResultWords('echo', 'Server a', { content: [] } as { isError?: boolean }),
      'echo on Server a returned its result.'
    );
    assert.equal(callResultWords('echo', 'Server a', { isError: false }), 'echo on Server a returned its result.');
    assert.equal(
      callResultWords('trigger-sampling-request', 'Everything (demo)', { isError: true }),
      'trigger-sampling-request on Everything (demo) reported an error.'
    );
  });

  it('tells a call of one tool name on two servers apart by its server, as it starts too', () => {
    const name = 'trigger-elicitation-request-async';
    assert.equal(callRunningWords(name, 'Everything (demo)'), `${name} on Everything (demo) is running.`);
    assert.equal(callRunningWords(name, 'everything-local'), `${name} on everything-local is running.`);
    assert.notEqual(callResultWords(name, 'Everything (demo)', {}), callResultWords(name, 'everything-local', {}));
  });
});
