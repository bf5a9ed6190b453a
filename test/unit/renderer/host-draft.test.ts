import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import type { InboxDraftValues } from '../../../app/contract/host-api.js';
import { readSchemaForm } from '../../../app/contract/schema-fields.js';
import { DRAFT_SEND_DELAY_MS, DraftSender } from '../../../renderer/inbox/draft-sender.js';
import { restoredFormValues, restoredReply } from '../../../renderer/inbox/restored-draft.js';

/** Lets the host's answers to the sends made so far come back (promises, not timers). */
const answered = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('a card’s draft, sent to the host once typing rests', () => {
  let sent: Array<InboxDraftValues | null>;
  let sender: DraftSender;
  /** What the host says to the next send: kept, not kept, or the call fails (the connection dropped). */
  let answer: 'kept' | 'refused' | 'dropped';
  const send = (values: InboxDraftValues | null) => {
    sent.push(values);
    if (answer === 'dropped') return Promise.reject(new Error('The connection to Taskdesk was lost.'));
    return Promise.resolve(answer === 'kept');
  };
  beforeEach(() => {
    mock.timers.enable({ apis: ['setTimeout'] });
    sent = [];
    answer = 'kept';
    sender = new DraftSender(send, null);
  });
  afterEach(() => mock.timers.reset());

  it('sends the latest values once, after the delay, not on every keystroke', () => {
    sender.change({ name: 'A' });
    mock.timers.tick(DRAFT_SEND_DELAY_MS - 1);
    sender.change({ name: 'Ad' });
    mock.timers.tick(DRAFT_SEND_DELAY_MS - 1);
    sender.change({ name: 'Ada' });
    assert.deepEqual(sent, []);
    mock.timers.tick(DRAFT_SEND_DELAY_MS);
    assert.deepEqual(sent, [{ name: 'Ada' }]);
    mock.timers.tick(DRAFT_SEND_DELAY_MS * 10);
    assert.deepEqual(sent, [{ name: 'Ada' }]);
  });

  it('sends nothing when the values come back to what the host holds', () => {
    sender.change({ name: 'A' });
    sender.change(null);
    mock.timers.tick(DRAFT_SEND_DELAY_MS);
    assert.deepEqual(sent, []);
    const started = new DraftSender(send, { name: 'Ada' });
    started.change({ name: 'Ada' });
    mock.timers.tick(DRAFT_SEND_DELAY_MS);
    assert.deepEqual(sent, []);
    // Emptied: the host forgets it.
    started.change(null);
    mock.timers.tick(DRAFT_SEND_DELAY_MS);
    assert.deepEqual(sent, [null]);
  });

  it('flushes what waits at once, and only once', () => {
    sender.change({ name: 'Ada' });
    sender.flush();
    assert.deepEqual(sent, [{ name: 'Ada' }]);
    mock.timers.tick(DRAFT_SEND_DELAY_MS);
    sender.flush();
    assert.deepEqual(sent, [{ name: 'Ada' }]);
  });

  for (const failure of ['dropped', 'refused'] as const)
    it(`sends a draft again that the host did not keep (${failure}), with the next flush or change only`, async () => {
      answer = failure;
      sender.change({ name: 'Ada' });
      mock.timers.tick(DRAFT_SEND_DELAY_MS);
      await answered();
      assert.deepEqual(sent, [{ name: 'Ada' }]);
      // No loop: nothing goes again by itself.
      mock.timers.tick(DRAFT_SEND_DELAY_MS * 10);
      await answered();
      assert.deepEqual(sent, [{ name: 'Ada' }]);
      // The window loses focus: the same text goes again, and this time the host keeps it.
      answer = 'kept';
      sender.flush();
      await answered();
      assert.deepEqual(sent, [{ name: 'Ada' }, { name: 'Ada' }]);
      sender.flush();
      sender.change({ name: 'Ada' });
      mock.timers.tick(DRAFT_SEND_DELAY_MS);
      await answered();
      assert.deepEqual(sent, [{ name: 'Ada' }, { name: 'Ada' }], 'kept: not sent a third time');

      // Not kept again; then typed back to the same text: it goes with the change.
      answer = failure;
      sender.change({ name: 'Ada L' });
      mock.timers.tick(DRAFT_SEND_DELAY_MS);
      await answered();
      answer = 'kept';
      sender.change({ name: 'Ada' });
      sender.change({ name: 'Ada L' });
      mock.timers.tick(DRAFT_SEND_DELAY_MS);
      await answered();
      assert.deepEqual(sent.slice(2), [{ name: 'Ada L' }, { name: 'Ada L' }]);
    });

  it('does not send again one a later send stands for, when its own answer comes late and failed', async () => {
    let fail: (() => void) | undefined;
    const slow = new DraftSender((values) => {
      sent.push(values);
      return sent.length === 1
        ? new Promise<boolean>((_, reject) => (fail = () => reject(new Error('lost'))))
        : Promise.resolve(true);
    }, null);
    slow.change({ name: 'A' });
    slow.flush();
    slow.change({ name: 'Ada' });
    slow.flush();
    await answered();
    fail!();
    await answered();
    slow.flush();
    assert.deepEqual(sent, [{ name: 'A' }, { name: 'Ada' }]);
  });
});

describe('a form started from a kept draft', () => {
  const { fields } = readSchemaForm({
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name' },
      size: { type: 'string', enum: ['s', 'l'] },
      urgent: { type: 'boolean', default: false },
      extras: { type: 'array', items: { type: 'string', enum: ['tea', 'cake'] } },
      note: { type: 'string', default: 'none' }
    },
    required: ['urgent']
  });

  it('takes the draft over what the form starts with', () => {
    assert.deepEqual(restoredFormValues(fields, { name: 'Ada', size: 'l', urgent: true, extras: ['1'] }), {
      name: 'Ada',
      size: 'l',
      urgent: true,
      extras: ['1'],
      note: 'none'
    });
    assert.equal(restoredFormValues(fields, undefined), undefined);
  });

  it('drops a draft that no longer fits the form, whole', () => {
    for (const stale of [
      { gone: 'x' },
      { name: 3 },
      { size: 'm' },
      { urgent: 'yes' },
      { extras: ['2'] },
      { extras: ['0', '0'] },
      { name: 'Ada', extras: 'tea' }
    ])
      assert.equal(restoredFormValues(fields, stale), undefined, JSON.stringify(stale));
  });

  it('takes a reply draft only when it is one', () => {
    assert.deepEqual(restoredReply({ reply: 'Hi', model: 'human' }), { reply: 'Hi', model: 'human' });
    assert.equal(restoredReply({ reply: 'Hi' }), undefined);
    assert.equal(restoredReply({ reply: 'Hi', model: 'human', name: 'x' }), undefined);
    assert.equal(restoredReply({ name: 'Ada' }), undefined);
  });
});
