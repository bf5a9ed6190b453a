import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Announcer } from '../../../renderer/shell/announcer.js';

describe('what the page says to screen readers', () => {
  it('says every message announced before the live region takes them, in order, and each once', () => {
    const announcer = new Announcer();
    let told = 0;
    announcer.subscribe(() => told++);
    announcer.announce('Taskdesk withdrew the question.');
    announcer.announce('Task cancelled.');
    assert.equal(told, 2);
    assert.equal(announcer.count(), 2);
    assert.equal(announcer.take(), 'Taskdesk withdrew the question. Task cancelled.');
    assert.equal(announcer.take(), '', 'taken once');
    announcer.announce('Task cancelled.');
    assert.equal(announcer.count(), 3, 'a repeat is a new message');
    assert.equal(announcer.take(), 'Task cancelled.');
  });

  it('says all messages of one gathering announced before the region takes them as one sentence, in the place of the last', () => {
    const announcer = new Announcer();
    const counted = (part: number) => ({
      key: 'counted',
      part,
      together: (parts: readonly number[]) => `${parts.length} new: ${parts.join(', ')}.`
    });
    announcer.announce('New 1.', counted(1));
    announcer.announce('Other.', { key: 'other', part: 0, together: () => 'Others.' });
    assert.equal(announcer.take(), 'New 1. Other.', 'one alone says its own message');
    announcer.announce('Echo is connected.');
    announcer.announce('New 1.', counted(1));
    announcer.announce('New 2.', counted(2));
    // Another message between them (a server that connects and asks at once) does not split them.
    announcer.announce('Task cancelled.');
    announcer.announce('New 3.', counted(3));
    announcer.announce('Other.', { key: 'other', part: 0, together: () => 'Others.' });
    announcer.announce('Task cancelled.');
    announcer.announce('New 4.', counted(4));
    assert.equal(announcer.count(), 10);
    assert.equal(announcer.take(), 'Echo is connected. Task cancelled. Other. Task cancelled. 4 new: 1, 2, 3, 4.');
    assert.equal(announcer.take(), '');
  });

  it('says what was said before the last of a gathering first: an approval before its answer’s arrival', () => {
    const announcer = new Announcer();
    const arrival = (part: string) => ({
      key: 'inbox-arrival',
      part,
      together: (parts: readonly string[]) => `New in the inbox: ${parts.join(' and ')}.`
    });
    // Another server's question came earlier in the frame; then the approval, then its answer to review.
    announcer.announce('New in the inbox: a question from Echo.', arrival('a question from Echo'));
    announcer.announce('Approved; m answered: review its answer.');
    announcer.announce(
      'New in the inbox: a model answer to review from Server p.',
      arrival('a model answer to review')
    );
    assert.equal(
      announcer.take(),
      'Approved; m answered: review its answer. New in the inbox: a question from Echo and a model answer to review.'
    );
  });

  it('counts a burst of messages without building their text, which is built once when the region takes them', () => {
    const announcer = new Announcer();
    let built = 0;
    const counted = (part: number) => ({
      key: 'counted',
      part,
      together: (parts: readonly number[]) => {
        built += 1;
        return `${parts.length} new.`;
      }
    });
    // As the live region does: the count read again on every announce.
    const counts: number[] = [];
    announcer.subscribe(() => counts.push(announcer.count()));
    for (let part = 1; part <= 2000; part += 1) {
      announcer.announce(`New ${part}.`, counted(part));
      if (part % 500 === 0) announcer.announce('Task cancelled.');
    }
    assert.equal(counts.length, 2004);
    assert.equal(counts.at(-1), 2004);
    assert.equal(built, 0, 'nothing built to count');
    assert.equal(announcer.take(), 'Task cancelled. Task cancelled. Task cancelled. 2000 new. Task cancelled.');
    assert.equal(built, 1);
  });
});
