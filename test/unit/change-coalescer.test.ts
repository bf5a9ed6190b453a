import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChangeCoalescer } from '../../app/core/coalesce.js';
import { ManualClock } from '../support/manual-clock.js';

describe('ChangeCoalescer', () => {
  it('tells the first change at once, the changes within the interval once at its end, and nothing after close', async () => {
    const clock = new ManualClock();
    let told = 0;
    const changes = new ChangeCoalescer(clock, 500, () => told++);
    changes.changed();
    assert.equal(told, 1, 'the first at once');
    changes.changed();
    changes.changed();
    await clock.advance(499);
    assert.equal(told, 1, 'within the interval: not yet');
    await clock.advance(1);
    assert.equal(told, 2, 'the changes of the interval, once, at its end');
    await clock.advance(500);
    assert.equal(told, 2, 'nothing changed since: nothing told');
    changes.changed();
    assert.equal(told, 3, 'a change after a quiet interval: at once');
    changes.changed();
    changes.close();
    await clock.advance(1_000);
    changes.changed();
    assert.equal(told, 3, 'closed: the pending change and later ones are not told');
  });
});
