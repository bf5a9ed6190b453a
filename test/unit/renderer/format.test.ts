import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatShortDate } from '../../../renderer/components/format.js';

describe('dates in few words, for a list', () => {
  const now = new Date(2026, 11, 3, 19, 45);
  const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
  it('says a time today, a day this year, and a day and year before', () => {
    const today = new Date(2026, 11, 3, 7, 31);
    assert.equal(formatShortDate(today, now), time.format(today));
    const thisYear = new Date(2026, 0, 5, 23, 59);
    assert.equal(
      formatShortDate(thisYear, now),
      new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' }).format(thisYear)
    );
    assert.doesNotMatch(formatShortDate(thisYear, now), /2026/);
    const lastYear = new Date(2025, 11, 3, 19, 45);
    assert.match(formatShortDate(lastYear, now), /2025/);
  });
});
