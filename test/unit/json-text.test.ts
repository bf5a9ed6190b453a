import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  jsonBytesAtLeast,
  jsonPart,
  jsonText,
  jsonTextPieces,
  partText,
  textPrefix
} from '../../app/store/json-text.js';
import { paramsBytes } from '../../app/receiver/request-size.js';

const long = (fill: string, length = 40_000) => fill.repeat(Math.ceil(length / fill.length)).slice(0, length);

/** Values a store holds, with long strings of every kind JSON treats apart. */
function samples(): unknown[] {
  const plain = long('m');
  return [
    null,
    true,
    0,
    -0,
    1e21,
    Number.NaN,
    Infinity,
    'short "quoted"',
    plain,
    long('quote " inside'),
    long('back\\slash'),
    long('new\nline\ttab\u0001control'),
    long('é ü 漢字 emoji 🎉 '),
    `${plain}\ud800`,
    // A character to escape only at the very end, or only at the start, of a long string.
    `${plain}\u001f`,
    `${plain}"`,
    `\\${plain}`,
    `\udc00${plain}`,
    { message: plain, requestedSchema: { type: 'object', properties: {} } },
    { a: undefined, b: () => 1, c: Symbol('s'), d: plain, e: [undefined, () => 1, Symbol('t'), plain] },
    [plain, { nested: [plain, { deeper: long('"') }] }, 1, 'x'],
    // eslint-disable-next-line no-sparse-arrays
    [plain, , plain],
    { date: new Date(0), big: plain, withToJSON: { toJSON: () => plain }, gone: { toJSON: () => undefined } },
    { 'key "quoted"': plain, '0': 1, '10': 2, b: 3, '2': plain },
    { map: new Map([[1, 2]]), set: new Set([1]), text: plain },
    Object.assign(Object.create(null) as object, { plain, n: 1 }),
    { small: { a: 1, b: [1, 2, 3] } },
    Array.from({ length: 3000 }, (_, index) => ({ index, text: `item ${index}` }))
  ];
}

describe('jsonText', () => {
  it('makes exactly the text JSON.stringify makes, and counts its UTF-8 bytes', () => {
    for (const [index, value] of samples().entries()) {
      const expected = JSON.stringify(value);
      assert.equal(jsonText(value), expected, `sample ${index}`);
      const part = jsonPart(value);
      assert.equal(part?.bytes, expected === undefined ? undefined : Buffer.byteLength(expected), `sample ${index}`);
    }
  });

  it("gives a large value's text as flat pieces: its long strings as they are, the rest joined", () => {
    for (const [index, value] of samples().entries()) {
      const expected = JSON.stringify(value);
      const part = jsonPart(value);
      const pieces = jsonTextPieces(value);
      assert.equal(pieces?.text, expected, `sample ${index}`);
      for (const made of [part, pieces])
        if (made?.pieces) assert.equal(made.pieces.join(''), expected, `sample ${index}`);
      // The start of the text, read from the pieces: inside the first piece, across pieces, past the end.
      if (part && expected !== undefined)
        for (const chars of [0, 1, 100, 4096, 40_010, 80_100, expected.length + 5])
          assert.equal(textPrefix(part, chars), expected.slice(0, chars), `sample ${index}, ${chars} characters`);
    }
    const message = long('m', 1_000_000);
    const request = { message, requestedSchema: { type: 'object', properties: {} }, task: { ttl: 60_000 } };
    const { pieces } = jsonTextPieces(request)!;
    // The question itself is a piece (nothing copied); the short texts around it are joined.
    assert.deepEqual(pieces, [
      '{"message":"',
      message,
      '","requestedSchema":{"type":"object","properties":{}},"task":{"ttl":60000}}'
    ]);
    // A small value is JSON.stringify's text alone.
    assert.deepEqual(jsonTextPieces({ a: 1 }), { text: '{"a":1}' });
  });

  it('refuses what JSON.stringify refuses', () => {
    const cyclic: Record<string, unknown> = { text: long('m') };
    cyclic.self = cyclic;
    assert.throws(() => jsonText(cyclic), TypeError);
    assert.throws(() => jsonText({ text: long('m'), n: 1n }), TypeError);
    assert.equal(jsonText(undefined), undefined);
  });

  it('gives a lower bound of the bytes, without serializing', () => {
    for (const [index, value] of samples().entries()) {
      const text = JSON.stringify(value);
      const bytes = text === undefined ? 0 : Buffer.byteLength(text);
      assert.ok(jsonBytesAtLeast(value) <= bytes, `sample ${index}: ${jsonBytesAtLeast(value)} > ${bytes}`);
    }
    // Exact for plain text without escapes, so a limit refuses what is over it and nothing else.
    const request = { message: long('m', 1_000_000), requestedSchema: { type: 'object', properties: {} } };
    assert.equal(jsonBytesAtLeast(request), Buffer.byteLength(JSON.stringify(request)));
  });

  it('keeps the text of a shared part and uses it in every value holding it', () => {
    const request = { message: long('m'), requestedSchema: { type: 'object', properties: {} } };
    const kept = partText(request);
    assert.equal(kept.text, JSON.stringify(request));
    assert.equal(partText(request), kept, 'made once');
    const versions = ['working', 'cancelled'].map((status) => ({ task: { status }, request }));
    for (const version of versions) assert.equal(jsonText(version), JSON.stringify(version));
    // A kept part is used as it was kept: parts that versions share are never changed.
    const part = { note: long('n') };
    partText(part);
    part.note = 'changed';
    assert.equal(jsonText({ part }), `{"part":${JSON.stringify({ note: long('n') })}}`);
  });
});

describe('paramsBytes', () => {
  it('is the byte length of the params JSON, from the request text and the rest', () => {
    const message = long('é', 50_000);
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ message, requestedSchema: {}, task: { ttl: 1000 } }, ['task', '_meta']],
      [{ message, task: { ttl: 1000 }, _meta: { progressToken: 'p' } }, ['task', '_meta']],
      [{ message }, ['task', '_meta']],
      [{ task: { ttl: 1 } }, ['task']],
      [{ message, task: undefined }, ['task']],
      [{}, ['_meta']]
    ];
    for (const [params, split] of cases) {
      const request = Object.fromEntries(Object.entries(params).filter(([key]) => !split.includes(key)));
      assert.equal(paramsBytes(params, request), Buffer.byteLength(JSON.stringify(params)));
    }
  });
});
