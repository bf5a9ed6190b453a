import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServerView } from '../../../app/contract/host-api.js';
import { formatDateTime } from '../../../renderer/components/format.js';
import {
  keptCounting,
  keptHold,
  keptInFull,
  keptLine,
  keptNoLonger,
  keptWords,
  minutesThenSeconds,
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
    assert.equal(keptLine('received', 'soon', now, { compact: true }).words, 'Kept for a time not known');
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

  it('says what is kept first, and leaves out who keeps it, for a column headed "Kept"', () => {
    const now = at('2030-01-01T10:00:30.000Z');
    assert.equal(keptLine('received', expiresAt, now, { compact: true }).words, 'Kept for 9 min 30 s more');
    assert.equal(
      keptLine('received', expiresAt, at('2030-01-01T10:09:00.000Z'), {
        compact: true,
        warnAt: '2030-01-01T10:08:00.000Z'
      }).words,
      'Kept for only 1 min more'
    );
    assert.equal(keptLine('requested', undefined, now, { compact: true }).words, 'Kept without a time limit');
    // The date follows: in the past tense, it cannot be read as a time still to come.
    assert.deepEqual(keptLine('requested', expiresAt, at(expiresAt), { compact: true }), {
      words: 'Was kept until',
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
    assert.equal(keptLine('requested', expiresAt, now, { gone: true, compact: true }).words, 'No longer kept');
    assert.equal(keptLine('requested', undefined, now, { gone: true, compact: true }).words, 'No longer kept');
    // Past its end, it says until when it was kept (the date follows), as for any task.
    assert.deepEqual(keptLine('requested', expiresAt, at('2030-01-01T10:11:00.000Z'), { gone: true, compact: true }), {
      words: 'Was kept until',
      ended: true,
      warning: false
    });
  });

  it('says the same in a row (in minutes) as in the detail when both count in minutes', () => {
    // 4 min 32 s left: a row and its detail both count in whole minutes, rounded down.
    const now = at('2030-01-01T10:05:28.000Z');
    const row = keptLine('requested', expiresAt, now, { unitMs: 60_000, compact: true }).words;
    const detail = keptLine('requested', expiresAt, now, { unitMs: 60_000, compact: true, by: true }).words;
    assert.equal(row, 'Kept for 4 min more');
    assert.equal(detail, 'Kept by the server for 4 min more');
  });

  it('never says more is left than is: in minutes no more than in seconds, and under one unit "less than" it', () => {
    // 4 min 30 s left, as a line in whole minutes (Tools) and one in seconds (the Inbox) count it.
    const now = at('2030-01-01T10:05:30.000Z');
    assert.equal(keptLine('received', expiresAt, now, { unitMs: 60_000, compact: true }).words, 'Kept for 4 min more');
    assert.equal(keptLine('received', expiresAt, now, { compact: true }).words, 'Kept for 4 min 30 s more');
    // A part of a second is not counted as a whole one.
    assert.equal(
      keptLine('received', expiresAt, at('2030-01-01T10:05:29.400Z'), { compact: true }).words,
      'Kept for 4 min 30 s more'
    );
    // Under one unit: never "0 s" (which would read as gone), nor "1 min" when less is left.
    const late = at('2030-01-01T10:09:20.000Z');
    assert.equal(
      keptLine('received', expiresAt, late, { unitMs: 60_000, compact: true }).words,
      'Kept for less than 1 min more'
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
      'No longer kept'
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
      'Result kept by Taskdesk'
    );
    assert.equal(
      keptLine('requested', expiresAt, now, { anew: 'none', midLine: true }).words,
      'the server was started again since, and may no longer keep the task'
    );
  });

  it('says what Taskdesk kept of a task that ended on a server since removed, not the server’s countdown', () => {
    const created = '2030-01-01T10:00:00.000Z';
    const result = { type: 'result' as const, result: {}, fetchedAt: created };
    // Removed: the Desk's list of servers no longer has it, whatever its transport was.
    assert.deepEqual(keptHold('completed', { createdAt: created, state: 'completed', outcome: result }, undefined), {
      gone: false,
      lost: false,
      anew: 'result',
      removed: true
    });
    assert.deepEqual(keptHold('cancelled', { createdAt: created, state: 'cancelled' }, undefined), {
      gone: false,
      lost: false,
      anew: 'none',
      removed: true
    });
    // A lost task says so already; a received task (no requested one given) is Taskdesk's own.
    assert.deepEqual(keptHold('lost', { createdAt: created, state: 'lost' }, undefined), { gone: true, lost: true });
    assert.deepEqual(keptHold('completed'), { gone: false, lost: false });
    const now = at('2030-01-01T10:05:00.000Z');
    assert.deepEqual(keptLine('requested', expiresAt, now, { anew: 'result', removed: true }), {
      words: 'Taskdesk keeps its result; the server was removed',
      ended: true,
      warning: false,
      gone: true
    });
    assert.equal(
      keptLine('requested', expiresAt, now, { anew: 'none', removed: true, midLine: true }).words,
      'the server was removed; Taskdesk no longer asks it for the task'
    );
  });
});

describe('the Tasks screen’s words: a row says how long, its detail the same words with who keeps it', () => {
  type Options = NonNullable<Parameters<typeof keptLine>[3]>;
  const running = at('2030-01-01T10:00:30.000Z');
  const late = at('2030-01-01T10:09:00.000Z');
  const past = at('2030-01-01T10:11:00.000Z');
  const date = formatDateTime(new Date(expiresAt));
  /**
   * Every case, once for each keeper: the row's words (`compact`), the detail's (`by` too) and
   * the row's tooltip (`keptInFull`: the detail's with its date), for a requested task; a
   * received one's say "Taskdesk" where these say "the server". Each counted as the Tasks screen
   * counts every row and detail ({@link minutesThenSeconds}).
   */
  const cases: Array<{
    what: string;
    expiresAt: string | undefined;
    now: number;
    options?: Omit<Options, 'compact' | 'by'>;
    row: string;
    detail: string;
    full: string;
  }> = [
    {
      what: 'time left, in whole minutes',
      expiresAt,
      now: running,
      row: 'Kept for 9 min more',
      detail: 'Kept by the server for 9 min more',
      full: `Kept by the server for 9 min more, until ${date}`
    },
    {
      what: 'its last minute, in seconds',
      expiresAt,
      now: at('2030-01-01T10:09:33.000Z'),
      row: 'Kept for 27 s more',
      detail: 'Kept by the server for 27 s more',
      full: `Kept by the server for 27 s more, until ${date}`
    },
    {
      what: 'its last stretch, from warnAt',
      expiresAt,
      now: late,
      options: { warnAt: '2030-01-01T10:08:00.000Z' },
      row: 'Kept for only 1 min more',
      detail: 'Kept by the server for only 1 min more',
      full: `Kept by the server for only 1 min more, until ${date}`
    },
    {
      what: 'its last stretch, as the host warned',
      expiresAt,
      now: running,
      options: { warned: true },
      row: 'Kept for only 9 min more',
      detail: 'Kept by the server for only 9 min more',
      full: `Kept by the server for only 9 min more, until ${date}`
    },
    {
      what: 'less than one unit left',
      expiresAt,
      now: at('2030-01-01T10:09:59.400Z'),
      row: 'Kept for less than 1 s more',
      detail: 'Kept by the server for less than 1 s more',
      full: `Kept by the server for less than 1 s more, until ${date}`
    },
    {
      what: 'no time limit',
      expiresAt: undefined,
      now: running,
      row: 'Kept without a time limit',
      detail: 'Kept by the server without a time limit',
      full: 'Kept by the server without a time limit'
    },
    {
      what: 'an end that is no date',
      expiresAt: 'soon',
      now: running,
      row: 'Kept for a time not known',
      detail: 'Kept by the server for a time not known',
      full: 'Kept by the server for a time not known'
    },
    {
      what: 'its time passed (the date follows the words)',
      expiresAt,
      now: past,
      row: 'Was kept until',
      detail: 'Was kept by the server until',
      full: `Was kept by the server until ${date}`
    },
    {
      what: 'its time passed, expired',
      expiresAt,
      now: past,
      options: { gone: true },
      row: 'Was kept until',
      detail: 'Was kept by the server until',
      full: `Was kept by the server until ${date}`
    },
    {
      what: 'expired before its time passed',
      expiresAt,
      now: running,
      options: { gone: true },
      row: 'No longer kept',
      detail: 'No longer kept by the server',
      full: 'No longer kept by the server'
    },
    {
      what: 'lost, even once its time has passed',
      expiresAt,
      now: past,
      options: { gone: true, lost: true },
      row: 'No longer kept',
      detail: 'No longer kept by the server',
      full: 'No longer kept by the server'
    },
    {
      what: 'lost, without a time limit',
      expiresAt: undefined,
      now: running,
      options: { gone: true, lost: true },
      row: 'No longer kept',
      detail: 'No longer kept by the server',
      full: 'No longer kept by the server'
    },
    {
      what: 'ended on a server started again since, its result fetched',
      expiresAt,
      now: running,
      options: { anew: 'result' },
      row: 'Result kept by Taskdesk',
      detail: 'Result kept by Taskdesk; the server was started again since',
      full: 'Result kept by Taskdesk; the server was started again since'
    },
    {
      what: 'ended on a server started again since, without a result',
      expiresAt,
      now: running,
      options: { anew: 'none' },
      row: 'May no longer be kept',
      detail: 'May no longer be kept by the server, which was started again since',
      full: 'May no longer be kept by the server, which was started again since'
    },
    {
      what: 'ended on a server removed since, its result fetched',
      expiresAt,
      now: running,
      options: { anew: 'result', removed: true },
      row: 'Result kept by Taskdesk',
      detail: 'Result kept by Taskdesk; the server was removed',
      full: 'Result kept by Taskdesk; the server was removed'
    },
    {
      what: 'ended on a server removed since, without a result, as a lost task says it',
      expiresAt,
      now: running,
      options: { anew: 'none', removed: true },
      row: 'No longer kept',
      detail: 'No longer kept: the server was removed, and Taskdesk no longer asks it for the task',
      full: 'No longer kept: the server was removed, and Taskdesk no longer asks it for the task'
    }
  ];

  /** A case's options, counted as the Tasks screen counts. */
  const tasks = (options: Options = {}): Options => ({ unitMs: minutesThenSeconds, ...options });

  for (const c of cases)
    it(`says ${c.what}: “${c.row}”`, () => {
      const row = keptLine('requested', c.expiresAt, c.now, { ...tasks(c.options), compact: true });
      const detail = keptLine('requested', c.expiresAt, c.now, { ...tasks(c.options), compact: true, by: true });
      assert.equal(row.words, c.row);
      assert.equal(detail.words, c.detail);
      assert.equal(keptInFull('requested', c.expiresAt, c.now, tasks(c.options)), c.full);
      // The row and its detail agree on all but the words about who keeps it.
      assert.deepEqual({ ...detail, words: row.words }, row);
      // The same words: the detail's are the row's with who keeps it (and, for a server started
      // again or removed, why) put in.
      const words = (text: string) => text.split(/[ ;,:]+/);
      const rest = words(c.row);
      for (const word of words(c.detail)) if (word === rest[0]) rest.shift();
      assert.deepEqual(rest, [], `the row’s words, in order, in “${c.detail}”`);
    });

  it('says Taskdesk keeps a task it received, in the same words', () => {
    for (const c of cases.filter((each) => each.options?.anew === undefined)) {
      assert.equal(keptLine('received', c.expiresAt, c.now, { ...tasks(c.options), compact: true }).words, c.row);
      assert.equal(
        keptLine('received', c.expiresAt, c.now, { ...tasks(c.options), compact: true, by: true }).words,
        c.detail.replace('by the server', 'by Taskdesk')
      );
      assert.equal(
        keptInFull('received', c.expiresAt, c.now, tasks(c.options)),
        c.full.replace('by the server', 'by Taskdesk')
      );
    }
  });

  it('starts every one with what is kept, and never the words other screens use', () => {
    for (const c of cases) {
      assert.match(c.row, /^(Kept|Was kept|No longer kept|Result kept|May no longer be kept)\b/);
      assert.doesNotMatch(`${c.row} ${c.detail} ${c.full}`, /keeps|the task and its result|^for |^without /);
    }
  });

  it('counts every row in one unit, running or ended, and seconds only in the last minute, its detail alike', () => {
    // One with most of its hour left, two of ten minutes (running, whose host warns from its last
    // stretch, and ended): whole minutes, whatever else differs; and one nearly up, in seconds.
    const start = at('2030-01-01T10:00:00.000Z');
    const row = (end: number, now: number, options: Options = {}) =>
      keptLine('received', new Date(end).toISOString(), now, { ...tasks(options), compact: true }).words;
    const now = start + 33_000;
    assert.deepEqual(
      [
        row(start + 3_600_000, now),
        row(start + 600_000, now, { warnAt: '2030-01-01T10:08:00.000Z' }),
        row(start + 600_000, now),
        row(start + 90_000, now)
      ],
      ['Kept for 59 min more', 'Kept for 9 min more', 'Kept for 9 min more', 'Kept for 57 s more']
    );
    // In its last minute, in seconds, whether it runs (warned: "only") or ended.
    const late = start + 600_000 - 42_000;
    assert.equal(row(start + 600_000, late, { warnAt: '2030-01-01T10:08:00.000Z' }), 'Kept for only 42 s more');
    assert.equal(row(start + 600_000, late), 'Kept for 42 s more');
    assert.equal(row(start + 600_000, start + 540_000), 'Kept for 1 min more', 'a whole minute left is still "1 min"');
    // Its detail says the same, with who keeps it.
    assert.equal(
      keptLine('received', new Date(start + 3_600_000).toISOString(), now, { ...tasks(), compact: true, by: true })
        .words,
      'Kept by Taskdesk for 59 min more'
    );
    assert.deepEqual([59_999, 60_000, 60_001, 3_599_999].map(minutesThenSeconds), [1_000, 60_000, 60_000, 60_000]);
  });

  it('leaves the sentence other screens use as it was', () => {
    assert.equal(
      keptLine('requested', expiresAt, running, { midLine: true }).words,
      'the server keeps the task and its result for 9 min 30 s more'
    );
    assert.equal(keptLine('received', expiresAt, past).words, 'Taskdesk kept the task and its result until');
  });
});
