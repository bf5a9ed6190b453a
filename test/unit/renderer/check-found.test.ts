import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foundStill, type CheckFound } from '../../../renderer/tasks/check-found.js';

/** What is left of `found` after the task showed each of `states` in turn, as a card or a detail keeps it. */
function after(found: CheckFound, states: ReadonlyArray<string | undefined>): CheckFound | undefined {
  return states.reduce<CheckFound | undefined>((left, state) => foundStill(left, state), found);
}

describe('whether what Check now found still holds as the task goes on', () => {
  const working: CheckFound = { at: '2025-06-01T10:00:00.000Z', before: 'working', state: 'working' };

  it('holds while the task stays in the state the check found', () => {
    assert.equal(foundStill(working, 'working'), working);
    assert.equal(after(working, ['working', 'working']), working);
    // A check that found the task changed holds in the state it found.
    const waiting: CheckFound = { ...working, state: 'input_required' };
    assert.equal(after(waiting, ['input_required']), waiting);
  });

  it('is gone once the task moves on, and stays gone when it comes back to that state', () => {
    assert.equal(foundStill(working, 'input_required'), undefined);
    assert.equal(after(working, ['input_required', 'working']), undefined);
    assert.equal(after(working, ['working', 'input_required', 'working', 'working']), undefined);
    assert.equal(after(working, ['completed']), undefined);
    // A task no longer followed (forgotten) has nothing left of a check either.
    assert.equal(after(working, [undefined, 'working']), undefined);
  });

  it('keeps what else the finding carries, such as the task it was pressed on', () => {
    const pressed = { ...working, taskKey: 'requested:abc' };
    assert.equal(foundStill(pressed, 'working')?.taskKey, 'requested:abc');
    assert.equal(foundStill(undefined, 'working'), undefined);
  });
});
