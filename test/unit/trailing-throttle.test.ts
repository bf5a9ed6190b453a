import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TrailingThrottle } from '../../app/core/trailing-throttle.js';
import { ManualClock } from '../support/manual-clock.js';

describe('a throttle that always runs once more after what it held back', () => {
  it('runs at once, then at most once an interval, the last poke always followed', async () => {
    const clock = new ManualClock();
    const runs: number[] = [];
    const throttle = new TrailingThrottle(clock, 100, () => runs.push(clock.now()));
    const start = clock.now();
    throttle.poke();
    throttle.poke();
    throttle.poke();
    assert.deepEqual(runs, [start], 'the first at once, the next two held back');
    await clock.advance(50);
    throttle.poke();
    assert.equal(runs.length, 1, 'within the interval still');
    await clock.advance(50);
    assert.deepEqual(runs, [start, start + 100], 'what was held back runs once when the interval is over');
    await clock.advance(500);
    assert.equal(runs.length, 2, 'nothing held back: nothing more');
    throttle.poke();
    assert.equal(runs.at(-1), start + 600, 'after a quiet spell, at once again');
  });

  it('drops a run still due when cancelled', async () => {
    const clock = new ManualClock();
    let runs = 0;
    const throttle = new TrailingThrottle(clock, 100, () => runs++);
    throttle.poke();
    throttle.poke();
    throttle.cancel();
    await clock.advance(1_000);
    assert.equal(runs, 1);
  });
});
