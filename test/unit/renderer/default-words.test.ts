import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSchemaForm, type SchemaField } from '../../../app/contract/schema-fields.js';
import {
  argumentValues,
  defaultHint,
  emptyChoiceLabel,
  formFields,
  initialValues,
  readField,
  readTree
} from '../../../renderer/forms/schema-values.js';

/** server-everything's `trigger-long-running-operation` and `simulate-research-query`, as it lists them. */
const longRunning = {
  type: 'object',
  properties: {
    duration: { default: 10, description: 'Duration of the operation in seconds', type: 'number' },
    steps: { default: 5, description: 'Number of steps in the operation', type: 'number' }
  }
};
const research = {
  type: 'object',
  properties: {
    topic: { type: 'string', description: 'The research topic to investigate' },
    ambiguous: { default: false, description: 'Simulate an ambiguous query', type: 'boolean' }
  },
  required: ['topic']
};
/** A tool with every other kind of default, and fields with none. */
const others = {
  type: 'object',
  properties: {
    sort: {
      oneOf: [
        { const: 'new', title: 'Newest first' },
        { const: 'old', title: 'Oldest first' }
      ],
      default: 'old'
    },
    prefix: { type: 'string', default: '' },
    encoding: { type: 'string', default: 'utf8' },
    sizes: { type: 'array', items: { type: 'integer' }, default: [1, 2] },
    long: { type: 'string', default: 'x'.repeat(200) },
    plain: { type: 'string' },
    flag: { type: 'boolean' },
    mode: { enum: ['a', 'b'] },
    must: { enum: ['a', 'b'], default: 'a' }
  },
  required: ['must']
};

const fieldsOf = (schema: unknown, mode: 'arguments' | 'elicitation' = 'arguments'): SchemaField[] =>
  formFields(readSchemaForm(schema), mode);
const byName = (fields: SchemaField[], name: string): SchemaField => fields.find((field) => field.name === name)!;

/** What a tool form sends for `values`. */
function sent(fields: SchemaField[], values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const read = readTree(field, 'arguments', values[field.name] as never, field.name, () => false);
    assert.deepEqual(read.problems, {});
    if (read.value !== undefined) out[field.name] = read.value;
  }
  return out;
}

