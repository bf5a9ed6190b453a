import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KIND_WORDS, inboxKindWords } from '../../../renderer/components/kind-words.js';

describe('inboxKindWords', () => {
  it('names an Inbox item in the words of Tasks and History, with what the person is asked to do', () => {
    const words = (kind: Parameters<typeof inboxKindWords>[0]['kind'], request: Record<string, unknown> = {}) =>
      inboxKindWords({ kind, request });
    assert.equal(words('elicitation', { mode: 'form' }), KIND_WORDS.elicitation);
    assert.equal(words('elicitation'), 'Question', 'a form without a mode is a form');
    assert.equal(words('elicitation', { mode: 'url' }), 'Question · link');
    assert.equal(words('sampling'), KIND_WORDS.sampling);
    assert.equal(words('sampling'), 'Model request');
    assert.equal(words('sampling-approval'), 'Model request · approve');
    assert.equal(words('sampling-review'), 'Model answer · review');
  });
});
