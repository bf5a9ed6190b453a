import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { searching, typeahead, TYPEAHEAD_MS, type TypeaheadSearch } from '../../../renderer/assistant/typeahead.js';

const titles = ['Budget', 'Alpha plan', 'beta notes', 'Apples', 'Alpha review', 'Cats'];

/** Types `keys` one after another, `gap` ms apart, from the option at `focused`; answers the indexes moved to. */
function type(keys: string, focused: number, gap = 50, start = 1000): (number | undefined)[] {
  let search: TypeaheadSearch | undefined;
  let at = focused;
  const moves: (number | undefined)[] = [];
  [...keys].forEach((key, i) => {
    const found = typeahead(titles, at, key, start + i * gap, search);
    search = found.search;
    if (found.index !== undefined) at = found.index;
    moves.push(found.index);
  });
  return moves;
}

describe('the conversation list’s typeahead (WAI-ARIA listbox)', () => {
  it('moves to the next title that starts with a typed letter, ignoring case, wrapping past the end', () => {
    assert.deepEqual(type('b', 0), [2], 'the focused one is skipped: from Budget to beta notes');
    assert.deepEqual(type('B', 3), [0], 'wraps to Budget');
    assert.deepEqual(type('c', 0), [5]);
  });

  it('takes letters typed within the interval as one search string', () => {
    assert.deepEqual(type('alpha r', 0), [1, 1, 1, 1, 1, 1, 4]);
    assert.deepEqual(type('ap', 0), [1, 3], 'from Alpha plan, "ap" goes on to Apples');
  });

  it('cycles through the titles starting with one letter typed again and again', () => {
    assert.deepEqual(type('aaaa', 0), [1, 3, 4, 1]);
  });

  it('starts a new search after a pause longer than the interval', () => {
    assert.deepEqual(type('ab', 0, TYPEAHEAD_MS + 1), [1, 2], '"b" alone, not "ab"');
    assert.deepEqual(type('ab', 0, TYPEAHEAD_MS), [1, undefined], 'at the interval still one search');
    const first = typeahead(titles, 0, 'a', 1000, undefined);
    assert.equal(searching(first.search, 1000 + TYPEAHEAD_MS), true);
    assert.equal(searching(first.search, 1000 + TYPEAHEAD_MS + 1), false);
    assert.equal(searching(undefined, 1000), false);
  });

  it('leaves the focus where it is when nothing matches, and keeps the string for the next letter', () => {
    const none = typeahead(titles, 2, 'z', 1000, undefined);
    assert.equal(none.index, undefined);
    assert.deepEqual(none.search, { text: 'z', at: 1000 });
    assert.equal(typeahead([], 0, 'a', 1000, undefined).index, undefined);
    assert.equal(typeahead(['Only'], 0, 'o', 1000, undefined).index, 0, 'the only match is the focused one');
  });
});
