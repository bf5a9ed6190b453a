import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorWords } from '../../../app/contract/error-words.js';
import { errorLead, errorLine } from '../../../renderer/components/end-message.js';

describe('the words for a requested task’s error', () => {
  it('says a failed task’s error is the tool’s failure', () => {
    assert.equal(errorLead('failed'), 'The tool failed');
    assert.equal(
      errorLine('failed', { code: -32050, message: 'disk is full' }),
      'The tool failed: Error -32050: disk is full'
    );
  });

  it('keeps "Its result could not be fetched" for a task that ended otherwise with an error in place of its result', () => {
    for (const state of ['completed', 'expired', 'lost'])
      assert.equal(errorLead(state), 'Its result could not be fetched', state);
    assert.equal(
      errorLine('completed', { code: -32603, message: 'Task t1 has no result stored' }),
      'Its result could not be fetched: Error -32603: Task t1 has no result stored'
    );
  });

  it('says an error by its code and message', () => {
    assert.equal(errorWords({ code: -32000, message: 'Quota exceeded' }), 'Error -32000: Quota exceeded');
  });
});
