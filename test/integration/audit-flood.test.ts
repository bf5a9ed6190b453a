import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { CreateTaskResultSchema, GetTaskResultSchema, ListTasksResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { ManualClock } from '../support/manual-clock.js';
import { peerServer, startHostWith, type InMemoryHostFixture, filesUnder } from '../support/host-fixture.js';

const formParams = {
  mode: 'form',
  message: 'Who are you?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } } }
} as const;

describe('the audit log under a hostile server', () => {
  let fixture: InMemoryHostFixture | undefined;
  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  it("keeps another server's history through a flood of huge unknown ids and refused requests", async () => {
    const a = peerServer('a');
    const b = peerServer('b');
    // A clock that does not move: the receiver's rate limit never refills, so every request
    // past its burst is refused, as in a flood faster than the limit.
    fixture = await startHostWith({ a, b }, { clock: new ManualClock() });
    const { host } = fixture;
    const created = await a.server.request(
      { method: 'elicitation/create', params: { ...formParams, task: {} } },
      CreateTaskResultSchema
    );
    const taskId = created.task.taskId;

    const hugeId = (i: number) => `${i}-${'z'.repeat(300 * 1024)}`;
    for (let i = 0; i < 120; i++) {
      await assert.rejects(
        b.server.request({ method: 'tasks/get', params: { taskId: hugeId(i) } }, GetTaskResultSchema)
      );
    }
    let refused = 0;
    for (let round = 0; round < 30; round++) {
      const answers = await Promise.allSettled(
        Array.from({ length: 100 }, () => b.server.request({ method: 'tasks/list', params: {} }, ListTasksResultSchema))
      );
      refused += answers.filter((answer) => answer.status === 'rejected').length;
    }
    assert.ok(refused > 2500, `most of the flood is refused (${refused})`);

    const ofA = await host.call('audit.read', { serverId: 'a', limit: 5000 });
    assert.ok(
      ofA.some((entry) => entry.type === 'task.created' && entry.taskId === taskId),
      "server a's task creation is still in the log"
    );

    const ofB = await host.call('audit.read', { serverId: 'b', limit: 5000 });
    const summaries = ofB.filter((entry) => entry.type === 'audit.summary');
    const summarized = (kind: string) =>
      summaries
        .filter((entry) => entry.detail?.of === kind)
        .reduce((sum, entry) => sum + Number(entry.detail?.count), 0);
    const single = (kind: string) => ofB.filter((entry) => entry.type === kind).length;
    assert.equal(single('task.unknown-id') + summarized('task.unknown-id'), 120, 'every lookup is accounted for');
    assert.ok(summarized('task.unknown-id') >= 100, 'most lookups are in a summary');
    assert.equal(single('task.rate-limited') + summarized('task.rate-limited'), refused);
    assert.ok(
      single('task.rate-limited') <= 20,
      `few refusals are written one by one (${single('task.rate-limited')})`
    );
    for (const entry of ofB.filter((entry) => entry.type === 'task.unknown-id')) {
      // The receiver quotes an unknown id short with its length, before the log's own 1 KiB cut.
      assert.ok(entry.taskId!.length <= 1025, 'ids are cut to 1 KiB');
      assert.ok(
        entry.taskId!.endsWith(`(${hugeId(Number(entry.taskId!.split('-')[0])).length} characters)`),
        'with the length of the id the server sent'
      );
    }

    const bytes = filesUnder(path.join(fixture.dir, 'audit')).reduce((sum, file) => sum + fs.statSync(file).size, 0);
    assert.ok(bytes < 512 * 1024, `the whole flood costs the log little (${bytes} bytes)`);
  });
});
