import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSchemaForm } from '../../../app/contract/schema-fields.js';
import { ArgumentValidator } from '../../../app/requestor/argument-validator.js';
import { formFields } from '../../../renderer/forms/schema-values.js';
import { placeProblems, plainProblem } from '../../../renderer/tools/argument-problems.js';

/** A search tool with a nested filter group, a list of edits and a JSON box. */
const searchSchema = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 2 },
    limit: { type: 'integer', minimum: 1, maximum: 100 },
    sort: { type: 'string', enum: ['newest', 'oldest'] },
    filters: {
      type: 'object',
      properties: {
        language: { type: 'string' },
        since: { type: 'string', format: 'date' },
        site: { type: 'string', format: 'uri' }
      },
      required: ['language']
    },
    edits: {
      type: 'array',
      items: {
        type: 'object',
        properties: { oldText: { type: 'string', pattern: '^\\S' }, newText: { type: 'string' } },
        required: ['oldText', 'newText']
      }
    },
    meta: { type: 'object', additionalProperties: { type: 'number' } }
  },
  required: ['query']
};

const fields = formFields(readSchemaForm(searchSchema), 'arguments');

/** The problems the host finds (its own Ajv check), as `tools.call` returns them in `data`. */
function hostProblems(schema: Record<string, unknown>, args: Record<string, unknown>) {
  return { problems: new ArgumentValidator().validate(schema, args) };
}

describe('the host’s schema problems go to the nested field they name, in the form’s words', () => {
  it('puts a nested problem on its own field, not on the top-level group', () => {
    const placed = placeProblems(
      hostProblems(searchSchema, {
        query: 'cats',
        filters: { language: 'en', since: '41345-02-02' },
        edits: [{ oldText: ' x', newText: 'y' }]
      }),
      fields
    );
    assert.deepEqual(placed, {
      errors: {
        'filters.since': 'Enter a valid date',
        'edits.0.oldText': 'Does not have the expected form'
      },
      unplaced: []
    });
  });

  it('puts a missing property on that property’s field', () => {
    const placed = placeProblems(hostProblems(searchSchema, { filters: {}, edits: [{ oldText: 'a' }] }), fields);
    assert.deepEqual(placed.errors, {
      query: 'Required',
      'filters.language': 'Required',
      'edits.0.newText': 'Required'
    });
  });

  it('falls back to the nearest enclosing field, with the rest of the path in front', () => {
    const placed = placeProblems(hostProblems(searchSchema, { query: 'ab', meta: { size: 'big' } }), fields);
    assert.deepEqual(placed.errors, { meta: 'size: Must be a number' });
    const nowhere = placeProblems({ problems: [{ path: '/unknown/x', message: 'must be string' }] }, fields);
    assert.deepEqual(nowhere, { errors: {}, unplaced: ['unknown.x: Must be text'] });
  });

  it('puts a problem with a checkbox list’s value on that list as its item, counted from 1', () => {
    const schema = {
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string', enum: ['draft', 'final'] } },
        grid: { type: 'array', items: { type: 'array', items: { type: 'number' } } },
        meta: { type: 'object', additionalProperties: { type: 'number' } }
      }
    };
    const args = { tags: ['final', 'nope'], grid: [[1], [2, 'x']], meta: { '2024': 'big' } };
    const placed = placeProblems(hostProblems(schema, args), formFields(readSchemaForm(schema), 'arguments'), args);
    assert.deepEqual(placed.errors, {
      tags: 'Item 2: Must be one of: draft, final',
      grid: 'Item 2, item 2: Must be a number',
      // A name made of digits is a name, not a place in a list.
      meta: '2024: Must be a number'
    });
  });

  it('puts everything on the one JSON field of an opaque schema', () => {
    const whole = formFields(readSchemaForm({ anyOf: [{ type: 'object' }] }), 'arguments');
    assert.deepEqual(placeProblems({ problems: [{ path: '/a/b', message: 'must be >= 1' }] }, whole).errors, {
      '': 'a.b: Must be 1 or more'
    });
  });

  it('words numbers, lengths, choices and types plainly, and keeps what it does not know', () => {
    const placed = placeProblems(hostProblems(searchSchema, { query: 'a', limit: 500, sort: 'best' }), fields);
    assert.deepEqual(placed.errors, {
      query: 'Must be at least 2 characters',
      limit: 'Must be 100 or less',
      sort: 'Must be one of: newest, oldest'
    });
    assert.equal(plainProblem('must be >= 1'), 'Must be 1 or more');
    assert.equal(plainProblem('must be > 0'), 'Must be more than 0');
    assert.equal(plainProblem('must be integer'), 'Must be a whole number');
    assert.equal(plainProblem('must be string,null'), 'Must be text or empty');
    // No typed pattern: the browser's date and time inputs show the person's own, not YYYY-MM-DD.
    assert.equal(plainProblem('must match format "date"'), 'Enter a valid date');
    assert.equal(plainProblem('must match format "date-time"'), 'Enter a valid date and time');
    assert.equal(plainProblem('must match format "time"'), 'Enter a valid time');
    assert.equal(plainProblem('must match format "email"'), 'Enter an email address');
    assert.equal(plainProblem('must match format "uri"'), 'Enter a full URL (https://…)');
    assert.equal(plainProblem('must NOT have more than 1 characters'), 'Must be at most 1 character');
    assert.equal(plainProblem('must NOT have fewer than 2 items'), 'At least 2 items');
    assert.equal(plainProblem('must NOT have additional properties'), 'must NOT have additional properties');
  });
});
