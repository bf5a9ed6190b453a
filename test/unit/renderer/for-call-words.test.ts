import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forCallWords } from '../../../app/contract/task-row-words.js';

describe('forCallWords', () => {
  it('marks a request asked for a call’s task as for it, and one asked while a call ran as while it ran', () => {
    assert.equal(forCallWords({ tool: 'research', how: 'for', entryId: 'requested:t1' }), 'for the call of research');
    assert.equal(forCallWords({ tool: 'ask', how: 'while', entryId: 'call:c1' }), 'while the call of ask ran');
    assert.equal(
      forCallWords({ tool: 'ask', how: 'while' }),
      'while the call of ask ran',
      'its entry gone from History'
    );
  });
});
