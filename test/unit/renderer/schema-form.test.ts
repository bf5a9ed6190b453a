import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_FORM_DEPTH, readSchemaForm, type SchemaField } from '../../../app/contract/schema-fields.js';
import {
  controlKind,
  fieldAt,
  initialValues,
  newItem,
  readTree,
  typeHint,
  type RawValue,
  type SchemaFormMode
} from '../../../renderer/forms/schema-values.js';

/** filesystem's `edit_file` as the reference server declares it, with an options object and a list of paths. */
const editFile = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    edits: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          oldText: { type: 'string', description: 'Text to search for' },
          newText: { type: 'string' }
        },
        required: ['oldText', 'newText'],
        additionalProperties: false
      }
    },
    paths: { type: 'array', items: { type: 'string' }, minItems: 1 },
    sizes: { type: 'array', items: { type: 'integer' }, default: [1, 2] },
    options: {
      type: 'object',
      properties: {
        dryRun: { type: 'boolean', default: false },
        context: { type: 'integer', default: 3 },
        encoding: { type: 'string' }
      },
      required: ['encoding']
    },
    tags: { type: 'array', items: { enum: ['a', 'b', 'c'] } }
  },
  required: ['path', 'edits', 'paths']
};

const fieldsOf = (schema: unknown): SchemaField[] => readSchemaForm(schema).fields;
const byName = (fields: SchemaField[], name: string): SchemaField => fields.find((field) => field.name === name)!;

/** Reads every field as the form does on submit. */
function readAll(fields: SchemaField[], values: Record<string, RawValue>, mode: SchemaFormMode = 'arguments') {
  const out: Record<string, unknown> = {};
  const problems: Record<string, string> = {};
  for (const field of fields) {
    const read = readTree(field, mode, values[field.name], field.name, () => false);
    Object.assign(problems, read.problems);
    if (read.value !== undefined) out[field.name] = read.value;
  }
  return { out, problems };
}

describe('a tool’s input schema read as nested form fields', () => {
  const fields = fieldsOf(editFile);

  it('reads an object with properties as its own fields, with its own required', () => {
    const options = byName(fields, 'options');
    assert.equal(options.kind, 'object');
    assert.equal(options.required, false);
    assert.deepEqual(
      options.fields?.map((field) => [field.name, field.kind, field.required]),
      [
        ['dryRun', 'boolean', false],
        ['context', 'integer', false],
        ['encoding', 'text', true]
      ]
    );
    assert.equal(controlKind(options, 'arguments'), 'object');
  });

  it('reads arrays of strings, numbers and objects as lists, with their item and counts', () => {
    const paths = byName(fields, 'paths');
    assert.equal(paths.kind, 'list');
    assert.equal(paths.item?.kind, 'text');
    assert.equal(paths.minItems, 1);
    assert.equal(byName(fields, 'sizes').item?.kind, 'integer');
    const edits = byName(fields, 'edits');
    assert.equal(edits.kind, 'list');
    assert.equal(edits.item?.kind, 'object');
    assert.equal(edits.item?.required, true);
    assert.deepEqual(
      edits.item?.fields?.map((field) => [field.name, field.required, field.description]),
      [
        ['oldText', true, 'Text to search for'],
        ['newText', true, undefined]
      ]
    );
  });

  it('shows an array of listed values as checkboxes in both modes', () => {
    const tags = byName(fields, 'tags');
    assert.equal(tags.kind, 'multi-choice');
    assert.equal(controlKind(tags, 'arguments'), 'checkboxes');
    assert.equal(controlKind(tags, 'elicitation'), 'checkboxes');
  });

  it('leaves an optional yes/no answer with no default out unless chosen: Yes, No or (none), not an unticked box', () => {
    const question = fieldsOf({
      type: 'object',
      properties: {
        name: { type: 'string' },
        agreeToTerms: { type: 'boolean', title: 'Terms Agreement' },
        newsletter: { type: 'boolean', default: true },
        confirmed: { type: 'boolean' }
      },
      required: ['name', 'confirmed']
    });
    const agree = byName(question, 'agreeToTerms');
    assert.equal(controlKind(agree, 'elicitation'), 'select');
    assert.equal(controlKind(byName(question, 'newsletter'), 'elicitation'), 'checkbox', 'a default is an answer');
    assert.equal(
      controlKind(byName(question, 'confirmed'), 'elicitation'),
      'checkbox',
      'a required one is ticked or not'
    );
    const start = initialValues(question, 'elicitation');
    assert.equal(start.agreeToTerms, '');
    // Untouched: not sent at all.
    assert.deepEqual(readAll(question, { ...start, name: 'Ada' }, 'elicitation').out, {
      name: 'Ada',
      newsletter: true,
      confirmed: false
    });
    // Chosen: sent as chosen.
    assert.equal(
      readAll(question, { ...start, name: 'Ada', agreeToTerms: 'false' }, 'elicitation').out.agreeToTerms,
      false
    );
    assert.equal(
      readAll(question, { ...start, name: 'Ada', agreeToTerms: 'true' }, 'elicitation').out.agreeToTerms,
      true
    );
  });

  it('keeps nested values out of elicitation forms, whose schemas are flat', () => {
    assert.equal(controlKind(byName(fields, 'options'), 'elicitation'), 'unsupported');
    assert.equal(controlKind(byName(fields, 'paths'), 'elicitation'), 'unsupported');
  });

  it('leaves unions, maps of anything but text, tuples, references and arrays of arrays as JSON', () => {
    const other = fieldsOf({
      type: 'object',
      properties: {
        union: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        map: { type: 'object', additionalProperties: { type: 'number' } },
        choiceMap: { type: 'object', additionalProperties: { enum: ['a', 'b'] } },
        mixed: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'number' } },
        tuple: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] },
        prefixed: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'number' } },
        ref: { $ref: '#/$defs/thing' },
        grid: { type: 'array', items: { type: 'array', items: { type: 'number' } } },
        unionItems: { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'object' }] } },
        empty: { type: 'object', properties: {} }
      }
    });
    for (const field of other) {
      assert.equal(field.kind, 'other', field.name);
      assert.equal(controlKind(field, 'arguments'), 'json', field.name);
    }
  });

  it(`nests objects and lists ${MAX_FORM_DEPTH} deep, and writes anything deeper as JSON`, () => {
    const level = (inner: Record<string, unknown>) => ({ type: 'object', properties: { inner } });
    const deepest = { type: 'object', properties: { leaf: { type: 'string' } } };
    const [one] = fieldsOf(level(level(level(level(deepest)))));
    const two = one!.fields![0]!;
    const three = two.fields![0]!;
    const four = three.fields![0]!;
    assert.deepEqual(
      [one!.kind, two.kind, three.kind, four.kind],
      ['object', 'object', 'object', 'other'],
      'three fieldsets, then JSON'
    );
    const [list] = fieldsOf({
      type: 'object',
      properties: { rows: { type: 'array', items: level(level({ type: 'array', items: { type: 'string' } })) } }
    });
    // The list, its entries' object, that object's object: the list in it is one level too deep.
    assert.equal(list!.item!.fields![0]!.kind, 'object');
    assert.equal(list!.item!.fields![0]!.fields![0]!.kind, 'other');
  });
});

