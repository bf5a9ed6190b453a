import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lastRanRequest } from '../../app/contract/request-changes.js';
import { NOTES_KEPT, relatedTaskOf, withNote } from '../../app/receiver/task-record.js';

type Note = Record<string, unknown>;
const add = (notes: Note[], ...more: Note[]) => more.reduce((kept, note) => withNote(kept, note), notes);

describe("a task's notes (withNote)", () => {
  it('keeps every note up to the bound, in order', () => {
    const notes = add([], ...Array.from({ length: NOTES_KEPT }, (_, n) => ({ retry: n + 1 })));
    assert.deepEqual(
      notes.map((note) => note.retry),
      Array.from({ length: NOTES_KEPT }, (_, n) => n + 1)
    );
  });

  it('past it, keeps the first and last note of each field, so every reader finds what it did', () => {
    let notes: Note[] = [{ relatedTaskId: 'call-1' }];
    for (let n = 1; n <= 500; n++)
      notes = add(
        notes,
        { phase: 'awaiting-approval', lastFailure: { message: `failure ${n}` } },
        { ranRequest: { try: n }, changed: ['messages'] },
        { phase: 'model', providerId: 'p', model: 'm' },
        { retry: 1, waitMs: 100, reason: `busy ${n}` }
      );
    notes = add(notes, { answeredBy: 'user', action: 'reply' });
    assert.equal(notes.length, NOTES_KEPT);
    assert.equal(relatedTaskOf(notes), 'call-1');
    assert.deepEqual(lastRanRequest(notes), { try: 500 });
    // The first failure, and the latest ones.
    const failures = notes.filter((note) => note.lastFailure !== undefined).map((note) => note.lastFailure);
    assert.deepEqual(failures[0], { message: 'failure 1' });
    assert.deepEqual(failures.at(-1), { message: 'failure 500' });
    assert.deepEqual(failures.at(-2), { message: 'failure 499' });
    assert.deepEqual(notes.at(-1), { answeredBy: 'user', action: 'reply' });
    // The last phase, to resume from, and the last provider retry.
    assert.deepEqual(notes.filter((note) => typeof note.phase === 'string').at(-1)?.phase, 'model');
    assert.equal(notes.filter((note) => note.retry !== undefined).at(-1)?.reason, 'busy 500');
  });

  it("tells a runner's phases apart by value: an approval between model runs is not lost", () => {
    let notes: Note[] = [{ phase: 'model', providerId: 'p', model: 'm' }];
    notes = add(notes, { phase: 'awaiting-approval' });
    for (let n = 0; n < 100; n++) notes = add(notes, { phase: 'model', providerId: 'p', model: 'm' });
    assert.ok(notes.length <= NOTES_KEPT);
    assert.ok(notes.some((note) => note.phase === 'awaiting-approval'));
  });

  it('leaves the list it was given as it was', () => {
    const notes: Note[] = Array.from({ length: NOTES_KEPT }, () => ({ retry: 1 }));
    const frozen = structuredClone(notes);
    withNote(notes, { retry: 2 });
    assert.deepEqual(notes, frozen);
  });
});
