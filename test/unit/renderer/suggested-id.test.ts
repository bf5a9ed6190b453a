import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { suggestedId } from '../../../renderer/components/suggested-id.js';

describe('the id an Add form suggests from a name', () => {
  it('keeps letters and digits, lower case and without accents, the rest as single dashes', () => {
    const none = new Set<string>();
    assert.equal(suggestedId('My Files (work)', none), 'my-files-work');
    assert.equal(suggestedId('Café Notes — Work', none), 'cafe-notes-work');
    assert.equal(suggestedId('  GitHub  ', none), 'github');
    assert.equal(suggestedId('日本語', none), '', 'no such letter: the person types the id');
  });

  it('numbers an id in use, and stays short enough to leave a tool name room in 64 characters', () => {
    assert.equal(suggestedId('GitHub', new Set(['github', 'github-2'])), 'github-3');
    const long = suggestedId('A very long server name that goes on and on past any sensible length', new Set());
    assert.ok(long.length <= 32, long);
    assert.match(long, /^[a-z0-9]+(-[a-z0-9]+)*$/);
  });
});
