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
});