describe('a nested form’s values, read into the arguments a tool expects', () => {
  const fields = fieldsOf(editFile);

  it('starts from the schema’s defaults, nested ones too', () => {
    const values = initialValues(fields, 'arguments');
    assert.deepEqual(values, {
      path: '',
      edits: [],
      paths: [],
      sizes: ['1', '2'],
      // An optional boolean starts on "(not set: false by default)": left out unless chosen.
      options: { dryRun: '', context: '3', encoding: '' },
      tags: []
    });
    const defaulted = fieldsOf({
      type: 'object',
      properties: {
        edits: { ...editFile.properties.edits, default: [{ oldText: 'a', newText: 'b' }] },
        options: { ...editFile.properties.options, default: { encoding: 'utf8' } }
      }
    });
    assert.deepEqual(initialValues(defaulted, 'arguments'), {
      edits: [{ oldText: 'a', newText: 'b' }],
      // The object's default names encoding only: the others keep their own.
      options: { dryRun: '', context: '3', encoding: 'utf8' }
    });
  });

  it('reads objects, lists of strings and lists of objects into JSON of the right types', () => {
    const { out, problems } = readAll(fields, {
      path: 'notes.md',
      edits: [
        { oldText: 'a', newText: 'b' },
        { oldText: 'c', newText: '' }
      ],
      paths: ['one.md', 'two.md'],
      sizes: ['4'],
      options: { dryRun: '0', context: '5', encoding: 'utf8' },
      tags: ['0', '2']
    });
    assert.deepEqual(problems, { 'edits.1.newText': 'Required' });
    assert.deepEqual(out.paths, ['one.md', 'two.md']);
    assert.deepEqual(out.sizes, [4]);
    assert.deepEqual(out.options, { dryRun: true, context: 5, encoding: 'utf8' });
    assert.deepEqual(out.tags, ['a', 'c']);
  });

  it('adds and removes list entries: what remains is read in order', () => {
    const paths = byName(fields, 'paths');
    const read = (raw: RawValue[]) => readTree(paths, 'arguments', raw, 'paths', () => false);
    // Added entries start empty, and an empty entry is asked for: it was added to be filled.
    const added = [newItem(paths, 'arguments'), newItem(paths, 'arguments')];
    assert.deepEqual(added, ['', '']);
    assert.deepEqual(read(added).problems, { 'paths.0': 'Required', 'paths.1': 'Required' });
    const filled = ['a.md', 'b.md', 'c.md'];
    assert.deepEqual(read(filled.filter((_, index) => index !== 1)), { value: ['a.md', 'c.md'], problems: {} });
    const edits = byName(fields, 'edits');
    assert.deepEqual(newItem(edits, 'arguments'), { oldText: '', newText: '' });
  });

  it('leaves out an optional object left empty or as it came, and an optional list with no entries', () => {
    const values = { path: 'a.md', edits: [], paths: ['a.md'], sizes: [], tags: [] };
    for (const options of [{ dryRun: '', context: '', encoding: '' }, initialValues(fields, 'arguments').options!]) {
      const { out, problems } = readAll(fields, { ...values, options });
      assert.deepEqual(problems, {});
      // A required list may be empty (no minItems); the optional ones are left out.
      assert.deepEqual(out, { path: 'a.md', edits: [], paths: ['a.md'] });
    }
  });

  it('says at the field what is wrong: a required part, a count, a number', () => {
    const { problems } = readAll(fields, {
      path: '',
      edits: [{ oldText: '', newText: 'x' }],
      paths: [],
      sizes: ['1.5'],
      // An optional object with one field filled wants its required ones.
      options: { dryRun: '', context: '2', encoding: '' },
      tags: []
    });
    assert.deepEqual(problems, {
      path: 'Required',
      'edits.0.oldText': 'Required',
      paths: 'At least 1 item',
      'sizes.0': 'Must be a whole number',
      'options.encoding': 'Required'
    });
  });

  it('reads a multi-choice argument: left out when optional and none chosen, checked against its counts', () => {
    const [optional, required] = fieldsOf({
      type: 'object',
      properties: {
        optional: { type: 'array', items: { enum: ['x', 'y'] } },
        required: { type: 'array', items: { enum: ['x', 'y'] }, minItems: 1 }
      },
      required: ['required']
    });
    assert.deepEqual(readTree(optional!, 'arguments', [], 'optional', () => false).value, undefined);
    assert.deepEqual(readTree(required!, 'arguments', [], 'required', () => false).problems, {
      required: 'Choose at least 1'
    });
    assert.deepEqual(readTree(required!, 'arguments', ['1'], 'required', () => false).value, ['y']);
    // An elicitation's answer is checked by the host, as before.
    assert.deepEqual(
      readTree(required!, 'elicitation', [], 'required', () => false),
      {
        value: undefined,
        problems: {}
      }
    );
  });

  it('reads a number entry the browser finds no number in as a problem at that entry', () => {
    const sizes = byName(fields, 'sizes');
    assert.deepEqual(readTree(sizes, 'arguments', ['3', ''], 'sizes', (path) => path === 'sizes.1').problems, {
      'sizes.1': 'Must be a number'
    });
  });
});

