import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AUDIT_MOST_SHOWN, shownWords } from '../../../renderer/audit/shown-words.js';

describe('how much of the audit log is shown, in words', () => {
  it('says all of it is shown when nothing older matches, counted, in the singular for one', () => {
    assert.equal(shownWords(37, false, false), 'Showing all 37 entries.');
    assert.equal(shownWords(1, false, false), 'Showing the only entry.');
  });

  it('counts what the search or a filter matches, and says when nothing is there', () => {
    assert.equal(shownWords(2, false, true), '2 entries match.');
    assert.equal(shownWords(1, false, true), '1 entry matches.');
    assert.equal(shownWords(1234, false, true), '1,234 entries match.');
    assert.equal(shownWords(0, false, true), 'No entry matches.');
    assert.equal(shownWords(0, false, false), 'Nothing recorded yet.');
  });

  it('says older entries are kept when the newest part is shown, with thousands separated', () => {
    assert.equal(shownWords(200, true, false), 'Showing the newest 200 entries; older ones are kept too.');
    assert.equal(shownWords(1200, true, true), 'Showing the newest 1,200 matching entries; older ones are kept too.');
  });

  it('says how to find older entries once the screen shows the most it can', () => {
    assert.equal(
      shownWords(AUDIT_MOST_SHOWN, true, false),
      'Showing the newest 4,800 entries, the most this screen shows: narrow the search or the filters to find older ones.'
    );
    // All of them, when nothing older is left, even at the most.
    assert.equal(shownWords(AUDIT_MOST_SHOWN, false, false), 'Showing all 4,800 entries.');
  });
});
