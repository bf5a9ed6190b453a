import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSchemaForm } from '../../../app/contract/schema-fields.js';
import { argumentValues, formFields, readTree } from '../../../renderer/forms/schema-values.js';

/** A tool's schema with text, numbers, a choice, an optional boolean, a list, an object with defaults and a map. */
const search = {
  type: 'object',
  properties: {
    query: { type: 'string' },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
    sort: { enum: ['newest', 'oldest'] },
    exact: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
    filters: {
      type: 'object',
      properties: { since: { type: 'string', format: 'date' }, archived: { type: 'boolean', default: false } }
    },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    extra: { anyOf: [{ type: 'string' }, { type: 'number' }] }
  },
  required: ['query']
};
const fields = formFields(readSchemaForm(search), 'arguments');

/** What the form sends when left as `argumentValues` filled it. */
function sent(values: ReturnType<typeof argumentValues>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const read = readTree(field, 'arguments', values![field.name], field.name, () => false);
    assert.deepEqual(read.problems, {});
    if (read.value !== undefined) out[field.name] = read.value;
  }
  return out;
}

describe('a tool call’s arguments put in its form', () => {
  it('fills each field with its argument, and the form sends them back as they were', () => {
    const args = {
      query: 'cats',
      limit: 25,
      sort: 'oldest',
      exact: false,
      tags: ['a', 'b'],
      filters: { since: '2026-01-02', archived: true },
      headers: { Accept: 'text/plain' },
      extra: 7
    };
    const values = argumentValues(fields, args);
    assert.ok(values);
    assert.equal(values.query, 'cats');
    assert.equal(values.limit, '25');
    assert.equal(values.sort, '1');
    assert.equal(values.exact, '1');
    assert.deepEqual(values.tags, ['a', 'b']);
    assert.deepEqual(values.filters, { since: '2026-01-02', archived: '0' }, 'an optional boolean is a select');
    assert.deepEqual(values.headers, [{ name: 'Accept', value: 'text/plain' }]);
    assert.equal(values.extra, '7');
    assert.deepEqual(sent(values), args);
  });

  it('leaves an argument the model left out empty, not at the schema’s default', () => {
    const values = argumentValues(fields, { query: 'cats' });
    assert.ok(values);
    assert.equal(values.limit, '');
    assert.deepEqual(values.filters, { since: '', archived: '' });
    assert.deepEqual(sent(values), { query: 'cats' });
  });

  it('cannot show a key the schema does not declare', () => {
    assert.equal(argumentValues(fields, { query: 'cats', page: 2 }), undefined);
  });

  it('cannot show a value of another type than its field’s, nor one a field would send otherwise', () => {
    assert.equal(argumentValues(fields, { query: 5 }), undefined, 'a number in a text field would go back as text');
    assert.equal(argumentValues(fields, { query: 'cats', limit: 'ten' }), undefined);
    assert.equal(argumentValues(fields, { query: 'cats', sort: 'random' }), undefined, 'not one of the choices');
    assert.equal(argumentValues(fields, { query: 'cats', headers: { n: 1 } }), undefined, 'a map of text only');
    assert.equal(argumentValues(fields, { query: '' }), undefined, 'an empty text is read as left out');
    assert.equal(argumentValues(fields, { query: 'cats', filters: { since: '2026-01-02', more: 1 } }), undefined);
  });

  it('cannot show the arguments of a schema a form shows only as one JSON box', () => {
    const opaque = formFields(readSchemaForm({ type: 'object', additionalProperties: true }), 'arguments');
    assert.equal(argumentValues(opaque, {}), undefined);
  });

  it('shows no arguments for a tool that takes none', () => {
    assert.deepEqual(argumentValues([], {}), {});
    assert.equal(argumentValues([], { any: 1 }), undefined);
  });
});
