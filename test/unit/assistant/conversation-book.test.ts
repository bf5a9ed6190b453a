import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Conversation } from '../../../app/contract/assistant.js';
import { ConversationBook } from '../../../app/assistant/conversation-book.js';
import type { ConversationStore } from '../../../app/assistant/conversation-store.js';
import { ManualClock } from '../../support/manual-clock.js';

/** A store that records what it was asked to save, with the conversation's messages as they were then. */
function recordingStore() {
  const saves: Array<{ id: string; urgent: boolean; messages: number }> = [];
  const store = {
    loadAll: () => ({ conversations: [], quarantined: [] }),
    save: (c: Conversation, urgent: boolean) => {
      saves.push({ id: c.id, urgent, messages: c.messages.length });
      return Promise.resolve();
    },
    remove: () => Promise.resolve(),
    close: () => undefined
  };
  return { saves, store: store as unknown as ConversationStore };
}

function conversation(id: string): Conversation {
  const at = new Date(0).toISOString();
  return {
    id,
    title: 'A conversation',
    providerId: 'local',
    model: 'm',
    serverIds: [],
    maxToolRounds: 10,
    imageInput: true,
    createdAt: at,
    updatedAt: at,
    status: 'idle',
    messages: []
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const message = (text: string) => ({ id: text, at: new Date(0).toISOString(), role: 'user' as const, text });

describe('ConversationBook', () => {
  it('announces and saves the changes of a turn once, at its end; what is acknowledged is saved at once', async () => {
    const { saves, store } = recordingStore();
    const told: string[] = [];
    const book = new ConversationBook({
      store,
      clock: new ManualClock(),
      changed: (id) => told.push(id),
      onStoreError: () => undefined
    });
    const c = conversation('c-1');
    book.add(c);
    for (const text of ['one', 'two', 'three']) {
      book.push(c, message(text));
      book.commit(c);
    }
    assert.deepEqual(saves, [], 'not within the turn');
    await turn();
    assert.deepEqual(told, ['c-1'], 'announced once, at the end of the turn');
    assert.deepEqual(saves, [{ id: 'c-1', urgent: false, messages: 3 }], 'saved once, lazily, as it is then');

    // A change someone is told of is saved at once, urgently, with what was committed before it.
    book.push(c, message('four'));
    book.commit(c);
    book.push(c, message('five'));
    await book.durable(c);
    assert.deepEqual(saves.at(-1), { id: 'c-1', urgent: true, messages: 5 });
    await turn();
    assert.equal(saves.length, 2, 'no second save of what the durable one held');

    // A conversation deleted within the turn is not saved; close saves what waits.
    const d = conversation('c-2');
    book.add(d);
    book.commit(c);
    book.commit(d);
    await book.remove('c-2');
    book.close();
    assert.deepEqual(saves.slice(2), [{ id: 'c-1', urgent: false, messages: 5 }]);
    assert.deepEqual(told.slice(-2), ['c-2', 'c-1'], 'the deletion told, then the change that waited');
  });

  it('writes nothing after close: a change made as Taskdesk closes (a call its closing broke off) is not saved by the turn that was pending', async () => {
    const { saves, store } = recordingStore();
    const book = new ConversationBook({
      store,
      clock: new ManualClock(),
      changed: () => undefined,
      onStoreError: () => undefined
    });
    const c = conversation('c-1');
    book.add(c);
    book.push(c, message('asked'));
    book.commit(c);
    book.close();
    assert.deepEqual(saves, [{ id: 'c-1', urgent: false, messages: 1 }], 'close writes what was pending');
    book.push(c, message('broken off by the closing'));
    book.commit(c);
    await turn();
    assert.deepEqual(saves, [{ id: 'c-1', urgent: false, messages: 1 }]);
  });

  it('stamps each change later than the last, in the same millisecond and on a clock set back, so that a copy that crossed a newer one reads as older', async () => {
    const { store } = recordingStore();
    const manual = new ManualClock(Date.parse('2026-01-01T00:00:00.000Z'));
    let setBack = 0;
    const clock = {
      now: () => manual.now() - setBack,
      setTimeout: manual.setTimeout.bind(manual),
      clearTimeout: manual.clearTimeout.bind(manual)
    };
    const told: string[] = [];
    const book = new ConversationBook({
      store,
      clock,
      changed: (_id, c) => told.push(c!.updatedAt),
      onStoreError: () => undefined
    });
    const c = { ...conversation('c-1'), updatedAt: '2026-01-01T00:00:00.000Z' };
    book.add(c);
    book.push(c, message('sent'));
    await book.durable(c);
    const sent = c.updatedAt;
    book.push(c, message('answered'));
    book.commit(c);
    await turn();
    assert.ok(told[1]! > sent, `${told[1]} is after ${sent}: the answer is the newer state`);
    setBack = 86_400_000;
    book.commit(c);
    assert.ok(c.updatedAt > told[1]!, 'a clock set back does not make a change read as older');
    book.close();
  });
});
