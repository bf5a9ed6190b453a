import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { trailingJson } from '../../../renderer/components/trailing-json.js';

describe('a tool result text that ends in JSON', () => {
  it('splits prose from the JSON object or array it ends in, as the server wrote it', () => {
    const json = JSON.stringify({ action: 'decline', content: { n: [1, 2] } }, null, 2);
    assert.deepEqual(trailingJson(`\nRaw result: ${json}`), { prose: '\nRaw result: ', json });
    assert.deepEqual(trailingJson(`LLM sampling result: \n${json}\n`), { prose: 'LLM sampling result: \n', json });
    assert.deepEqual(trailingJson('[1, 2]'), { prose: '', json: '[1, 2]' });
  });

  it('leaves alone a text whose braces are not a JSON object or array to its end', () => {
    assert.equal(trailingJson('Use {name} in the template, then [save].'), undefined);
    assert.equal(trailingJson('{"a": 1} and then more words'), undefined);
    assert.equal(trailingJson('Just prose.'), undefined);
    assert.equal(trailingJson(`${'x'.repeat(200_001)}{}`), undefined, 'too long to look through');
  });
});
