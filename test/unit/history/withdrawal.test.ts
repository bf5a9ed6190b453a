import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REFUSED_BY_POLICY, policyRefusalOf, withdrawalOf } from '../../../app/history/withdrawal.js';
import { withdrawnNote } from '../../../app/receiver/withdrawn-note.js';

const REFUSAL = 'Refused when you set Everything’s model requests to Refuse.';

describe('History tells a request refused by a Refuse policy from other withdrawals', () => {
  it('by the withdrawal note’s cause, whatever its reason says', () => {
    const notes = [
      { ...withdrawnNote('reject', 'Model requests from this server are now refused.', true), cause: 'policy' }
    ];
    assert.equal(policyRefusalOf(notes, 'Everything'), REFUSAL);
    assert.equal(withdrawalOf('sampling', notes), undefined, 'not said as a cancellation');
  });

  it('a note with a cause other than the policy is not such a refusal, even in the policy’s words', () => {
    const notes = [{ ...withdrawnNote('reject', REFUSED_BY_POLICY), cause: 'other' }];
    assert.equal(policyRefusalOf(notes, 'Everything'), undefined);
    assert.equal(withdrawalOf('sampling', notes)?.by, 'taskdesk');
  });

  it('a note written before the cause was kept reads as it did: by its reason’s words', () => {
    // The words such notes were written with (kept on disk): not the words said now.
    const old = [withdrawnNote('reject', 'Sampling was turned off for this server (its policy is now Refuse).', true)];
    assert.equal(policyRefusalOf(old, 'Everything'), REFUSAL);
    assert.equal(withdrawalOf('sampling', old), undefined);
    const ended = [withdrawnNote('reject', 'The task it was asked for ended.')];
    assert.equal(policyRefusalOf(ended, 'Everything'), undefined);
    assert.deepEqual(withdrawalOf('sampling', ended), {
      by: 'taskdesk',
      reason: 'The task it was asked for ended. Taskdesk withdrew it, and told its server it was declined.'
    });
  });

  it('says the refusal in the words of the person’s choice, not “sampling”, and reads no note without a cause by them', () => {
    assert.equal(REFUSED_BY_POLICY, 'This server’s model requests were set to Refuse.');
    // Notes in these words have a cause: one without is not read as the policy's by them.
    assert.equal(policyRefusalOf([withdrawnNote('reject', REFUSED_BY_POLICY, true)], 'Everything'), undefined);
  });

  it('only the last answer counts: a person’s answer after a withdrawal is no refusal', () => {
    const notes = [
      { ...withdrawnNote('reject', 'Anything.'), cause: 'policy' },
      { answeredBy: 'user', action: 'reply' }
    ];
    assert.equal(policyRefusalOf(notes, 'Everything'), undefined);
  });
});
