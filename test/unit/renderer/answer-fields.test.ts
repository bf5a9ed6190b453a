import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerActionWords, answerFields } from '../../../renderer/components/answer-fields.js';

const schema = {
  type: 'object',
  properties: {
    region: {
      type: 'string',
      title: 'Region',
      oneOf: [
        { const: 'eu', title: 'Europe' },
        { const: 'us', title: 'United States' }
      ]
    },
    copies: { type: 'integer', title: 'How many copies' },
    urgent: { type: 'boolean', title: 'Urgent' },
    tags: { type: 'array', items: { enum: ['a', 'b'], enumNames: ['Alpha', 'Beta'] } },
    note: { type: 'string', title: '  ' }
  }
};

describe('an elicitation answer as a person reads it', () => {
  it('lists the answered fields in the schema’s order with its titles, option titles and words for values', () => {
    assert.deepEqual(
      answerFields(
        { urgent: true, tags: ['b', 'a'], copies: 2, region: 'eu', note: 'by Friday', extra: { x: 1 } },
        schema
      ),
      [
        { name: 'region', title: 'Region', value: 'Europe' },
        { name: 'copies', title: 'How many copies', value: '2' },
        { name: 'urgent', title: 'Urgent', value: 'Yes' },
        // No title: the field's name; options named by enumNames.
        { name: 'tags', title: 'tags', value: 'Beta, Alpha' },
        // A blank title is no title.
        { name: 'note', title: 'note', value: 'by Friday' },
        // A field the schema does not list comes last, as JSON.
        { name: 'extra', title: 'extra', value: '{"x":1}' }
      ]
    );
  });

  it('without a schema, or without an answer, still says what there is', () => {
    assert.deepEqual(answerFields({ ok: false }, undefined), [{ name: 'ok', title: 'ok', value: 'No' }]);
    assert.deepEqual(answerFields(undefined, schema), []);
    assert.deepEqual(answerFields(['not', 'an', 'object'], schema), []);
  });

  it('names the action in words', () => {
    assert.equal(answerActionWords('accept'), 'Accepted');
    assert.equal(answerActionWords('decline'), 'Declined');
    assert.equal(answerActionWords('cancel'), 'Dismissed without an answer');
    assert.equal(answerActionWords(undefined), 'Answered');
  });
});
