import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cutOffOf } from '../../../app/assistant/model-call.js';
import { reviewCutOffText } from '../../../renderer/components/cut-off-words.js';

describe('an answer cut off before the model finished it', () => {
  it('is told apart from the provider’s finish reason: its token limit or its content filter', () => {
    assert.equal(cutOffOf('length'), 'length');
    assert.equal(cutOffOf('content_filter'), 'content-filter');
    for (const ended of ['stop', 'tool_calls', 'function_call', null]) assert.equal(cutOffOf(ended), undefined);
  });

  it('is said on a review card from its stopReason, with the server’s limit when the request gave one', () => {
    assert.match(reviewCutOffText('maxTokens', 256)!, /^Cut off: the model reached the limit of 256 tokens/);
    assert.match(reviewCutOffText('maxTokens', undefined)!, /^Cut off: the model reached its token limit/);
    assert.match(reviewCutOffText('contentFilter', 256)!, /content filter withheld the rest/);
    for (const ended of ['endTurn', 'stopSequence', 'toolUse', undefined, 42])
      assert.equal(reviewCutOffText(ended, 256), undefined);
  });
});
