import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { CreateTaskResultSchema, GetTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { ManualClock } from '../support/manual-clock.js';
import { nextEvent, peerServer, startHostWith, type InMemoryHostFixture } from '../support/host-fixture.js';

const form = {
  mode: 'form',
  message: 'Your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } } }
};

describe('a question in the Inbox tells the truth about time and about who is waiting', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('says "Waiting for your answer in the Inbox" to the server, and keeps when it was asked and when it expires across a restart', async () => {
    const clock = new ManualClock();
    const peer = peerServer();
    let fixture: InMemoryHostFixture = await startHostWith({ a: peer }, { clock });
    const dir = fixture.dir;
    cleanups.push(() => fixture.dispose());

    const added = nextEvent(fixture.host, 'inbox.added');
    const waiting = nextEvent(
      fixture.host,
      'task.changed',
      ({ task }) => task?.task.statusMessage === 'Waiting for your answer in the Inbox'
    );
    const { task } = await peer.server.request(
      { method: 'elicitation/create', params: { ...form, task: { ttl: 3_600_000 } } },
      CreateTaskResultSchema
    );
    const { item } = await added;
    assert.equal(item.createdAt, task.createdAt, 'the item shows when the server asked');
    assert.equal(item.expiresAt, new Date(Date.parse(task.createdAt) + 3_600_000).toISOString());
    await waiting;
    // The status message is committed lazily (nobody waits on it); commit it now to ask for it.
    fixture.host.receiver.flush();
    const status = await peer.server.request(
      { method: 'tasks/get', params: { taskId: task.taskId } },
      GetTaskResultSchema
    );
    assert.equal(status.statusMessage, 'Waiting for your answer in the Inbox');

    await clock.advance(600_000);
    await fixture.stop();
    const later = peerServer();
    fixture = await startHostWith({ a: later }, { clock, dir });
    const items = await fixture.host.dispatch('inbox.list', {});
    assert.ok(items.ok);
    const resumed = items.result.find((candidate) => candidate.taskId === task.taskId);
    assert.ok(resumed, 'the question is back in the Inbox');
    assert.equal(resumed.createdAt, task.createdAt, 'not the time of the restart');
    assert.equal(resumed.expiresAt, item.expiresAt);
  });

  it('says a question its server gave up on timed out when its cancellation says so (the SDK’s own timeout), and not otherwise', async () => {
    const peer = peerServer();
    const fixture = await startHostWith({ a: peer });
    cleanups.push(() => fixture.dispose());

    const asked = {
      mode: 'form' as const,
      message: 'Your name?',
      requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } } }
    };
    // The SDK's timeout, on the server's side: it sends notifications/cancelled, "MCP error -32001: Request timed out".
    const added = nextEvent(fixture.host, 'inbox.added');
    const timedOut = peer.server.elicitInput(asked, { timeout: 50 }).catch((error: unknown) => error);
    const { item } = await added;
    const removed = nextEvent(fixture.host, 'inbox.removed', ({ id }) => id === item.id);
    assert.match(String(await timedOut), /-32001/);
    assert.deepEqual(await removed, { id: item.id, why: 'withdrawn', timedOut: true });

    // Cancelled for another reason: withdrawn, no more said.
    const controller = new AbortController();
    const again = nextEvent(fixture.host, 'inbox.added');
    const cancelled = peer.server.elicitInput(asked, { signal: controller.signal }).catch((error: unknown) => error);
    const { item: second } = await again;
    const withdrawn = nextEvent(fixture.host, 'inbox.removed', ({ id }) => id === second.id);
    controller.abort('changed its mind');
    await cancelled;
    assert.deepEqual(await withdrawn, { id: second.id, why: 'withdrawn' });
  });

  it('warns once, five minutes before expiry or in the last fifth of a short TTL, and not for an answered item', async () => {
    const clock = new ManualClock();
    const peer = peerServer();
    const fixture = await startHostWith({ a: peer }, { clock });
    cleanups.push(() => fixture.dispose());
    const warnings: string[] = [];
    fixture.host.on('inbox.expiring', ({ item }) => warnings.push(item.id));

    const addedShort = nextEvent(fixture.host, 'inbox.added');
    const short = await peer.server.request(
      { method: 'elicitation/create', params: { ...form, task: { ttl: 60_000 } } },
      CreateTaskResultSchema
    );
    const { item: shortItem } = await addedShort;
    assert.equal(shortItem.warnAt, new Date(Date.parse(short.task.createdAt) + 48_000).toISOString());
    const addedLong = nextEvent(fixture.host, 'inbox.added');
    const long = await peer.server.request(
      { method: 'elicitation/create', params: { ...form, task: { ttl: 3_600_000 } } },
      CreateTaskResultSchema
    );
    const { item: longItem } = await addedLong;
    assert.equal(longItem.warnAt, new Date(Date.parse(long.task.createdAt) + 3_300_000).toISOString());
    const addedAnswered = nextEvent(fixture.host, 'inbox.added');
    await peer.server.request(
      { method: 'elicitation/create', params: { ...form, task: { ttl: 60_000 } } },
      CreateTaskResultSchema
    );
    const { item: answered } = await addedAnswered;
    await fixture.host.dispatch('inbox.answer', { id: answered.id, answer: { action: 'decline' } });

    await clock.advance(47_999);
    assert.deepEqual(warnings, []);
    await clock.advance(1);
    assert.deepEqual(warnings, [shortItem.id]);
    await clock.advance(3_300_000 - 48_000);
    assert.deepEqual(warnings, [shortItem.id, longItem.id], 'once each, and none for the answered item');
  });
});
