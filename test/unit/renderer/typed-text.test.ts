import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keepsTypedText } from '../../../renderer/inbox/typed-text.js';

describe('whether a question keeps what the person writes in it, should it be withdrawn', () => {
  it('keeps it for any form with a field, choices and checkboxes included; not for a form of none', () => {
    assert.equal(keepsTypedText({ type: 'object', properties: { place: { type: 'string' } } }), true);
    assert.equal(keepsTypedText({ type: 'object', properties: { count: { type: 'number' } } }), true);
    assert.equal(
      keepsTypedText({
        type: 'object',
        properties: { size: { type: 'string', enum: ['s', 'l'] }, urgent: { type: 'boolean' } }
      }),
      true
    );
    assert.equal(keepsTypedText({ type: 'object', properties: {} }), false);
    assert.equal(keepsTypedText(undefined), false);
  });
});
