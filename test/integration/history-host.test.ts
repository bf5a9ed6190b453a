import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { HistoryEntrySchema } from '../../app/contract/history.js';
import { ManualClock } from '../support/manual-clock.js';
import { nextEvent, peerServer, startHostWith, type InMemoryHostFixture } from '../support/host-fixture.js';

const form = (message: string) => ({
  mode: 'form',
  message,
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }
});

describe('the task history through the host API', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('keeps answered and expired questions after their TTL and a restart, searchable, filterable and exportable', async () => {
    const clock = new ManualClock();
    const peer = peerServer();
    let fixture: InMemoryHostFixture = await startHostWith({ a: peer }, { clock });
    const dir = fixture.dir;
    cleanups.push(() => fixture.dispose());
    const { host } = fixture;

    // One question answered, one left to expire.
    const firstAdded = nextEvent(host, 'inbox.added');
    const answered = await peer.server.request(
      { method: 'elicitation/create', params: { ...form('Your name for the booking?'), task: { ttl: 10_000 } } },
      CreateTaskResultSchema
    );
    const { item } = await firstAdded;
    // Asked a moment later: the list is newest first.
    await clock.advance(1);
    const secondAdded = nextEvent(host, 'inbox.added');
    const unanswered = await peer.server.request(
      { method: 'elicitation/create', params: { ...form('Approve the refund?'), task: { ttl: 10_000 } } },
      CreateTaskResultSchema
    );
    await secondAdded;
    const completed = nextEvent(host, 'history.changed', ({ entry }) => entry.status === 'completed');
    assert.deepEqual(
      await host.dispatch('inbox.answer', { id: item.id, answer: { action: 'accept', content: { name: 'Ada' } } }),
      { ok: true, result: { ok: true } }
    );
    await completed;

    const expired = nextEvent(host, 'history.changed', ({ entry }) => entry.status === 'expired');
    await clock.advance(10_000);
    const notice = await expired;
    assert.equal(notice.entry.taskId, unanswered.task.taskId);
    assert.equal(notice.entry.unanswered, true, 'the UI is told the question went unanswered');

    // The protocol forgot both tasks; the person's history did not.
    const tasks = await host.dispatch('tasks.list', {});
    assert.ok(tasks.ok && tasks.result.every((task) => task.task.taskId !== answered.task.taskId));
    await fixture.stop();
    fixture = await startHostWith({ a: peerServer() }, { clock, dir });
    const restarted = fixture.host;

    const all = await restarted.dispatch('history.list', {});
    assert.ok(all.ok);
    assert.deepEqual(
      all.result.entries.map((entry) => [entry.title, entry.status, entry.unanswered ?? false]),
      [
        ['Approve the refund?', 'expired', true],
        ['Your name for the booking?', 'completed', false]
      ]
    );
    const search = await restarted.dispatch('history.list', { filter: { text: 'booking' } });
    assert.ok(search.ok);
    assert.deepEqual(
      search.result.entries.map((entry) => entry.taskId),
      [answered.task.taskId]
    );
    const byStatus = await restarted.dispatch('history.list', { filter: { status: 'expired', serverId: 'a' } });
    assert.ok(byStatus.ok && byStatus.result.total === 1);

    const detail = await restarted.dispatch('history.get', { id: `received:${answered.task.taskId}` });
    assert.ok(detail.ok);
    assert.deepEqual(detail.result.result, { action: 'accept', content: { name: 'Ada' } });
    // Every status message the server was told is a step: the one of a new task, then the Inbox's.
    assert.deepEqual(
      detail.result.timeline.map((step) => [step.status, step.message]),
      [
        ['working', 'Taskdesk is working on the request.'],
        ['working', 'Waiting for your answer in the Inbox'],
        ['completed', undefined]
      ]
    );

    const exported = await restarted.dispatch('history.export', { filter: { kind: 'elicitation' } });
    assert.ok(exported.ok);
    assert.equal(exported.result.count, 2);
    const lines = exported.result.jsonl.trimEnd().split('\n');
    assert.deepEqual(
      lines.map((line) => HistoryEntrySchema.parse(JSON.parse(line)).title),
      ['Approve the refund?', 'Your name for the booking?']
    );

    const badCursor = await restarted.dispatch('history.list', { cursor: 'nope' });
    assert.deepEqual(badCursor.ok ? undefined : badCursor.error.code, -32602);
    const missing = await restarted.dispatch('history.get', { id: 'received:nope' });
    assert.equal(missing.ok ? undefined : missing.error.code, -32602);

    const retention = await restarted.dispatch('history.setRetention', { days: 1, maxEntries: 100 });
    assert.deepEqual(retention, { ok: true, result: { days: 1, maxEntries: 100 } });
    await clock.advance(2 * 24 * 3_600_000);
    const afterRetention = await restarted.dispatch('history.list', {});
    assert.ok(afterRetention.ok && afterRetention.result.total === 0, 'entries past the retention are removed');
  });
});
