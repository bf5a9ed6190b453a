import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endedWithoutResult } from '../../../app/assistant/tool-results.js';

describe('what the model reads of a task that ended without a result', () => {
  it("gives a lost task's reason after its state, so the server's answer is not put in doubled parentheses", () => {
    const reason =
      'Everything HTTP no longer has this task (it may have restarted, or keeps its tasks for one connection only). (It answered: Failed to retrieve task: Task not found.)';
    const text = endedWithoutResult({ state: 'lost', reason });
    assert.equal(text, `The task ended without a result (lost). ${reason}`);
    assert.doesNotMatch(text, /\)\)/);
    assert.doesNotMatch(text, /\.\)\./);
  });

  it('says an expired task without a reason in one sentence, and who cancelled a cancelled one', () => {
    assert.equal(endedWithoutResult({ state: 'expired' }), 'The task ended without a result (expired).');
    assert.equal(
      endedWithoutResult({ state: 'cancelled', cancelledBy: 'you' }),
      'The task ended without a result (cancelled by the person).'
    );
    assert.equal(
      endedWithoutResult({ state: 'cancelled', cancelledBy: 'server' }),
      'The task ended without a result (cancelled by the server).'
    );
    assert.equal(endedWithoutResult({ state: 'cancelled' }), 'The task ended without a result (cancelled).');
  });
});
