import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hintParts, hintText } from '../../../renderer/forms/hint-parts.js';

describe('a tool argument’s hint says its description, its type and its default once each, in order', () => {
  it('puts the type in brackets after the description, a space apart, and the default after it', () => {
    // A newcomer read "Duration of the operation in secondsnumber (number) Default: 10".
    assert.equal(
      hintText({ description: 'Duration of the operation in seconds', type: 'number', byDefault: 'Default: 10' }),
      'Duration of the operation in seconds (number) Default: 10'
    );
    assert.equal(
      hintText({ description: 'The URL the user should open', type: 'URL' }),
      'The URL the user should open (URL)'
    );
    assert.equal(hintText({ type: 'whole number, 1 to 100' }), '(whole number, 1 to 100)');
    assert.equal(hintText({ description: 'Message to echo' }), 'Message to echo');
    assert.equal(hintText({}), '');
  });

  it('reads a line of its own after what comes before, a space apart', () => {
    assert.equal(
      hintText({ type: 'list of text', condition: 'Required if you fill in options.', byDefault: 'Default: 5' }),
      '(list of text) Required if you fill in options. Default: 5'
    );
    assert.equal(
      hintText({ description: 'How many tokens at most.', byDefault: 'Default: 100' }),
      'How many tokens at most. Default: 100'
    );
    assert.equal(hintText({ byDefault: 'Default: 10' }), 'Default: 10');
  });

  it('says which pieces stand on lines of their own, where the space before them is not seen', () => {
    assert.deepEqual(
      hintParts({ description: 'Steps', type: 'number', byDefault: 'Default: 5' }).map(({ kind, joiner, line }) => [
        kind,
        joiner,
        line
      ]),
      [
        ['description', '', false],
        ['type', ' ', false],
        ['default', ' ', true]
      ]
    );
  });
});
