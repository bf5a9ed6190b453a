import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { derivedOf, derivedOfBoth } from '../../../renderer/store/derived.js';

describe('a value derived from the Desk’s state, once for each state', () => {
  it('derives once for every selector that reads the same object, and anew for the object that replaces it', () => {
    let built = 0;
    const size = derivedOf((tasks: Record<string, number>) => {
      built += 1;
      return new Map(Object.entries(tasks));
    });
    const tasks = { a: 1 };
    // Two cards reading one state.
    const first = size(tasks);
    assert.equal(size(tasks), first);
    assert.equal(built, 1);
    // The reducer replaced it: derived from the new one, the old one's value kept for it.
    const next = size({ ...tasks, b: 2 });
    assert.deepEqual([...next.keys()], ['a', 'b']);
    assert.equal(built, 2);
    assert.equal(size(tasks), first);
    assert.equal(built, 2);
  });

  it('keeps a value that is undefined, and derives it no more', () => {
    let built = 0;
    const nothing = derivedOf((_tasks: object) => {
      built += 1;
      return undefined;
    });
    const tasks = {};
    assert.equal(nothing(tasks), undefined);
    assert.equal(nothing(tasks), undefined);
    assert.equal(built, 1);
  });

  it('derives once for each pair of objects, anew when either is replaced', () => {
    const built: Array<[object, object]> = [];
    const both = derivedOfBoth((calls: object, tasks: object) => {
      built.push([calls, tasks]);
      return { calls, tasks };
    });
    const calls = {};
    const tasks = {};
    const first = both(calls, tasks);
    assert.equal(both(calls, tasks), first);
    assert.equal(built.length, 1);
    const otherTasks = {};
    const otherCalls = {};
    assert.deepEqual(both(calls, otherTasks), { calls, tasks: otherTasks });
    assert.deepEqual(both(otherCalls, tasks), { calls: otherCalls, tasks });
    assert.equal(built.length, 3);
    assert.equal(both(calls, tasks), first);
    assert.equal(both(calls, otherTasks), both(calls, otherTasks));
    assert.equal(built.length, 3);
  });
});
