import assert from 'node:assert/strict';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { notificationClient } from '../../support/notification-client.js';
import type { OutboundTaskView } from '../../../app/contract/outbound-tasks.js';
import type { CallOrigin, PlainCallView } from '../../../app/contract/plain-calls.js';
import { TaskHistory } from '../../../app/history/task-history.js';
import type { ModernPeer } from '../../../app/requestor/modern-task-follower.js';
import type { OutboundTaskDocument } from '../../../app/requestor/outbound-task-store.js';
import { OutboundTasks, type EndedCall } from '../../../app/requestor/outbound-tasks.js';
import { confStoreFactory } from '../../../app/store/json-file-store.js';
import { SegmentLog } from '../../../app/store/segment-log.js';
import { tempDir } from '../../support/host-fixture.js';
import { ManualClock } from '../../support/manual-clock.js';
import { connectInMemory, tempTaskDir } from '../../support/requestor-harness.js';
import { createPlainToolServer, createTaskToolServer } from '../../support/task-tool-server.js';

// In a describe of its own: npm test runs the integration files in one process, where a
// file's top-level hooks would run around every file's tests.
describe('where a tool call came from', () => {
  /**
   * Where a tool call came from (`CallToolOptions.origin`): kept on the running call, on the task it
   * becomes (and on disk with it, across a restart), and in History; absent for the person's calls.
   */

  const ORIGIN: CallOrigin = { kind: 'assistant', conversationId: 'conv-1' };

  let temp: ReturnType<typeof tempTaskDir>;
  let clock: ManualClock;
  let plainViews: PlainCallView[];
  let ended: EndedCall[];
  let open: Array<{ close(): void }>;

  function requestor(log?: SegmentLog<OutboundTaskDocument>): OutboundTasks {
    const manager = new OutboundTasks({
      dir: temp.dir,
      ...(log && { log }),
      clock,
      defaultTtlMs: 600_000,
      onPlainCall: (view) => plainViews.push(view),
      onCallEnded: (call) => ended.push(call)
    });
    open.push(manager);
    return manager;
  }

  /** A log over the task directory, as the host keeps its tasks (a new one reads what the last wrote). */
  function taskLog(): SegmentLog<OutboundTaskDocument> {
    return new SegmentLog<OutboundTaskDocument>({
      dir: path.join(temp.root, 'log'),
      corruptDir: path.join(temp.root, 'corrupt'),
      factory: confStoreFactory
    });
  }

  function openHistory(dataDir: string): TaskHistory {
    const history = new TaskHistory({
      dataDir,
      corruptDir: path.join(dataDir, 'corrupt'),
      factory: confStoreFactory,
      clock
    });
    history.load();
    return history;
  }

  function taskOf(outcome: Awaited<ReturnType<OutboundTasks['callTool']>>): OutboundTaskView {
    return outcome.type === 'task' ? outcome.task : assert.fail(`not a task: ${JSON.stringify(outcome)}`);
  }

  beforeEach(() => {
    temp = tempTaskDir();
    clock = new ManualClock();
    plainViews = [];
    ended = [];
    open = [];
  });
  afterEach(() => {
    for (const one of open.reverse()) one.close();
    temp.cleanup();
  });

  describe('a plain call', () => {
    it('carries its origin while it runs and once it ended, and History keeps it in the entry and its summary', async () => {
      const data = tempDir('history-');
      try {
        const manager = requestor();
        const { client } = await connectInMemory(createPlainToolServer().server, clock);
        manager.attach('plain', 'Plain Server', client);

        const outcome = await manager.callTool('plain', 'work-forbidden', { label: 'a' }, { origin: ORIGIN });
        assert.equal(outcome.type, 'result');
        await manager.callTool('plain', 'work-forbidden', { label: 'b' });

        const [fromAssistant, byHand] = ended;
        assert.deepEqual(fromAssistant?.call.origin, ORIGIN);
        assert.equal(byHand?.call.origin, undefined, 'a call made by hand says nothing of where it came from');
        assert.ok(plainViews.length >= 4, 'each call was announced as it started and as it ended');
        for (const view of plainViews) {
          if (view.callId === fromAssistant?.call.callId) assert.deepEqual(view.origin, ORIGIN);
          else assert.equal(view.origin, undefined);
        }

        const history = openHistory(data.dir);
        assert.ok(fromAssistant && byHand);
        history.recordCall(fromAssistant);
        history.recordCall(byHand);
        const summaries = history.list().entries;
        assert.equal(summaries.length, 2);
        // Both started at the same (manual) moment: told apart by their origin, not their order.
        const assistantSummary = summaries.find((s) => s.origin !== undefined);
        assert.ok(assistantSummary);
        assert.deepEqual(assistantSummary.origin, ORIGIN);
        assert.equal(summaries.filter((s) => s.origin === undefined).length, 1);
        assert.deepEqual(history.get(assistantSummary.id)?.origin, ORIGIN);
        history.close();

        // History is on disk: a restart reads the origin back.
        const reopened = openHistory(data.dir);
        assert.deepEqual(reopened.get(assistantSummary.id)?.origin, ORIGIN);
        reopened.close();
      } finally {
        data.remove();
      }
    });
  });

  describe('a call that became a task', () => {
    for (const store of ['documents', 'log'] as const) {
      it(`keeps its origin on its task, in History, and across a restart (${store})`, async () => {
        const data = tempDir('history-');
        try {
          const firstLog = store === 'log' ? taskLog() : undefined;
          const first = requestor(firstLog);
          const { server } = createTaskToolServer({ clock, pollInterval: 60_000 });
          const { client } = await connectInMemory(server, clock);
          first.attach('srv', 'Task Server', client);
          const told: OutboundTaskView[] = [];
          const task = taskOf(
            await first.callTool(
              'srv',
              'work-required',
              { durationMs: 600_000 },
              { origin: ORIGIN, onTask: (view) => told.push(view) }
            )
          );
          const byHand = taskOf(await first.callTool('srv', 'work-required', { durationMs: 600_000 }));
          assert.deepEqual(task.origin, ORIGIN);
          assert.deepEqual(told[0]?.origin, ORIGIN, 'its first record, before the call returned, holds it');
          assert.deepEqual(first.get(task.outboundId)?.origin, ORIGIN);
          assert.equal(byHand.origin, undefined);

          const history = openHistory(data.dir);
          history.recordRequested(first.get(task.outboundId)!);
          history.recordRequested(first.get(byHand.outboundId)!);
          const entry = history.get(`requested:${task.outboundId}`);
          assert.deepEqual(entry?.origin, ORIGIN);
          assert.equal(history.get(`requested:${byHand.outboundId}`)?.origin, undefined);
          assert.deepEqual(
            history.list().entries.find((s) => s.id === entry?.id)?.origin,
            ORIGIN,
            'the list’s summary says it too'
          );
          history.close();

          first.close();
          open = open.filter((one) => one !== first);
          const second = requestor(store === 'log' ? taskLog() : undefined);
          assert.deepEqual(second.quarantined, []);
          assert.deepEqual(second.get(task.outboundId)?.origin, ORIGIN, 'read back after the restart');
          assert.equal(second.get(task.outboundId)?.state, 'working');
          assert.equal(second.get(byHand.outboundId)?.origin, undefined, 'a task made by hand loads as before');
        } finally {
          data.remove();
        }
      });
    }

    it('loads a record of an earlier build, without an origin, as before', async () => {
      const first = requestor();
      const { server } = createTaskToolServer({ clock, pollInterval: 60_000 });
      const { client } = await connectInMemory(server, clock);
      first.attach('srv', 'Task Server', client);
      const task = taskOf(await first.callTool('srv', 'work-required', { durationMs: 600_000 }));
      first.close();
      open = [];
      // The document exactly as a build without the field wrote it.
      const loaded = temp.dir.read(task.outboundId);
      assert.ok(loaded.ok);
      const { origin: _none, ...older } = loaded.value as OutboundTaskDocument;
      assert.equal(Object.hasOwn(older, 'origin'), false);
      temp.dir.write(task.outboundId, older);

      const second = requestor();
      assert.deepEqual(second.quarantined, []);
      const view = second.get(task.outboundId);
      assert.equal(view?.taskId, task.taskId);
      assert.equal(view?.origin, undefined);
    });

    it('of a 2026-07-28 server keeps its origin too', async () => {
      const manager = requestor();
      const now = new Date(clock.now()).toISOString();
      const peer: ModernPeer = {
        acceptsTasks: true,
        request: (method) => {
          if (method === 'tools/list')
            return Promise.resolve({
              resultType: 'complete',
              tools: [{ name: 'work', inputSchema: { type: 'object' } }]
            });
          if (method === 'tools/call' || method === 'tasks/get')
            return Promise.resolve({
              resultType: 'task',
              taskId: 'modern-1',
              status: 'working',
              createdAt: now,
              lastUpdatedAt: now,
              ttlMs: 600_000,
              pollIntervalMs: 60_000
            });
          return Promise.reject(new Error(`unexpected ${method}`));
        },
        answerInput: () => Promise.reject(new Error('no questions here'))
      };
      // A 2026-07-28 server is reached through its peer; the SDK client only holds the handler of
      // the notifications (`notifications/tasks`) that come on its task stream.
      manager.attach('modern', 'Modern Server', notificationClient(), { modern: peer });
      const task = taskOf(await manager.callTool('modern', 'work', {}, { asTask: true, origin: ORIGIN }));
      assert.equal(task.protocol, '2026-07-28');
      assert.deepEqual(task.origin, ORIGIN);
      manager.close();
      open = [];
      assert.deepEqual(requestor().get(task.outboundId)?.origin, ORIGIN);
    });
  });
});
