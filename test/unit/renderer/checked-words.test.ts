import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkedAgo, checkedWords, standingWords } from '../../../renderer/tasks/checked-words.js';

describe('what Check now says it found', () => {
  it('says the check and where the task stands: "still" when nothing changed, "now" when it did', () => {
    const working = standingWords('working', false);
    assert.equal(working, 'working');
    assert.equal(
      checkedWords({ before: working, after: working, ago: 'just now' }),
      'Checked just now; still working.'
    );
    const waiting = standingWords('input_required', true);
    assert.equal(
      checkedWords({ before: working, after: waiting, ago: 'just now' }),
      'Checked just now; now waiting for you.'
    );
    // Its question in the Inbox while the server still says working: as its badge, waiting for you.
    assert.equal(standingWords('working', true), 'waiting for you');
    // Input the person is not asked for here (none in the Inbox): as its badge says it, not the
    // protocol's "input required".
    assert.equal(
      checkedWords({ before: waiting, after: standingWords('input_required', false), ago: '2 min ago' }),
      'Checked 2 min ago; now waiting for Taskdesk.'
    );
    assert.equal(
      checkedWords({ before: working, after: standingWords('completed', false), ago: 'just now' }),
      'Checked just now; it ended: completed.'
    );
    // For the screen reader, naming the task.
    assert.equal(
      checkedWords({ before: working, after: working, ago: 'just now', what: 'the wait task' }),
      'Checked the wait task just now; still working.'
    );
  });

  it('says how long ago in minutes: "just now" for the first one', () => {
    const at = Date.parse('2026-06-01T00:00:00.000Z');
    assert.deepEqual(
      [0, 59_999, 60_000, 5 * 60_000 + 30_000, 59 * 60_000, 60 * 60_000, 150 * 60_000].map((ms) =>
        checkedAgo(at, at + ms)
      ),
      ['just now', 'just now', '1 min ago', '5 min ago', '59 min ago', '1 h ago', '2 h ago']
    );
    // A clock that stepped back says "just now", never "-1 min ago".
    assert.equal(checkedAgo(at, at - 5_000), 'just now');
  });
});
