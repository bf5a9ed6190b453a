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
    assert.equal(announcer.current().count, 2);
    assert.equal(announcer.take(), 'Taskdesk withdrew the question. Task cancelled.');
    assert.equal(announcer.take(), '', 'taken once');
    announcer.announce('Task cancelled.');
    assert.equal(announcer.current().count, 3, 'a repeat is a new message');
    assert.equal(announcer.take(), 'Task cancelled.');
  });

  it('says messages of one gathering announced one after another as one sentence, in the place of the first', () => {
    const announcer = new Announcer();
    const counted = (part: number) => ({
      key: 'counted',
      part,
      together: (parts: readonly number[]) => `${parts.length} new: ${parts.join(', ')}.`
    });
    announcer.announce('New 1.', counted(1));
    assert.equal(announcer.current().message, 'New 1.', 'one alone says its own message');
    announcer.announce('New 2.', counted(2));
    announcer.announce('Task cancelled.');
    announcer.announce('New 3.', counted(3));
    announcer.announce('Other.', { key: 'other', part: 0, together: () => 'Others.' });
    assert.equal(announcer.current().count, 5);
    assert.equal(announcer.take(), '2 new: 1, 2. Task cancelled. New 3. Other.');
    assert.equal(announcer.take(), '');
  });
});
