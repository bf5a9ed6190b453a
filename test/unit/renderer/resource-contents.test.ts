import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { base64Bytes, byteWords, resourceContents } from '../../../renderer/components/resource-contents.js';

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
});
