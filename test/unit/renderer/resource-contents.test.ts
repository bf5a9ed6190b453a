import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  base64Bytes,
  byteWords,
  cutText,
  hiddenWords,
  readWords,
  resourceContents,
  TEXT_SHOWN_AT_FIRST
} from '../../../renderer/components/resource-contents.js';

describe('what a resources/read answered, as the Desk shows it', () => {
  it('counts a blob’s bytes as it decodes, padding and line breaks aside', () => {
    for (const bytes of [0, 1, 2, 3, 4, 5, 56, 1000]) {
      const base64 = Buffer.alloc(bytes, 7).toString('base64');
      assert.equal(base64Bytes(base64), bytes, base64);
      assert.equal(base64Bytes(base64.replace(/(.{4})/g, '$1\n')), bytes, 'with line breaks');
    }
  });

  it('says a size in bytes', () => {
    assert.deepEqual([0, 1, 2, 12_345].map(byteWords), ['0 bytes', '1 byte', '2 bytes', '12,345 bytes']);
  });

  it('keeps each item: a text, a blob by its type and size, anything else by its type; the link’s uri where one gives none', () => {
    const blob = Buffer.from('twelve bytes').toString('base64');
    assert.deepEqual(
      resourceContents(
        {
          contents: [
            { uri: 'demo://a', mimeType: 'text/plain', text: 'hello' },
            { uri: 'demo://b', mimeType: 'image/png', blob },
            { mimeType: '', text: '' },
            { uri: 'demo://d', mimeType: 'application/x-thing' },
            'not an item'
          ]
        },
        'demo://link'
      ),
      [
        { kind: 'text', uri: 'demo://a', mimeType: 'text/plain', text: 'hello' },
        { kind: 'blob', uri: 'demo://b', mimeType: 'image/png', bytes: 12 },
        { kind: 'text', uri: 'demo://link', text: '' },
        { kind: 'other', uri: 'demo://d', mimeType: 'application/x-thing' }
      ]
    );
    assert.deepEqual(resourceContents({}, 'demo://link'), []);
  });

  it('shows at most the first 100,000 characters of a text, and counts the rest', () => {
    assert.equal(TEXT_SHOWN_AT_FIRST, 100_000);
    const long = 'a'.repeat(TEXT_SHOWN_AT_FIRST) + 'b'.repeat(62_345);
    const { shown, hidden } = cutText(long);
    assert.equal(shown, 'a'.repeat(TEXT_SHOWN_AT_FIRST));
    assert.equal(hidden, 62_345);
    assert.equal(hiddenWords(hidden), '62,345 more characters not shown.');
    assert.equal(hiddenWords(1), '1 more character not shown.');
    // At the limit, nothing is left out.
    const full = 'c'.repeat(TEXT_SHOWN_AT_FIRST);
    assert.deepEqual(cutText(full), { shown: full, hidden: 0 });
    assert.deepEqual(cutText(''), { shown: '', hidden: 0 });
  });

  it('does not cut an emoji in two', () => {
    // "😀" is two UTF-16 units: a cut after 4 would keep half of it.
    assert.deepEqual(cutText('abc😀de', 4), { shown: 'abc', hidden: 4 });
    assert.deepEqual(cutText('abc😀de', 5), { shown: 'abc😀', hidden: 2 });
  });

  it('says what a read brought: a text by its length, a blob by its type and size', () => {
    assert.equal(
      readWords('Text Resource 2', [{ kind: 'text', uri: 'demo://t', text: 'x'.repeat(1234) }]),
      'Read Text Resource 2: text, 1,234 characters.'
    );
    assert.equal(
      readWords('Blob Resource 1', [{ kind: 'blob', uri: 'demo://b', mimeType: 'text/plain', bytes: 56 }]),
      'Read Blob Resource 1: binary contents, text/plain, 56 bytes.'
    );
    assert.equal(readWords('Empty', []), 'Read Empty: the server sent no contents.');
    assert.equal(
      readWords('Pair', [
        { kind: 'text', uri: 'demo://a', text: 'x' },
        { kind: 'other', uri: 'demo://b' }
      ]),
      'Read Pair: 2 items: text, 1 character; contents with neither text nor a blob, unknown type.'
    );
  });
});
