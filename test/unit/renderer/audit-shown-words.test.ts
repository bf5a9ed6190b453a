import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AUDIT_MOST_SHOWN, shownWords } from '../../../renderer/audit/shown-words.js';

describe('how much of the audit log is shown, in words', () => {
  it('says all of it is shown when nothing older matches, counted, in the singular for one', () => {
    assert.equal(shownWords(37, false, false), 'Showing all 37 entries.');
    assert.equal(shownWords(1, false, false), 'Showing the only entry.');
    assert.equal(shownWords(2, false, true), 'Showing all 2 matching entries.');
    assert.equal(shownWords(1, false, true), 'Showing the only matching entry.');
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
