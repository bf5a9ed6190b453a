import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { modelAnswerOf } from '../../../app/history/edited-answer.js';

const answer = (text: string, stopReason = 'endTurn') => ({
  role: 'assistant',
  content: { type: 'text', text },
  model: 'fake-small',
  stopReason
});
const reviewed = (result: Record<string, unknown>) => [
  { phase: 'model', providerId: 'fake' },
  { phase: 'awaiting-review', result },
  { answeredBy: 'user', action: 'approve' }
];

describe('the model’s answer before the person’s changes in review', () => {
  it('is the answer the runner’s review note holds, when what was sent differs from it', () => {
    const model = answer('Once upon a time', 'maxTokens');
    assert.deepEqual(
      modelAnswerOf('sampling', reviewed(model), { type: 'result', result: answer('A dragon sold tea.') }),
      model
    );
  });

  it('is none for an answer approved as it came, one not reviewed, one rejected, or a question', () => {
    const model = answer('Once upon a time');
    assert.equal(
      modelAnswerOf('sampling', reviewed(model), { type: 'result', result: answer('Once upon a time') }),
      undefined
    );
    assert.equal(
      modelAnswerOf('sampling', [{ phase: 'model' }], { type: 'result', result: answer('Sent unreviewed') }),
      undefined
    );
    assert.equal(
      modelAnswerOf('sampling', reviewed(model), { type: 'error', error: { code: -1, message: 'rejected' } } as never),
      undefined
    );
    assert.equal(
      modelAnswerOf('elicitation', reviewed(model), { type: 'result', result: { action: 'accept' } }),
      undefined
    );
  });
});