describe('a tool argument’s hint says what it takes in plain words', () => {
  const hint = (property: Record<string, unknown>, required = false) =>
    typeHint(
      fieldsOf({ type: 'object', properties: { x: property }, required: required ? ['x'] : [] })[0]!,
      'arguments'
    );

  it('gives numbers their range, and text its format only', () => {
    assert.equal(hint({ type: 'integer', minimum: 1, maximum: 100 }), 'whole number, 1 to 100');
    assert.equal(hint({ type: 'number', minimum: 0 }), 'number, at least 0');
    assert.equal(hint({ type: 'integer', maximum: 10 }), 'whole number, at most 10');
    assert.equal(hint({ type: 'number' }), 'number');
    // As zod's int() writes it: the safe-integer limit is no limit to speak of.
    assert.equal(hint({ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER }), 'whole number, at least 0');
    assert.equal(hint({ type: 'string' }), undefined);
    assert.equal(hint({ type: 'string', format: 'date' }), 'date');
    assert.equal(hint({ type: 'string', format: 'email' }), 'email');
    assert.equal(hint({ type: 'string', format: 'uri' }), 'URL');
    assert.equal(hint({ type: 'string', enum: ['a', 'b'] }), undefined, 'a choice says itself');
  });

  it('says nothing for a boolean’s true/false select or checkbox (the control says it), nor for a group', () => {
    assert.equal(hint({ type: 'boolean' }), undefined);
    assert.equal(hint({ type: 'boolean' }, true), undefined);
    // A list's entries are typed in: what they take is said still.
    assert.equal(hint({ type: 'array', items: { type: 'boolean' } }), 'list of true or false');
    assert.equal(hint({ type: 'object', properties: { a: { type: 'string' } } }), undefined);
  });

  it('says list of what, and that a required list without a minimum may be empty', () => {
    assert.equal(hint({ type: 'array', items: { type: 'string' } }), 'list of text');
    assert.equal(hint({ type: 'array', items: { type: 'integer' } }), 'list of whole numbers');
    assert.equal(hint({ type: 'array', items: { type: 'string', format: 'uri' } }), 'list of URLs');
    assert.equal(hint({ type: 'array', items: { type: 'string' } }, true), 'list of text, may be empty');
    assert.equal(hint({ type: 'array', items: { type: 'string' }, minItems: 1 }, true), 'list of text');
    assert.equal(
      hint({ type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } }, true),
      'list, may be empty'
    );
    assert.equal(hint({ type: 'object', additionalProperties: { type: 'number' } }), 'JSON object');
  });
});

