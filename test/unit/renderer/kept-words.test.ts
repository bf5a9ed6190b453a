import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keptCounting, keptLine, keptWords } from '../../../renderer/components/kept-words.js';

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

  it('counts down what is left, rounded up to the unit, and says "only" with a ⚠ from warnAt', () => {
    assert.deepEqual(keptLine('received', expiresAt, at('2030-01-01T10:00:00.500Z')), {
      words: 'Taskdesk keeps the task and its result for 10 min more',
      ended: false,
      warning: false
    });
    assert.equal(
      keptLine('requested', expiresAt, at('2030-01-01T10:00:30.000Z')).words,
      'The server keeps the task and its result for 9 min 30 s more'
    );
    assert.equal(
      keptLine('requested', expiresAt, at('2030-01-01T10:00:30.000Z'), { unitMs: 60_000, midLine: true }).words,
      'the server keeps the task and its result for 10 min more'
    );
    assert.deepEqual(
      keptLine('received', expiresAt, at('2030-01-01T10:09:00.000Z'), { warnAt: '2030-01-01T10:08:00.000Z' }),
      { words: '⚠ Taskdesk keeps the task and its result for only 1 min more', ended: false, warning: true }
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
      words: '⚠ Taskdesk keeps the task and its result for only 10 min more',
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
      '⚠ for only 1 min more'
    );
    assert.equal(keptLine('requested', undefined, now, { compact: true }).words, 'without a time limit');
    assert.deepEqual(keptLine('requested', expiresAt, at(expiresAt), { compact: true }), {
      words: 'until',
      ended: true,
      warning: false
    });
  });
});
