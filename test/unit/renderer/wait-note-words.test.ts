import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WAIT_PATIENT_MS, WAIT_WARN_MS, waitNoteWords } from '../../../renderer/components/wait-note-words.js';

const OFTEN = 'Servers often stop waiting after about a minute (the MCP SDK’s default timeout)';
const LONGER = '; this one has waited longer, so it likely waits on, though it may still give up.';

describe('waitNoteWords: what an ordinary request’s card says of how long its server may wait', () => {
  it('of a server nothing is known of: what servers often do, a warning from 40 s, quiet again from 90 s', () => {
    assert.deepEqual([WAIT_WARN_MS, WAIT_PATIENT_MS], [40_000, 90_000]);
    assert.deepEqual(waitNoteWords(39_999, 'Server a', undefined), { words: `${OFTEN}.`, warning: false });
    assert.deepEqual(waitNoteWords(40_000, 'Server a', undefined), {
      words: `${OFTEN}: this one may give up soon.`,
      warning: true
    });
    assert.deepEqual(waitNoteWords(90_000, 'Server a', undefined), { words: `${OFTEN}${LONGER}`, warning: false });
    // A wait sat through that is no longer than what servers often do tells nothing more.
    assert.deepEqual(waitNoteWords(45_000, 'Server a', { longestMs: 89_000 }), {
      words: `${OFTEN}: this one may give up soon.`,
      warning: true
    });
  });

  it('of a server that has waited 90 s or more before: says how long, quietly, and never warns', () => {
    for (const waited of [0, 45_000, 300_000])
      assert.deepEqual(waitNoteWords(waited, 'Server a', { longestMs: 240_000 }), {
        words: 'Server a has waited up to 4 min for an answer before.',
        warning: false
      });
    assert.deepEqual(waitNoteWords(50_000, 'Server a', { longestMs: 90_000 }), {
      words: 'Server a has waited up to 1 min 30 s for an answer before.',
      warning: false
    });
  });

  it('of a server that gave up before: warns from a little before that wait, whatever it sat through', () => {
    const waits = { gaveUpAfterMs: 150_000, longestMs: 240_000 };
    const said = 'Server b stopped waiting after 2 min 30 s on an earlier request';
    assert.deepEqual(waitNoteWords(45_000, 'Server b', waits), { words: `${said}.`, warning: false });
    assert.deepEqual(waitNoteWords(129_999, 'Server b', waits), { words: `${said}.`, warning: false });
    assert.deepEqual(waitNoteWords(130_000, 'Server b', waits), {
      words: `${said}: this one may give up soon.`,
      warning: true
    });
    // Half a minute past it: this request's timeout is longer.
    assert.deepEqual(waitNoteWords(180_000, 'Server b', waits), { words: `${said}${LONGER}`, warning: false });
  });

  it('of a server that gave up soon: warns from half that wait, at once for one under a second', () => {
    const said = 'Server b stopped waiting after 30 s on an earlier request';
    assert.deepEqual(waitNoteWords(14_999, 'Server b', { gaveUpAfterMs: 30_000 }), {
      words: `${said}.`,
      warning: false
    });
    assert.deepEqual(waitNoteWords(15_000, 'Server b', { gaveUpAfterMs: 30_000 }), {
      words: `${said}: this one may give up soon.`,
      warning: true
    });
    assert.deepEqual(waitNoteWords(0, 'Server b', { gaveUpAfterMs: 0 }), {
      words: 'Server b stopped waiting within a second on an earlier request: this one may give up soon.',
      warning: true
    });
  });
});
