import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSchemaForm } from '../../../app/contract/schema-fields.js';
import { keepsTypedText, typedText } from '../../../renderer/inbox/typed-text.js';

describe('what was typed into a question, kept should it be withdrawn', () => {
  const { fields } = readSchemaForm({
    type: 'object',
    properties: {
      place: { type: 'string', title: 'Place' },
      count: { type: 'integer' },
      note: { type: 'string', title: 'Note', default: 'none' },
      size: { type: 'string', enum: ['s', 'l'] },
      urgent: { type: 'boolean' }
    }
  });

  it('lists the text and number fields typed into, a line each, by label', () => {
    assert.equal(
      typedText(fields, { place: 'Dock 4\nbay 2', count: '12', note: 'none', size: 'l', urgent: true }),
      'Place: Dock 4\nbay 2\ncount: 12'
    );
  });

  it('is empty when nothing was typed, or only blanks, or only what the fields came with', () => {
    assert.equal(typedText(fields, { place: '  ', count: '', note: 'none', size: 's', urgent: false }), '');
    assert.equal(typedText(fields, { note: 'fragile' }), 'Note: fragile');
  });

  it('tells a form that keeps typed text from one of choices and checkboxes only, which keeps none', () => {
    assert.equal(keepsTypedText({ type: 'object', properties: { place: { type: 'string' } } }), true);
    assert.equal(keepsTypedText({ type: 'object', properties: { count: { type: 'number' } } }), true);
    assert.equal(
      keepsTypedText({
        type: 'object',
        properties: { size: { type: 'string', enum: ['s', 'l'] }, urgent: { type: 'boolean' } }
      }),
      false
    );
    assert.equal(keepsTypedText(undefined), false);
  });
});
