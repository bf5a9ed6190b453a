import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerActionWords, answerFields, answerWordLists, askedFields } from '../../../app/contract/answer-words.js';

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

describe('the fields a form asks for, in words', () => {
  it('gives each field’s title, the kind of value it takes and whether it is required', () => {
    assert.deepEqual(
      askedFields({
        type: 'object',
        properties: {
          email: { type: 'string', format: 'email', title: 'Email address' },
          copies: { type: 'integer', title: 'Copies' },
          format: {
            type: 'string',
            title: 'Format',
            oneOf: [
              { const: 'pdf', title: 'PDF' },
              { const: 'html', title: 'Web page' }
            ]
          },
          tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
          ok: { type: 'boolean' }
        },
        required: ['email']
      }),
      [
        { name: 'email', title: 'Email address', kind: 'text (email)', required: true },
        { name: 'copies', title: 'Copies', kind: 'whole number', required: false },
        { name: 'format', title: 'Format', kind: 'one of: PDF, Web page', required: false },
        { name: 'tags', title: 'tags', kind: 'any of: a, b', required: false },
        { name: 'ok', title: 'ok', kind: 'yes or no', required: false }
      ]
    );
    assert.deepEqual(askedFields(undefined), []);
  });

  it('says a number’s option by its title too, as History’s search finds it', () => {
    const schema = {
      type: 'object',
      properties: {
        size: {
          type: 'integer',
          oneOf: [
            { const: 3, title: 'Three' },
            { const: 4, title: 'Four' }
          ]
        }
      }
    };
    assert.deepEqual(answerFields({ size: 3 }, schema), [{ name: 'size', title: 'size', value: 'Three' }]);
    assert.deepEqual(answerWordLists({ tags: ['a', 'b'] }, undefined), [
      { name: 'tags', title: 'tags', values: ['a', 'b'] }
    ]);
  });
});