describe('a tool argument’s schema default is said at its field', () => {
  it('says a number’s default in its hint where its control does not hold it (server-everything’s duration and steps)', () => {
    const fields = fieldsOf(longRunning);
    assert.equal(defaultHint(byName(fields, 'duration'), 'arguments', ''), 'Default: 10', 'emptied');
    assert.equal(defaultHint(byName(fields, 'steps'), 'arguments', '3'), 'Default: 5', 'changed');
  });

  it('says nothing of a default its control holds: a fresh form shows it already, until the person changes it', () => {
    const fields = fieldsOf(longRunning);
    const start = initialValues(fields, 'arguments');
    assert.deepEqual(start, { duration: '10', steps: '5' }, 'pre-filled');
    assert.equal(defaultHint(byName(fields, 'duration'), 'arguments', start.duration), undefined);
    assert.equal(defaultHint(byName(fields, 'steps'), 'arguments', start.steps), undefined);
    const otherFields = fieldsOf(others);
    const filled = initialValues(otherFields, 'arguments');
    assert.equal(defaultHint(byName(otherFields, 'encoding'), 'arguments', filled.encoding), undefined);
    assert.equal(
      defaultHint(byName(otherFields, 'sizes'), 'arguments', filled.sizes),
      undefined,
      'a list of its entries'
    );
    assert.equal(defaultHint(byName(otherFields, 'sizes'), 'arguments', ['1']), 'Default: [1,2]', 'an entry removed');
    // An empty text default leaves the control as empty as no default: only the hint tells them apart.
    assert.equal(defaultHint(byName(otherFields, 'prefix'), 'arguments', filled.prefix), 'Default: (empty text)');
    // The form filled again from a call that left the argument out: empty, and the hint says what that means.
    const again = argumentValues(fields, { steps: 5 })!;
    assert.equal(defaultHint(byName(fields, 'duration'), 'arguments', again.duration), 'Default: 10');
    assert.equal(defaultHint(byName(fields, 'steps'), 'arguments', again.steps), undefined, 'given as the default');
  });

  it('says a tool argument’s date and time default, which its text control is not filled with', () => {
    const fields = fieldsOf({
      type: 'object',
      properties: { due: { type: 'string', format: 'date-time', default: '2026-12-05T09:30:00Z' } }
    });
    const start = initialValues(fields, 'arguments');
    assert.equal(start.due, '', 'not pre-filled');
    assert.equal(defaultHint(byName(fields, 'due'), 'arguments', start.due), 'Default: 2026-12-05T09:30:00Z');
  });

  it('says an optional boolean’s default in its empty choice, not “(not set)” alone (simulate-research-query’s ambiguous)', () => {
    const fields = fieldsOf(research);
    const ambiguous = byName(fields, 'ambiguous');
    assert.equal(emptyChoiceLabel(ambiguous, 'arguments'), '(not set: false by default)');
    assert.equal(defaultHint(ambiguous, 'arguments', ''), undefined, 'the select says it: the hint would say it twice');
    assert.equal(defaultHint(byName(fields, 'topic'), 'arguments', ''), undefined, 'no default, nothing said');
  });

  it('says a choice’s default by its label, text as it is, other values as JSON, cut when long', () => {
    const fields = fieldsOf(others);
    assert.equal(emptyChoiceLabel(byName(fields, 'sort'), 'arguments'), '(not set: Oldest first by default)');
    // Each as the person sees it once the control no longer holds it.
    assert.equal(defaultHint(byName(fields, 'prefix'), 'arguments', ''), 'Default: (empty text)');
    assert.equal(defaultHint(byName(fields, 'encoding'), 'arguments', ''), 'Default: utf8');
    assert.equal(defaultHint(byName(fields, 'sizes'), 'arguments', []), 'Default: [1,2]');
    const long = defaultHint(byName(fields, 'long'), 'arguments', '')!;
    assert.ok(long.endsWith('…') && long.length < 100, long);
    assert.equal(defaultHint(byName(fields, 'plain'), 'arguments', ''), undefined);
    assert.equal(emptyChoiceLabel(byName(fields, 'flag'), 'arguments'), '(not set)');
    assert.equal(emptyChoiceLabel(byName(fields, 'mode'), 'arguments'), '(not set)');
    assert.equal(emptyChoiceLabel(byName(fields, 'must'), 'arguments'), 'Choose…', 'a required choice is chosen');
  });

  it('leaves a question’s fields as they were: the form is filled with the defaults instead (MCP 2025-11-25 elicitation)', () => {
    const fields = fieldsOf(research, 'elicitation');
    assert.equal(defaultHint(byName(fields, 'ambiguous'), 'elicitation', ''), undefined);
    const number = fieldsOf(longRunning, 'elicitation');
    assert.equal(defaultHint(byName(number, 'duration'), 'elicitation', ''), undefined);
    assert.deepEqual(initialValues(number, 'elicitation'), { duration: '10', steps: '5' }, 'pre-filled');
  });

  it('fills a question’s date and time with its default too, as the local time its control holds, read back as the same instant', () => {
    const fields = fieldsOf(
      {
        type: 'object',
        properties: {
          due: { type: 'string', format: 'date-time', default: '2026-12-05T09:30:15.000Z' },
          bad: { type: 'string', format: 'date-time', default: 'not a date' }
        }
      },
      'elicitation'
    );
    const start = initialValues(fields, 'elicitation');
    assert.equal(typeof start.due, 'string');
    assert.match(start.due as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/, 'what a datetime-local control holds');
    assert.deepEqual(readField(byName(fields, 'due'), 'elicitation', start.due, false), {
      ok: true,
      value: '2026-12-05T09:30:15.000Z'
    });
    assert.equal(start.bad, '', 'a default that is no date leaves the control empty');
  });

  it('does not change what is sent: a fresh form sends its defaults as before, a form filled again leaves out what the call left out', () => {
    const fields = fieldsOf(longRunning);
    assert.deepEqual(sent(fields, initialValues(fields, 'arguments')), { duration: 10, steps: 5 });
    const again = argumentValues(fields, { steps: 3 })!;
    assert.deepEqual(again, { duration: '', steps: '3' }, 'duration empty, its hint says what that means');
    assert.deepEqual(sent(fields, again), { steps: 3 });
    const researchFields = fieldsOf(research);
    const left = argumentValues(researchFields, { topic: 'tides' })!;
    assert.equal(left.ambiguous, '', 'the empty choice, which says false by default');
    assert.deepEqual(sent(researchFields, left), { topic: 'tides' });
  });

  it('starts an optional boolean or choice on its empty choice, which says the default, and leaves it out until chosen', () => {
    // A newcomer saw "false" chosen over "(not set: false by default)", and the call sent false they never chose.
    const researchFields = fieldsOf(research);
    const start = initialValues(researchFields, 'arguments');
    assert.equal(start.ambiguous, '', '(not set: false by default)');
    assert.deepEqual(sent(researchFields, { ...start, topic: 'tides' }), { topic: 'tides' });
    const otherFields = fieldsOf(others);
    const filled = initialValues(otherFields, 'arguments');
    assert.equal(filled.sort, '', '(not set: Oldest first by default)');
    assert.equal(filled.flag, '', 'no default: (not set)');
    assert.equal(filled.mode, '', 'no default: (not set)');
    assert.equal(filled.must, '0', 'a required choice starts on its default: it must be sent');
    // Nested in an optional object, the same.
    const nested = fieldsOf({
      type: 'object',
      properties: { options: { type: 'object', properties: { dryRun: { type: 'boolean', default: false } } } }
    });
    assert.deepEqual(initialValues(nested, 'arguments'), { options: { dryRun: '' } });
    // A call that chose false, or true, is filled again as it was sent.
    assert.equal(argumentValues(researchFields, { topic: 'tides', ambiguous: false })!.ambiguous, '1');
    assert.equal(argumentValues(researchFields, { topic: 'tides', ambiguous: true })!.ambiguous, '0');
    assert.equal(argumentValues(otherFields, { must: 'b', sort: 'old' })!.sort, '1');
    // A question's choice is still filled with its default (MCP 2025-11-25 elicitation).
    assert.equal(initialValues(fieldsOf(others, 'elicitation'), 'elicitation').sort, 'old');
  });
});