describe('numbers are checked against their bounds in the form', () => {
  const [limit] = fieldsOf({
    type: 'object',
    properties: { limit: { type: 'integer', minimum: 1, maximum: 100 } },
    required: ['limit']
  });
  const read = (text: string) => readTree(limit!, 'arguments', text, 'limit', () => false);

  it('says the bound that is broken, in the hint’s words', () => {
    assert.deepEqual(read('101').problems, { limit: 'Must be 100 or less' });
    assert.deepEqual(read('0').problems, { limit: 'Must be 1 or more' });
    assert.deepEqual(read('100'), { value: 100, problems: {} });
    assert.deepEqual(read('1'), { value: 1, problems: {} });
  });
});

describe('a map of text is a list of names and values', () => {
  const fields = fieldsOf({
    type: 'object',
    properties: {
      env: { type: 'object', additionalProperties: { type: 'string' }, default: { HOME: '/root' } },
      headers: { type: 'object', additionalProperties: { type: 'string' } }
    },
    required: ['headers']
  });
  const env = byName(fields, 'env');
  const headers = byName(fields, 'headers');
  const read = (field: SchemaField, raw: RawValue) => readTree(field, 'arguments', raw, field.name, () => false);

  it('is a list of name and value entries, in arguments forms only', () => {
    assert.equal(env.kind, 'map');
    assert.equal(controlKind(env, 'arguments'), 'map');
    assert.equal(controlKind(env, 'elicitation'), 'unsupported');
    assert.deepEqual(
      env.item?.fields?.map((field) => [field.name, field.label, field.required]),
      [
        ['name', 'Name', true],
        ['value', 'Value', false]
      ]
    );
    assert.deepEqual(initialValues(fields, 'arguments'), { env: [{ name: 'HOME', value: '/root' }], headers: [] });
    assert.deepEqual(newItem(env, 'arguments'), { name: '', value: '' });
    assert.equal(typeHint(headers, 'arguments'), 'may be empty');
    assert.equal(typeHint(env, 'arguments'), undefined);
  });

  it('reads back into an object of strings', () => {
    assert.deepEqual(
      read(env, [
        { name: 'A', value: '1' },
        { name: 'B', value: ' ' }
      ]),
      { value: { A: '1', B: ' ' }, problems: {} }
    );
    assert.deepEqual(read(env, []), { value: undefined, problems: {} }, 'an optional map with no entries is left out');
    assert.deepEqual(read(headers, []), { value: {}, problems: {} }, 'a required one is sent empty');
  });

  it('asks for the value of a named entry rather than send "" unseen, and leaves out an empty entry', () => {
    assert.deepEqual(
      read(env, [
        { name: 'A', value: '1' },
        { name: 'B', value: '' }
      ]).problems,
      { 'env.1.value': 'Enter a value or remove this entry' }
    );
    const empty = { name: '', value: '' };
    assert.deepEqual(read(env, [{ name: 'A', value: '1' }, empty]), { value: { A: '1' }, problems: {} });
    assert.deepEqual(read(env, [empty]), { value: undefined, problems: {} }, 'nothing but empty entries: left out');
    assert.deepEqual(read(headers, [empty, empty]), { value: {}, problems: {} }, 'a required one is sent empty');
  });

  it('asks for each entry’s name, and says where a name is used twice', () => {
    assert.deepEqual(
      read(env, [
        { name: 'A', value: '1' },
        { name: '', value: '2' },
        { name: 'A', value: '3' }
      ]).problems,
      { 'env.1.name': 'Required', 'env.2.name': 'Same name as entry 1' }
    );
  });
});

describe('a message key names the field it belongs to', () => {
  const fields = fieldsOf(editFile);

  it('walks objects by name and lists by index', () => {
    assert.equal(fieldAt(fields, 'options.encoding')?.name, 'encoding');
    assert.equal(fieldAt(fields, 'edits.0.oldText')?.name, 'oldText');
    assert.equal(fieldAt(fields, 'paths.3')?.kind, 'text');
    assert.equal(fieldAt(fields, 'options.nothing'), undefined);
    assert.equal(fieldAt(fields, 'path.x'), undefined);
    assert.equal(fieldAt(fields, 'missing'), undefined);
  });
});
