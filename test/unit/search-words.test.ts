import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { searchFolded, searchWords } from '../../app/contract/search-words.js';

describe('the Desk’s search words', () => {
  it('reads typographic quotes as the keyboard’s, in any case', () => {
    assert.equal(searchFolded('The Model’s “Answer”'), 'the model\'s "answer"');
    assert.equal(searchFolded('‘Quoted’ ′x″'), "'quoted' 'x\"");
  });

  it('splits a search into folded words, none empty', () => {
    assert.deepEqual(searchWords("  Task’s   RESULT\tit's "), ["task's", 'result', "it's"]);
    assert.deepEqual(searchWords(''), []);
    assert.deepEqual(searchWords(undefined), []);
  });
});
