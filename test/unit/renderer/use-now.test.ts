import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keptLine, minutesThenSeconds } from '../../../renderer/components/kept-words.js';
import { nextTurnIn } from '../../../renderer/components/use-now.js';

const MINUTE = 60_000;
const end = Date.parse('2026-12-06T15:00:00.000Z');
const expiresAt = new Date(end).toISOString();
const words = (at: number) => keptLine('requested', expiresAt, at, { unitMs: MINUTE, compact: true }).words;

describe('the next turn of a countdown in whole units', () => {
  it('comes the millisecond its words change, from any moment of a unit', () => {
    for (const left of [3 * MINUTE + 30_000, 3 * MINUTE + 1, 3 * MINUTE, 2 * MINUTE + 59_999, MINUTE + 7]) {
      const at = end - left;
      const turn = nextTurnIn(end, MINUTE, at);
      assert.ok(turn > 0, `${left}: ${turn}`);
      assert.equal(words(at + turn - 1), words(at), `${left}: the same words until then`);
      assert.notEqual(words(at + turn), words(at), `${left}: other words at ${turn} ms`);
    }
  });

  it('is a millisecond away on the boundary itself, where a timer due then may run, not a whole unit', () => {
    // Three whole minutes left still reads "3 min"; a millisecond later it reads "2 min".
    assert.equal(words(end - 3 * MINUTE), 'Kept for 3 min more');
    assert.equal(nextTurnIn(end, MINUTE, end - 3 * MINUTE), 1);
    assert.equal(words(end - 3 * MINUTE + 1), 'Kept for 2 min more');
  });

  it('comes when the words change in a countdown in minutes that says seconds in its last minute', () => {
    const tasks = (at: number) =>
      keptLine('requested', expiresAt, at, { unitMs: minutesThenSeconds, compact: true }).words;
    // From 2 min 30 s left, the minute turns; from 1 min 30 s, the last minute begins in seconds.
    assert.equal(nextTurnIn(end, minutesThenSeconds, end - 2 * MINUTE - 30_000), 30_001);
    assert.equal(nextTurnIn(end, minutesThenSeconds, end - MINUTE - 30_000), 30_001);
    assert.equal(tasks(end - MINUTE), 'Kept for 1 min more');
    assert.equal(nextTurnIn(end, minutesThenSeconds, end - MINUTE), 1);
    assert.equal(tasks(end - MINUTE + 1), 'Kept for 59 s more');
    // From there, every second.
    assert.equal(nextTurnIn(end, minutesThenSeconds, end - MINUTE + 1), 1_000);
    assert.equal(tasks(end - MINUTE + 1_001), 'Kept for 58 s more');
  });

  it('comes at the warning when that is sooner', () => {
    assert.equal(nextTurnIn(end, MINUTE, end - 3 * MINUTE - 30_000, end - 3 * MINUTE - 10_000), 20_000);
    assert.equal(nextTurnIn(end, MINUTE, end - 3 * MINUTE - 30_000, end - 4 * MINUTE), 30_001);
  });
});
