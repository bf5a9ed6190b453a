import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endedProgressWords, progressText } from '../../../renderer/components/progress-words.js';

describe('a task’s progress in words', () => {
  it('says the server’s message, then the figures, as the live line does', () => {
    assert.equal(progressText({ progress: 1, total: 6, message: 'step 1' }), 'step 1 · 1/6');
    assert.equal(progressText({ progress: 3, total: 10 }), '3/10');
    assert.equal(progressText({ progress: 42, total: 0 }), '42');
    assert.equal(progressText({ progress: 7, message: 'Reading' }), 'Reading · 7');
  });

  it('says where a task that ended got to as past, not as if it were still going', () => {
    const progress = { progress: 1, total: 6, message: 'step 1' };
    for (const state of ['cancelled', 'failed', 'expired', 'lost'])
      assert.equal(endedProgressWords(state, progress), 'Progress when it stopped: step 1 · 1/6', state);
    assert.equal(
      endedProgressWords('completed', { progress: 6, total: 6, message: 'step 6' }),
      'Last progress: step 6 · 6/6'
    );
  });
});
