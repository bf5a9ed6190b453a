import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DETAIL_CUT_MIN_HIDDEN, DETAIL_VALUE_CHARS, detailCut } from '../../../renderer/audit/detail-cut.js';

/** A value of `length` characters: words of five letters and a space, as a message is. */
const words = (length: number) => 'abcde '.repeat(Math.ceil(length / 6)).slice(0, length);

describe('an audit detail value is cut only when that hides enough to be worth a button', () => {
  it('shows a value a little past the limit whole, not with a button for a few characters', () => {
    // A newcomer saw "Cannot POST… Show all (4 more characters)".
    assert.equal(detailCut(words(DETAIL_VALUE_CHARS + 4)), undefined);
    assert.equal(detailCut('x'.repeat(DETAIL_VALUE_CHARS + DETAIL_CUT_MIN_HIDDEN - 1)), undefined);
    assert.equal(detailCut('short'), undefined);
  });

  it('cuts a long value at a space shortly before the limit, and says how much it hides', () => {
    const value = words(500);
    const cut = detailCut(value);
    assert.ok(cut);
    assert.ok(value.startsWith(cut.shown));
    assert.match(cut.shown, /abcde$/, 'ends with a whole word');
    assert.ok(cut.shown.length <= DETAIL_VALUE_CHARS && cut.shown.length > DETAIL_VALUE_CHARS - 30, cut.shown);
    assert.equal(cut.hidden, value.length - cut.shown.length);
    assert.ok(cut.hidden >= DETAIL_CUT_MIN_HIDDEN);
  });

  it('cuts compact JSON, with no space to end at, at the limit', () => {
    const value = JSON.stringify({ list: Array.from({ length: 100 }, (_, index) => index) });
    const cut = detailCut(value);
    assert.deepEqual(cut, { shown: value.slice(0, DETAIL_VALUE_CHARS), hidden: value.length - DETAIL_VALUE_CHARS });
  });

  it('does not split a character outside the BMP in two', () => {
    const value = `${'x'.repeat(DETAIL_VALUE_CHARS - 1)}${'😀'.repeat(40)}`;
    const cut = detailCut(value);
    assert.ok(cut);
    assert.equal(cut.shown, 'x'.repeat(DETAIL_VALUE_CHARS - 1));
  });
});
