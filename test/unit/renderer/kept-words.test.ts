import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServerView } from '../../../app/contract/host-api.js';
import {
  keptCounting,
  keptHold,
  keptLine,
  keptNoLonger,
  keptWords,
  startedAnewSince
} from '../../../renderer/components/kept-words.js';

const at = (iso: string) => Date.parse(iso);
const expiresAt = '2030-01-01T10:10:00.000Z';

describe('how long a task is kept, in words', () => {
  it('keeps a clock only while there is time left: not without a time limit, nor once the time has passed', () => {
    assert.equal(keptCounting(expiresAt, at('2030-01-01T10:09:59.000Z')), true);
    assert.equal(keptCounting(expiresAt, at('2030-01-01T10:10:00.000Z')), false);
    assert.equal(keptCounting(expiresAt, at('2030-01-01T11:00:00.000Z')), false);
    assert.equal(keptCounting(undefined, at('2030-01-01T10:00:00.000Z')), false);
  });

  it('says who keeps it by direction: Taskdesk a task it received, the server one Taskdesk requested', () => {
    assert.equal(keptWords('received'), 'Taskdesk keeps the task and its result');
    assert.equal(keptWords('requested'), 'The server keeps the task and its result');
    assert.equal(keptWords('requested', { midLine: true }), 'the server keeps the task and its result');
    assert.equal(keptWords('received', { midLine: true }), 'Taskdesk keeps the task and its result');
    assert.equal(keptWords('requested', { past: true }), 'The server kept the task and its result');
  });

  it('counts down what is left, rounded down to the unit, and says "only" from warnAt, with no ⚠ in the words', () => {
    assert.deepEqual(keptLine('received', expiresAt, at('2030-01-01T10:00:00.500Z')), {
      words: 'Taskdesk keeps the task and its result for 9 min 59 s more',
      ended: false,
      warning: false
    });
    assert.equal(
      keptLine('requested', expiresAt, at('2030-01-01T10:00:30.000Z')).words,
      'The server keeps the task and its result for 9 min 30 s more'
    );
    assert.equal(
      keptLine('requested', expiresAt, at('2030-01-01T10:00:30.000Z'), { unitMs: 60_000, midLine: true }).words,
      'the server keeps the task and its result for 9 min more'
    );
    assert.deepEqual(
      keptLine('received', expiresAt, at('2030-01-01T10:09:00.000Z'), { warnAt: '2030-01-01T10:08:00.000Z' }),
      { words: 'Taskdesk keeps the task and its result for only 1 min more', ended: false, warning: true }
    );
  });

  it('says when there is no limit, and once the time has passed, that it was kept until then', () => {
    assert.deepEqual(keptLine('received', undefined, at('2030-01-01T10:00:00.000Z')), {
      words: 'Taskdesk keeps the task and its result without a time limit',
      ended: false,
      warning: false
    });
    assert.deepEqual(keptLine('requested', expiresAt, at(expiresAt)), {
      words: 'The server kept the task and its result until',
      ended: true,
      warning: false
    });
  });

  it('says a limit that is no date is not known (not none), and warns when the host said the time is nearly up', () => {
    const now = at('2030-01-01T10:00:00.000Z');
    assert.deepEqual(keptLine('received', 'soon', now), {
      words: 'Taskdesk keeps the task and its result for a time not known',
      ended: false,
      warning: false
    });
    assert.equal(keptLine('received', 'soon', now, { compact: true }).words, 'for a time not known');
    assert.deepEqual(keptLine('received', expiresAt, now, { warned: true }), {
      words: 'Taskdesk keeps the task and its result for only 10 min more',
      ended: false,
      warning: true
    });
    // Once the time has passed it no longer warns: it says until when it was kept.
    assert.deepEqual(keptLine('received', expiresAt, at('2030-01-01T10:10:01.000Z'), { warned: true }), {
      words: 'Taskdesk kept the task and its result until',
      ended: true,
      warning: false
    });
  });

  it('leaves out who keeps it for a column headed "Kept"', () => {
    const now = at('2030-01-01T10:00:30.000Z');
    assert.equal(keptLine('received', expiresAt, now, { compact: true }).words, 'for 9 min 30 s more');
    assert.equal(
      keptLine('received', expiresAt, at('2030-01-01T10:09:00.000Z'), {
        compact: true,
        warnAt: '2030-01-01T10:08:00.000Z'
      }).words,
      'for only 1 min more'
    );
    assert.equal(keptLine('requested', undefined, now, { compact: true }).words, 'without a time limit');
    // The date follows: in the past tense, it cannot be read as a time still to come.
    assert.deepEqual(keptLine('requested', expiresAt, at(expiresAt), { compact: true }), {
      words: 'was kept until',
      ended: true,
      warning: false
    });
  });

  it('says a task lost or expired is no longer kept, with no countdown, whatever time its TTL had left', () => {
    assert.deepEqual(['working', 'completed', 'failed', 'cancelled', 'lost', 'expired'].filter(keptNoLonger), [
      'lost',
      'expired'
    ]);
    const now = at('2030-01-01T10:05:28.000Z');
    assert.equal(keptCounting(expiresAt, now, true), false, 'no clock for it');
    assert.deepEqual(keptLine('requested', expiresAt, now, { gone: true }), {
      words: 'The server no longer keeps the task and its result',
      ended: true,
      warning: false,
      gone: true
    });
    assert.equal(
      keptLine('requested', expiresAt, now, { gone: true, midLine: true }).words,
      'the server no longer keeps the task and its result'
    );
    assert.equal(keptLine('requested', expiresAt, now, { gone: true, compact: true }).words, 'no longer kept');
    assert.equal(keptLine('requested', undefined, now, { gone: true, compact: true }).words, 'no longer kept');
    // Past its end, it says until when it was kept (the date follows), as for any task.
    assert.deepEqual(keptLine('requested', expiresAt, at('2030-01-01T10:11:00.000Z'), { gone: true, compact: true }), {
      words: 'was kept until',
      ended: true,
      warning: false
    });
  });

  it('says the same in a row (in minutes) as in the detail when both count in minutes', () => {
    // 4 min 32 s left: a row and a detail of a finished task both count in whole minutes, rounded down.
    const now = at('2030-01-01T10:05:28.000Z');
    const row = keptLine('requested', expiresAt, now, { unitMs: 60_000, compact: true }).words;
    const detail = keptLine('requested', expiresAt, now, { unitMs: 60_000 }).words;
    assert.equal(row, 'for 4 min more');
    assert.equal(detail, 'The server keeps the task and its result for 4 min more');
  });

  it('never says more is left than is: in minutes no more than in seconds, and under one unit "less than" it', () => {
    // 4 min 30 s left, as a finished task's row (minutes) and a running one's (seconds) count it.
    const now = at('2030-01-01T10:05:30.000Z');
    assert.equal(keptLine('received', expiresAt, now, { unitMs: 60_000, compact: true }).words, 'for 4 min more');
    assert.equal(keptLine('received', expiresAt, now, { compact: true }).words, 'for 4 min 30 s more');
    // A part of a second is not counted as a whole one.
    assert.equal(
      keptLine('received', expiresAt, at('2030-01-01T10:05:29.400Z'), { compact: true }).words,
      'for 4 min 30 s more'
    );
    // Under one unit: never "0 s" (which would read as gone), nor "1 min" when less is left.
    const late = at('2030-01-01T10:09:20.000Z');
    assert.equal(
      keptLine('received', expiresAt, late, { unitMs: 60_000, compact: true }).words,
      'for less than 1 min more'
    );
    assert.deepEqual(
      keptLine('requested', expiresAt, at('2030-01-01T10:09:59.500Z'), { warnAt: '2030-01-01T10:08:00.000Z' }),
      { words: 'The server keeps the task and its result for less than 1 s more', ended: false, warning: true }
    );
  });

  it('says a lost task is no longer kept even once its time has passed: its server did not keep it until then', () => {
    const later = at('2030-01-01T10:11:00.000Z');
    assert.deepEqual(keptLine('requested', expiresAt, later, { gone: true, lost: true }), {
      words: 'The server no longer keeps the task and its result',
      ended: true,
      warning: false,
      gone: true
    });
    assert.equal(
      keptLine('requested', expiresAt, later, { gone: true, lost: true, compact: true }).words,
      'no longer kept'
    );
    assert.deepEqual(keptHold('lost'), { gone: true, lost: true });
    assert.deepEqual(keptHold('expired'), { gone: true, lost: false });
  });

  it('says what Taskdesk kept of a task that ended on a stdio server started again since, with no countdown', () => {
    const created = '2030-01-01T10:00:00.000Z';
    const stdio = (state: ServerView['state']) => ({ transport: { type: 'stdio' as const, target: 'x' }, state });
    const before = stdio({ status: 'ready', readySince: '2030-01-01T09:00:00.000Z' });
    const since = stdio({ status: 'ready', readySince: '2030-01-01T10:02:00.000Z' });
    const http = { transport: { type: 'http' as const, target: 'x' }, state: since.state };
    const completed = { createdAt: created, state: 'completed' as const };
    assert.equal(startedAnewSince(completed, before), false, 'the process that ran it');
    assert.equal(startedAnewSince(completed, since), true);
    assert.equal(startedAnewSince(completed, stdio({ status: 'connecting' })), true, 'no process now');
    assert.equal(startedAnewSince(completed, http), false, 'an HTTP server runs on its own');
    assert.equal(startedAnewSince({ createdAt: created, state: 'working' }, since), false, 'followed, lost if so');
    const result = { type: 'result' as const, result: {}, fetchedAt: created };
    assert.deepEqual(keptHold('completed', { ...completed, outcome: result }, since), {
      gone: false,
      lost: false,
      anew: 'result'
    });
    assert.equal(keptHold('cancelled', { createdAt: created, state: 'cancelled' }, since).anew, 'none');
    const noResult = {
      type: 'error' as const,
      error: { code: -32603, message: 'no result stored' },
      fetchedAt: created
    };
    assert.equal(
      keptHold('cancelled', { createdAt: created, state: 'cancelled', outcome: noResult }, since).anew,
      'none'
    );
    const now = at('2030-01-01T10:05:00.000Z');
    assert.equal(keptCounting(expiresAt, now, true), false);
    assert.deepEqual(keptLine('requested', expiresAt, now, { anew: 'result' }), {
      words: 'Taskdesk keeps its result; the server was started again since',
      ended: true,
      warning: false,
      gone: true
    });
    assert.equal(
      keptLine('requested', expiresAt, now, { anew: 'result', compact: true }).words,
      'Taskdesk keeps its result'
    );
    assert.equal(
      keptLine('requested', expiresAt, now, { anew: 'none', midLine: true }).words,
      'the server was started again since, and may no longer keep the task'
    );
  });
});
