import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { OutboundTaskView } from '../../../app/contract/outbound-tasks.js';
import { ManualClock } from '../../support/manual-clock.js';
import { HistoryEntrySchema, type HistorySummary } from '../../../app/contract/history.js';
import { InvalidHistoryCursorError, TaskHistory } from '../../../app/history/task-history.js';
import type { TaskRecord } from '../../../app/receiver/task-record.js';
import type { EndedOrdinaryRequest } from '../../../app/receiver/task-receiver.js';
import { confStoreFactory } from '../../../app/store/json-file-store.js';
import { tempDir } from '../../support/host-fixture.js';
import { editedRequest } from '../../support/received-sampling.js';

// In a describe of its own: npm test runs these files in one process, where a
// file's top-level hooks would run around every file's tests.
describe('TaskHistory', () => {
  const dirs: Array<{ remove: () => void }> = [];
  after(() => dirs.forEach((dir) => dir.remove()));

  function openHistory(
    dataDir: string,
    clock: ManualClock,
    retention = {},
    bytes: { maxBytes?: number; maxBytesPerServer?: number } = {}
  ) {
    const changed: HistorySummary[] = [];
    const history = new TaskHistory({
      dataDir,
      corruptDir: path.join(dataDir, 'corrupt'),
      factory: confStoreFactory,
      clock,
      retention,
      ...bytes,
      events: { changed: (summary) => changed.push(summary) }
    });
    history.load();
    return { history, changed };
  }

  function fresh(retention = {}, bytes: { maxBytes?: number; maxBytesPerServer?: number } = {}) {
    const dir = tempDir('history-');
    dirs.push(dir);
    const clock = new ManualClock(Date.UTC(2026, 5, 1));
    return { dataDir: dir.dir, clock, ...openHistory(dir.dir, clock, retention, bytes) };
  }

  function received(
    taskId: string,
    overrides: Partial<TaskRecord['task']> = {},
    extra: Partial<TaskRecord> = {}
  ): TaskRecord {
    return {
      schemaVersion: 1,
      task: {
        taskId,
        status: 'working',
        createdAt: '2026-06-01T00:00:00.000Z',
        lastUpdatedAt: '2026-06-01T00:00:00.000Z',
        ttl: 60_000,
        ...overrides
      },
      owner: { serverId: 'alpha', serverName: 'Alpha', identity: 'id-alpha' },
      kind: 'elicitation',
      request: {
        mode: 'form',
        message: 'Which  city\nshould I book?',
        requestedSchema: { type: 'object', properties: {} }
      },
      expiresAt: null,
      notes: [],
      sequence: 1,
      ...extra
    };
  }

  function requested(outboundId: string, overrides: Partial<OutboundTaskView> = {}): OutboundTaskView {
    return {
      outboundId,
      serverId: 'beta',
      serverName: 'Beta',
      toolName: 'simulate-research-query',
      arguments: { topic: 'tides' },
      requestedTtl: 3_600_000,
      createdAt: '2026-06-01T00:00:01.000Z',
      updatedAt: '2026-06-01T00:00:01.000Z',
      taskId: `server-${outboundId}`,
      state: 'working',
      task: {
        taskId: `server-${outboundId}`,
        status: 'working',
        statusMessage: 'Generating report...',
        createdAt: '2026-06-01T00:00:01.000Z',
        lastUpdatedAt: '2026-06-01T00:00:01.000Z',
        ttl: 3_600_000
      },
      expiresAt: null,
      progress: { count: 0, history: [] },
      ...overrides
    };
  }

  describe('the task history', () => {
    it('records a received task from the server’s time to its result, and keeps it across a restart', () => {
      const { history, changed, dataDir, clock } = fresh();
      history.recordReceived('t1', received('t1'));
      history.recordReceived(
        't1',
        received(
          't1',
          { status: 'completed', lastUpdatedAt: '2026-06-01T00:00:05.000Z' },
          { outcome: { type: 'result', result: { action: 'accept', content: { city: 'Oslo' } } } }
        )
      );
      assert.deepEqual(
        changed.map((summary) => summary.status),
        ['working', 'completed']
      );
      const entry = history.get('received:t1')!;
      assert.equal(entry.title, 'Which city should I book?');
      assert.equal(entry.createdAt, '2026-06-01T00:00:00.000Z', 'the time the server asked, not a local one');
      assert.deepEqual(entry.result, { action: 'accept', content: { city: 'Oslo' } });
      assert.deepEqual(
        entry.timeline.map((step) => step.status),
        ['working', 'completed']
      );
      assert.equal(entry.endedAt, '2026-06-01T00:00:05.000Z');
      history.close();

      const reopened = openHistory(dataDir, clock).history;
      assert.deepEqual(reopened.get('received:t1'), HistoryEntrySchema.parse(entry));
      reopened.close();
    });

    it('marks a model request turned down (-1) as rejected in its summary, and no other failure', () => {
      const { history, changed } = fresh();
      const sampling = { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 5 };
      const failed = (taskId: string, code: number) =>
        received(
          taskId,
          { status: 'failed', lastUpdatedAt: '2026-06-01T00:00:02.000Z' },
          { kind: 'sampling', request: sampling, outcome: { type: 'error', error: { code, message: 'No' } } }
        );
      history.recordReceived('s1', failed('s1', -1));
      history.recordReceived('s2', failed('s2', -32603));
      const summaries = new Map(history.list({}).entries.map((summary) => [summary.id, summary]));
      assert.equal(summaries.get('received:s1')?.rejected, true);
      assert.equal(summaries.get('received:s2')?.rejected, undefined);
      assert.equal(summaries.get('received:s1')?.status, 'failed', 'the protocol status stays');
      assert.equal(changed.find((summary) => summary.id === 'received:s1')?.rejected, true, 'and so does the event');
      history.close();
    });

    it('says a model answer the person rejected in review as that, keeping the answer, apart from a request rejected before it ran', () => {
      // A newcomer read "User rejected sampling request" for an answer they rejected, and the answer was gone.
      const { history, changed, dataDir, clock } = fresh();
      const sampling = { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 5 };
      const answer = { role: 'assistant', content: { type: 'text', text: 'Once upon a time' }, model: 'fake-small' };
      const rejected = { type: 'error' as const, error: { code: -1, message: 'User rejected sampling request' } };
      const task = (taskId: string, notes: Array<Record<string, unknown>>, ended: boolean) =>
        received(
          taskId,
          ended
            ? {
                status: 'failed',
                statusMessage: 'User rejected sampling request',
                lastUpdatedAt: '2026-06-01T00:00:04.000Z'
              }
            : {
                status: 'input_required',
                statusMessage: 'Waiting for your answer in the Inbox: review the answer for Alpha'
              },
          { kind: 'sampling', request: sampling, notes, ...(ended && { outcome: rejected }) }
        );
      const reviewed = [
        { phase: 'awaiting-approval' },
        { answeredBy: 'user', action: 'approve' },
        { phase: 'model', providerId: 'fake', model: 'fake-small' },
        { phase: 'awaiting-review', params: sampling, providerId: 'fake', model: 'fake-small', result: answer }
      ];
      history.recordReceived('s1', task('s1', reviewed, false));
      history.recordReceived('s1', task('s1', reviewed, true));
      const entry = history.get('received:s1')!;
      assert.equal(entry.statusMessage, 'You rejected the model’s answer; its server did not get it.');
      assert.equal(entry.timeline.at(-1)!.message, entry.statusMessage);
      assert.deepEqual(entry.rejectedAnswer, answer, 'what was rejected, kept');
      assert.deepEqual(entry.error, rejected.error, 'what its server was told, kept');
      assert.equal(changed.at(-1)?.rejected, true);
      assert.equal('rejectedAnswer' in changed.at(-1)!, false, 'not in a list’s summary');

      // Rejected on its approval card: no model ran, no answer to keep.
      history.recordReceived('s2', task('s2', [{ phase: 'awaiting-approval' }], true));
      const request = history.get('received:s2')!;
      assert.equal(request.statusMessage, 'You rejected the model request; no model ran.');
      assert.equal(request.rejectedAnswer, undefined);

      // A request that was no task says the same.
      history.recordReceivedRequest({
        owner: { serverId: 'alpha', serverName: 'Alpha', identity: 'id-alpha' },
        kind: 'sampling',
        request: sampling,
        askedAt: '2026-06-01T00:00:01.000Z',
        endedAt: '2026-06-01T00:00:03.000Z',
        steps: [],
        notes: reviewed,
        outcome: rejected
      });
      const plain = history.list({}).entries.find((summary) => summary.id.startsWith('request:'))!;
      assert.equal(plain.statusMessage, 'You rejected the model’s answer; its server did not get it.');
      assert.deepEqual(history.get(plain.id)!.rejectedAnswer, answer);
      history.close();
      const reopened = openHistory(dataDir, clock).history;
      assert.deepEqual(reopened.get('received:s1')!.rejectedAnswer, answer, 'kept across a restart');
      reopened.close();
    });

    it('says a model request rejected after its approved run failed as that, with why the run failed', () => {
      // It said "no model ran" where a model had run and failed, and the failure's reason was gone.
      const { history } = fresh();
      const sampling = { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 5 };
      const rejected = { type: 'error' as const, error: { code: -1, message: 'User rejected sampling request' } };
      const failure = (extra: Record<string, unknown> = {}) => ({
        message: 'Fake (127.0.0.1:9) did not answer within 30 s.',
        providerId: 'fake',
        providerName: 'Fake',
        model: 'fake-small',
        at: '2026-06-01T00:00:02.000Z',
        ...extra
      });
      const notes = (lastFailure: Record<string, unknown>) => [
        { phase: 'awaiting-approval' },
        { answeredBy: 'user', action: 'approve' },
        { phase: 'model', providerId: 'fake', model: 'fake-small' },
        { phase: 'awaiting-approval', lastFailure }
      ];
      history.recordReceived(
        's1',
        received(
          's1',
          { status: 'failed', statusMessage: 'User rejected sampling request' },
          { kind: 'sampling', request: sampling, notes: notes(failure()), outcome: rejected }
        )
      );
      const entry = history.get('received:s1')!;
      assert.equal(
        entry.statusMessage,
        'You rejected the model request after its model run failed (Fake (127.0.0.1:9) did not answer within 30 s); its server did not get an answer.'
      );
      assert.equal(entry.rejectedAnswer, undefined);
      assert.deepEqual(entry.error, rejected.error, 'what its server was told, kept');

      // The person's own Stop ended the run: said as theirs; a request that was no task says the same.
      history.recordReceivedRequest({
        owner: { serverId: 'alpha', serverName: 'Alpha', identity: 'id-alpha' },
        kind: 'sampling',
        request: sampling,
        askedAt: '2026-06-01T00:00:01.000Z',
        endedAt: '2026-06-01T00:00:03.000Z',
        steps: [],
        notes: notes(failure({ message: 'Stopped by you.', stopped: true })),
        outcome: rejected
      });
      const plain = history.list({}).entries.find((summary) => summary.id.startsWith('request:'))!;
      assert.equal(
        plain.statusMessage,
        'You rejected the model request after you stopped its model run; its server did not get an answer.'
      );
      history.close();
    });

    it('turns a received task that expired while waiting into an "expired, unanswered" entry', () => {
      const { history, changed } = fresh();
      history.recordReceived('t2', received('t2'));
      history.recordReceived('t2', undefined);
      const entry = history.get('received:t2')!;
      assert.equal(entry.status, 'expired');
      assert.equal(entry.unanswered, true);
      assert.equal(changed.at(-1)?.unanswered, true);
      // A finished task that reaches its TTL keeps how it ended.
      history.recordReceived('t3', received('t3', { status: 'cancelled' }));
      history.recordReceived('t3', undefined);
      assert.equal(history.get('received:t3')!.status, 'cancelled');
      assert.equal(history.get('received:t3')!.unanswered, undefined);
      history.close();
    });

    it('records a requested task with its outcome, not its last interim status message', () => {
      const { history } = fresh();
      history.recordRequested(requested('o1'));
      history.recordRequested(requested('o1', { task: { ...requested('o1').task, statusMessage: 'Reading sources' } }));
      assert.equal(history.get('requested:o1')!.statusMessage, 'Reading sources');
      assert.deepEqual(
        history.get('requested:o1')!.timeline.map((step) => [step.status, step.message]),
        [
          ['working', 'Generating report...'],
          ['working', 'Reading sources']
        ],
        'a new status message is a step of its own'
      );
      history.recordRequested(requested('o1', { state: 'input_required' }));
      history.recordRequested(
        requested('o1', {
          state: 'completed',
          updatedAt: '2026-06-01T00:01:00.000Z',
          outcome: { type: 'result', result: { content: [{ type: 'text', text: 'Report' }] }, fetchedAt: 'x' }
        })
      );
      const entry = history.get('requested:o1')!;
      assert.equal(entry.kind, 'tool-call');
      assert.equal(entry.title, 'Tool call: simulate-research-query');
      assert.deepEqual(entry.request, { name: 'simulate-research-query', arguments: { topic: 'tides' } });
      assert.deepEqual(entry.result, { content: [{ type: 'text', text: 'Report' }] });
      assert.deepEqual(
        entry.timeline.map((step) => step.status),
        ['working', 'working', 'input_required', 'completed']
      );
      assert.equal(entry.statusMessage, undefined, 'the interim message it still had is not how it ended');
      assert.equal(entry.timeline.at(-1)!.message, undefined);
      history.close();
    });

    it('takes an outcome that comes after its end was kept (its hold ran out) without another step', () => {
      const { history } = fresh();
      history.recordRequested(requested('o1'));
      // Its end kept before its outcome came (see SETTLING_HOLD_MS): the running message is not how it ended.
      const ended = { state: 'completed' as const, updatedAt: '2026-06-01T00:01:00.000Z' };
      history.recordRequested(requested('o1', ended));
      history.recordRequested(
        requested('o1', {
          ...ended,
          outcome: { type: 'result', result: { content: [{ type: 'text', text: 'Report' }] }, fetchedAt: 'x' }
        })
      );
      const entry = history.get('requested:o1')!;
      assert.deepEqual(
        entry.timeline.map((step) => [step.status, step.message]),
        [
          ['working', 'Generating report...'],
          ['completed', undefined]
        ]
      );
      assert.equal(entry.statusMessage, undefined);
      assert.deepEqual(entry.result, { content: [{ type: 'text', text: 'Report' }] });
      // A message of its own after its end is a step, as any change of message is.
      history.recordRequested(
        requested('o1', {
          ...ended,
          task: { ...requested('o1').task, status: 'completed', statusMessage: 'Done: 3 files' },
          outcome: { type: 'result', result: { content: [{ type: 'text', text: 'Report' }] }, fetchedAt: 'x' }
        })
      );
      assert.equal(history.get('requested:o1')!.statusMessage, 'Done: 3 files');
      assert.deepEqual(history.get('requested:o1')!.timeline.at(-1), {
        at: '2026-06-01T00:01:00.000Z',
        status: 'completed',
        message: 'Done: 3 files'
      });
      history.close();
    });

    it('filters by text, server, status, kind and direction, and pages newest first without repeats', () => {
      const { history } = fresh();
      for (let index = 0; index < 120; index++) {
        const at = new Date(Date.UTC(2026, 5, 1, 0, 0, index)).toISOString();
        history.recordReceived(
          `r${index}`,
          received(
            `r${index}`,
            { createdAt: at, lastUpdatedAt: at, status: index % 3 === 0 ? 'completed' : 'working' },
            {
              request: {
                message:
                  index % 10 === 0
                    ? `Book a flight ${index}`
                    : index === 7
                      ? 'What’s your colour?'
                      : `Pick a colour ${index}`
              }
            }
          )
        );
      }
      history.recordRequested(requested('o1'));

      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = history.list({ direction: 'received' }, { limit: 50, ...(cursor && { cursor }) });
        assert.equal(page.total, 120);
        seen.push(...page.entries.map((entry) => entry.taskId ?? entry.id));
        cursor = page.nextCursor;
      } while (cursor);
      assert.equal(seen.length, 120);
      assert.equal(new Set(seen).size, 120);
      assert.equal(seen[0], 'r119', 'newest first');

      assert.deepEqual(
        history.list({ text: 'FLIGHT book' }).entries.map((entry) => entry.taskId),
        ['r110', 'r100', 'r90', 'r80', 'r70', 'r60', 'r50', 'r40', 'r30', 'r20', 'r10', 'r0']
      );
      // The Desk's typographic apostrophe, found by the keyboard's.
      assert.deepEqual(
        history.list({ text: "what's your" }).entries.map((entry) => entry.taskId),
        ['r7']
      );
      assert.equal(history.list({ status: 'working', direction: 'received' }).total, 80);
      // A question that completed is no Completed row: its row says how it ended (these, with no
      // answer kept, "Replied"), as the Tasks screen's filter has it.
      assert.equal(history.list({ status: 'completed', direction: 'received' }).total, 0);
      assert.equal(history.list({ serverId: 'beta' }).total, 1);
      assert.equal(history.list({ kind: 'tool-call' }).entries[0]!.id, 'requested:o1');
      // One entry, if it matches the rest: whether an open detail still belongs to the list.
      assert.deepEqual(
        history.list({ id: 'requested:o1', kind: 'tool-call' }).entries.map((entry) => entry.id),
        ['requested:o1']
      );
      assert.equal(history.list({ id: 'requested:o1', kind: 'elicitation' }).total, 0);
      assert.equal(history.list({ id: 'no-such-entry' }).total, 0);
      assert.throws(() => history.list({}, { cursor: 'not-a-cursor' }), InvalidHistoryCursorError);
      history.close();
    });

    it('exports the entries a filter matches as JSON Lines', () => {
      const { history } = fresh();
      history.recordReceived('a', received('a'));
      history.recordRequested(requested('b'));
      const lines = history.exportJsonLines({ serverId: 'alpha' }).trimEnd().split('\n');
      assert.equal(lines.length, 1);
      assert.equal(HistoryEntrySchema.parse(JSON.parse(lines[0]!)).id, 'received:a');
      history.close();
    });

    it('forgets entries past the retention days, on its own hourly sweep', async () => {
      const { history, dataDir, clock } = fresh({ days: 30 });
      history.recordReceived('old', received('old', { status: 'completed' }));
      await clock.advance(29 * 24 * 3_600_000);
      history.recordReceived(
        'newer',
        received('newer', { status: 'completed', lastUpdatedAt: new Date(clock.now()).toISOString() })
      );
      assert.equal(history.size, 2);
      await clock.advance(2 * 24 * 3_600_000);
      assert.equal(history.get('received:old'), undefined);
      assert.ok(history.get('received:newer'));
      history.close();
      assert.equal(openHistory(dataDir, clock).history.get('received:old'), undefined, 'removed on disk too');
    });

    it('past maxEntries takes the oldest entry of the server holding the most, so one server cannot push others out', () => {
      const { history } = fresh({ maxEntries: 100 });
      for (let index = 0; index < 10; index++) {
        history.recordRequested(requested(`b${index}`, { createdAt: `2026-06-01T00:00:0${index}.000Z` }));
      }
      for (let index = 0; index < 150; index++) history.recordReceived(`a${index}`, received(`a${index}`));
      assert.equal(history.size, 100);
      assert.equal(history.list({ serverId: 'beta' }).total, 10, "the quiet server's entries all stay");
      // The busy server keeps its newest 90: a0…a59 went, oldest first.
      assert.equal(history.get('received:a59'), undefined);
      assert.ok(history.get('received:a60'));
      history.close();
    });

    it('keeps the start and size of a request too large for the history', () => {
      const { history } = fresh();
      history.recordReceived('big', received('big', {}, { request: { message: 'x'.repeat(300 * 1024) } }));
      const { request } = history.get('received:big')!;
      assert.equal((request as { truncated?: boolean }).truncated, true);
      assert.ok((request as { bytes: number }).bytes > 300 * 1024);
      assert.ok((request as { preview: string }).preview.length <= 4096);
      history.close();
    });

    it('keeps a retention the user set, and reports a settings file it cannot read', () => {
      const { history, dataDir, clock } = fresh();
      assert.deepEqual(history.setRetention({ days: 7, maxEntries: 500 }), { days: 7, maxEntries: 500 });
      history.close();
      const reopened = openHistory(dataDir, clock).history;
      assert.deepEqual(reopened.retention, { days: 7, maxEntries: 500 });
      reopened.close();
      fs.writeFileSync(path.join(dataDir, 'history-settings.json'), '{ not json');
      const damaged = openHistory(dataDir, clock).history;
      assert.deepEqual(damaged.retention, { days: 30, maxEntries: 20_000 });
      assert.match(damaged.warnings[0]?.message ?? '', /history retention could not be read/);
      damaged.close();
    });

    it('holds a byte budget per server and in total: a server of large requests loses its own oldest entries', () => {
      const { history } = fresh({}, { maxBytesPerServer: 40 * 1024, maxBytes: 60 * 1024 });
      const large = (id: string) => received(id, {}, { request: { message: 'Big', padding: 'p'.repeat(6 * 1024) } });
      for (let index = 0; index < 20; index++) history.recordReceived(`big${index}`, large(`big${index}`));
      const alpha = history.list({ serverId: 'alpha' });
      assert.ok(alpha.total >= 4 && alpha.total <= 6, `about 40 KiB of 7 KiB entries are kept (${alpha.total})`);
      assert.equal(alpha.entries.at(-1)?.taskId, `big${20 - alpha.total}`, 'the newest ones');
      for (let index = 0; index < 5; index++) history.recordRequested(requested(`o${index}`));
      assert.equal(history.list({ serverId: 'beta' }).total, 5, 'a quiet server keeps its entries under the total');
      for (let index = 20; index < 40; index++) history.recordReceived(`big${index}`, large(`big${index}`));
      assert.equal(
        history.list({ serverId: 'beta' }).total,
        5,
        'the total takes from the server holding the most bytes'
      );
      history.close();
    });

    it('makes the entries of ended calls 100 ms later, in the order they ended, or at once for a read or the close', (t) => {
      t.mock.timers.enable({ apis: ['setTimeout'] });
      const { history, dataDir, clock, changed } = fresh();
      const ended = (tool: string) => ({
        call: {
          callId: tool,
          serverId: 'beta',
          serverName: 'Beta',
          toolName: tool,
          startedAt: '2026-06-01T00:00:01.000Z',
          endedAt: '2026-06-01T00:00:02.000Z',
          state: 'completed' as const
        },
        arguments: {}
      });
      history.recordCall(ended('first'));
      history.recordCall(ended('second'));
      t.mock.timers.tick(99);
      assert.equal(changed.length, 0);
      t.mock.timers.tick(1);
      assert.deepEqual(
        changed.map((summary) => summary.title),
        ['Tool call: first', 'Tool call: second']
      );
      // A request's entry that comes after them keeps its place after them.
      history.recordCall(ended('third'));
      history.recordRequested(requested('o1'));
      assert.equal(changed.length, 4);
      assert.equal(changed[2]?.title, 'Tool call: third');
      assert.equal(changed[3]?.taskId, 'server-o1');
      history.recordCall(ended('fourth'));
      history.close();
      assert.equal(
        openHistory(dataDir, clock).history.list({ kind: 'tool-call' }).total,
        5,
        'the four calls, the last one kept by the close, and the task'
      );
    });

    it('records a tool call that ran without a task, answered, failed or cancelled, each as an entry of its own', () => {
      const { history, dataDir, clock, changed } = fresh();
      const call = (
        state: 'completed' | 'failed' | 'cancelled',
        extra: { error?: { code: number; message: string } } = {}
      ) => ({
        callId: 'same-id',
        serverId: 'beta',
        serverName: 'Beta',
        toolName: 'echo',
        startedAt: '2026-06-01T00:00:01.000Z',
        endedAt: '2026-06-01T00:00:02.000Z',
        state,
        ...extra
      });
      history.recordCall({
        call: call('completed'),
        arguments: { message: 'hi' },
        result: { content: [{ type: 'text', text: 'hi' }] }
      });
      history.recordCall({
        call: call('failed', { error: { code: -32603, message: 'The tool broke' } }),
        arguments: { message: 'again' }
      });
      history.recordCall({
        call: call('cancelled', { error: { code: -32800, message: 'Cancelled by you' } }),
        arguments: { message: 'stop' }
      });
      assert.equal(changed.length, 0, 'gathered: no entry is made on the way of the calls');
      assert.equal(history.list({ kind: 'tool-call' }).total, 3, 'a read takes what gathered first');
      assert.equal(changed.length, 3, 'the UI is told of each');

      history.close();
      const reopened = openHistory(dataDir, clock).history;
      const page = reopened.list({ kind: 'tool-call', direction: 'requested' });
      assert.equal(page.total, 3, 'a callId used again is a new entry, not the old one overwritten');
      const byStatus = new Map(page.entries.map((entry) => [entry.status, entry]));
      const answered = reopened.get(byStatus.get('completed')!.id)!;
      assert.match(answered.id, /^call:/);
      assert.equal(answered.taskId, undefined);
      assert.equal(answered.title, 'Tool call: echo');
      assert.deepEqual(answered.request, { name: 'echo', arguments: { message: 'hi' } });
      assert.deepEqual(answered.result, { content: [{ type: 'text', text: 'hi' }] });
      assert.equal(answered.error, undefined);
      assert.deepEqual(
        answered.timeline.map((step) => [step.at, step.status]),
        [
          ['2026-06-01T00:00:01.000Z', 'working'],
          ['2026-06-01T00:00:02.000Z', 'completed']
        ]
      );
      assert.equal(answered.endedAt, '2026-06-01T00:00:02.000Z');
      const failed = reopened.get(byStatus.get('failed')!.id)!;
      assert.deepEqual(failed.error, { code: -32603, message: 'The tool broke' });
      assert.equal(failed.result, undefined);
      const cancelled = reopened.get(byStatus.get('cancelled')!.id)!;
      assert.equal(cancelled.cancelledBy, 'you');
      assert.equal(reopened.list({ text: 'echo beta' }).total, 3, 'found by tool and server without a task id');
      HistoryEntrySchema.parse(cancelled);
      reopened.close();
    });

    it('records a server’s request that was no task once it ended: who cancelled it, its steps, and under the retention', () => {
      const { history, changed } = fresh({ maxEntries: 100 });
      const ended = (
        outcome: EndedOrdinaryRequest['outcome'],
        extra: Partial<EndedOrdinaryRequest> = {}
      ): EndedOrdinaryRequest => ({
        owner: { serverId: 'alpha', serverName: 'Alpha', identity: 'id-alpha' },
        kind: 'elicitation',
        request: { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: {} } },
        askedAt: '2026-06-01T00:00:01.000Z',
        endedAt: '2026-06-01T00:00:03.000Z',
        steps: [
          { at: '2026-06-01T00:00:01.000Z', message: 'Waiting for your answer in the Inbox' },
          { at: '2026-06-01T00:00:02.000Z', message: 'Waiting for your answer in the Inbox' }
        ],
        outcome,
        ...extra
      });
      const cancel = { type: 'error' as const, error: { code: -32800, message: 'Aborted' } };
      history.recordReceivedRequest(ended({ type: 'result', result: { action: 'decline' } }));
      history.recordReceivedRequest(ended(cancel, { cancelled: { by: 'you', reason: 'Cancelled by you' } }));
      history.recordReceivedRequest(ended(cancel, { cancelled: { by: 'server' } }));
      history.recordReceivedRequest(ended(cancel, { cancelled: { reason: 'The server no longer asks this' } }));
      assert.equal(changed.length, 4);
      const entries = history.list({ direction: 'received', kind: 'elicitation' }).entries.map((summary) => {
        const entry = history.get(summary.id)!;
        return [entry.status, entry.cancelledBy, entry.statusMessage, entry.result, entry.error] as const;
      });
      assert.deepEqual(
        entries.sort((a, b) => (a[2] ?? '').localeCompare(b[2] ?? '')),
        [
          ['completed', undefined, undefined, { action: 'decline' }, undefined],
          ['cancelled', 'you', 'Cancelled by you', undefined, undefined],
          [
            'cancelled',
            'server',
            'The server cancelled the request, or its connection closed, before it was answered',
            undefined,
            undefined
          ],
          ['cancelled', undefined, 'The server no longer asks this', undefined, undefined]
        ]
      );
      const declined = history.get(history.list({ status: 'declined' }).entries[0]!.id)!;
      assert.match(declined.id, /^request:/);
      assert.deepEqual(
        declined.timeline.map((step) => [step.at, step.label ?? step.status, step.message]),
        [
          ['2026-06-01T00:00:01.000Z', 'Asked', undefined],
          ['2026-06-01T00:00:01.000Z', 'Waiting for you', 'Waiting for your answer in the Inbox'],
          ['2026-06-01T00:00:03.000Z', 'completed', 'You declined']
        ],
        'asked, then waiting on you (a wait said twice is one step), then how you answered'
      );
      HistoryEntrySchema.parse(declined);

      // Past maxEntries, these go as every entry does.
      for (let i = 0; i < 120; i++)
        history.recordReceivedRequest(ended({ type: 'result', result: { action: 'cancel' } }));
      assert.equal(history.size, 100);
      history.close();
    });

    it('records a call answered with a tool error (isError) as failed, with the result that says why', () => {
      const { history } = fresh();
      const result = { content: [{ type: 'text', text: 'MCP error -32001: Request timed out' }], isError: true };
      history.recordCall({
        call: {
          callId: 'c',
          serverId: 'beta',
          serverName: 'Beta',
          toolName: 'trigger-sampling-request',
          startedAt: '2026-06-01T00:00:01.000Z',
          endedAt: '2026-06-01T00:00:02.000Z',
          state: 'completed'
        },
        arguments: {},
        result
      });
      const [summary] = history.list({ status: 'failed' }).entries;
      assert.ok(summary, 'found by the Failed filter');
      assert.equal(summary.title, 'Tool call: trigger-sampling-request');
      const entry = history.get(summary.id)!;
      assert.deepEqual(entry.result, result);
      assert.equal(entry.error, undefined);
      assert.deepEqual(
        entry.timeline.map((step) => step.status),
        ['working', 'failed']
      );
      history.close();
    });

    it('says in the list why a call without a task failed, as its detail says it, in a line cut as a preview is', () => {
      const { history, changed } = fresh();
      const call = (
        toolName: string,
        state: 'completed' | 'failed' | 'cancelled',
        error?: { code: number; message: string }
      ) => ({
        callId: toolName,
        serverId: 'beta',
        serverName: 'Beta',
        toolName,
        startedAt: '2026-06-01T00:00:01.000Z',
        endedAt: '2026-06-01T00:00:02.000Z',
        state,
        ...(error && { error })
      });
      const long = `The disk is full: ${'and the spare one too, '.repeat(10)}`;
      history.recordCall({ call: call('broke', 'failed', { code: -32603, message: 'The tool broke' }), arguments: {} });
      history.recordCall({ call: call('full', 'failed', { code: -32603, message: long }), arguments: {} });
      history.recordCall({
        call: call('refused', 'completed'),
        arguments: {},
        result: { content: [{ type: 'text', text: '**Quota** used up:\n\n- 500 requests a day' }], isError: true }
      });
      history.recordCall({
        call: call('echo', 'completed'),
        arguments: {},
        result: { content: [{ type: 'text', text: 'Echo' }] }
      });
      history.recordCall({
        call: call('stopped', 'cancelled', { code: -32800, message: 'Cancelled by you' }),
        arguments: {}
      });
      const lines = new Map(history.list().entries.map((entry) => [entry.title, entry.errorLine]));
      assert.equal(
        lines.get('Tool call: broke'),
        'Error -32603: The tool broke',
        'the code and message, as ErrorView says'
      );
      const cut = lines.get('Tool call: full') ?? '';
      assert.match(cut, /^Error -32603: The disk is full: and the spare one too, .*…$/);
      assert.equal(cut.length, 80, 'cut with an ellipsis at a preview’s 80 characters');
      assert.equal(lines.get('Tool call: refused'), 'Quota used up: 500 requests a day', 'the tool error’s words');
      assert.equal(lines.get('Tool call: echo'), undefined, 'an answer says no error');
      assert.equal(lines.get('Tool call: stopped'), undefined, 'a cancel says who, in its badge');
      assert.equal(
        changed.find((entry) => entry.title === 'Tool call: broke')?.errorLine,
        'Error -32603: The tool broke'
      );
      assert.deepEqual(
        history.list({ text: 'tool broke' }).entries.map((entry) => entry.title),
        ['Tool call: broke'],
        'found by the words its row says'
      );
      history.close();
    });

    it('marks a requested task forgotten before it ended as lost, and leaves an ended one as it was', () => {
      const { history } = fresh();
      history.recordRequested(requested('running'));
      history.recordRequested(
        requested('done', {
          state: 'completed',
          outcome: { type: 'result', result: { content: [] }, fetchedAt: '2026-06-01T00:00:02.000Z' }
        })
      );
      history.recordForgotten('running');
      history.recordForgotten('done');
      history.recordForgotten('never-recorded');
      const lost = history.get('requested:running')!;
      assert.equal(lost.status, 'lost');
      assert.match(lost.statusMessage ?? '', /^Forgotten in Taskdesk before it ended/);
      assert.deepEqual(
        lost.timeline.map((step) => step.status),
        ['working', 'lost']
      );
      assert.equal(history.get('requested:done')!.status, 'completed');
      assert.equal(history.size, 2);
      history.close();
    });

    it('keeps what ran beside what the server sent when the person changed a model request, task or not', () => {
      const { history, changed, dataDir, clock } = fresh();
      const { asked, ran } = editedRequest;
      const task = (extra: Partial<TaskRecord> = {}, task: Partial<TaskRecord['task']> = {}) =>
        received('s1', task, { kind: 'sampling', request: asked, ...extra });
      // The runner notes what ran once the person approved: the entry takes it with no step of its own.
      history.recordReceived('s1', task());
      history.recordReceived(
        's1',
        task({ notes: [{ phase: 'awaiting-approval' }, { ranRequest: ran, changed: ['messages'] }] })
      );
      const entry = history.get('received:s1')!;
      assert.deepEqual(entry.request, asked, 'the request as the server sent it stays');
      assert.deepEqual(entry.ranRequest, ran);
      assert.equal(entry.timeline.length, 1);
      assert.equal(changed.at(-1)?.edited, true, 'the summary says it was changed');
      assert.equal(changed.at(-1)?.title, 'Write a haiku about queues');
      history.recordReceived(
        's1',
        task(
          {
            notes: [{ ranRequest: ran }],
            outcome: {
              type: 'result',
              result: { role: 'assistant', content: { type: 'text', text: 'Ok' }, model: 'm' }
            }
          },
          { status: 'completed', lastUpdatedAt: '2026-06-01T00:00:05.000Z' }
        )
      );
      assert.deepEqual(history.get('received:s1')!.ranRequest, ran, 'and is kept to the end');

      history.recordReceivedRequest({
        owner: { serverId: 'alpha', serverName: 'Alpha', identity: 'id-alpha' },
        kind: 'sampling',
        request: asked,
        askedAt: '2026-06-01T00:00:01.000Z',
        endedAt: '2026-06-01T00:00:03.000Z',
        steps: [],
        notes: [{ ranRequest: ran, changed: ['messages'] }],
        outcome: { type: 'result', result: { role: 'assistant', content: { type: 'text', text: 'Ok' }, model: 'm' } }
      });
      const plain = history.list({ text: 'haiku' }).entries.find((summary) => summary.id.startsWith('request:'))!;
      assert.equal(plain.edited, true);
      assert.deepEqual(history.get(plain.id)!.request, asked);
      assert.deepEqual(history.get(plain.id)!.ranRequest, ran);
      assert.equal(history.list({}).entries.filter((summary) => summary.edited).length, 2);
      history.close();
      const reopened = openHistory(dataDir, clock).history;
      assert.deepEqual(reopened.get(plain.id)!.ranRequest, ran, 'kept across a restart');
      reopened.close();
    });

    it('follows what ran across tries after a failed run: changed again, then undone', () => {
      const { history } = fresh();
      const { asked, ran } = editedRequest;
      const task = (notes: Array<Record<string, unknown>>) =>
        received('s1', {}, { kind: 'sampling', request: asked, notes });
      const first = { ranRequest: ran, changed: ['messages'] };
      const second = { ranRequest: { ...ran, maxTokens: 7 }, changed: ['messages', 'maxTokens'] };
      history.recordReceived('s1', task([first]));
      assert.deepEqual(history.get('received:s1')!.ranRequest, ran);
      // The run failed; the person changed it again and tried again.
      history.recordReceived('s1', task([first, { phase: 'model' }, second]));
      assert.deepEqual(history.get('received:s1')!.ranRequest, second.ranRequest, 'the last try’s request');
      // Failed again; this time they undid their changes: it ran as the server sent it.
      history.recordReceived('s1', task([first, second, { ranRequest: null, changed: [] }]));
      assert.equal(history.get('received:s1')!.ranRequest, undefined);
      assert.equal(history.list({}).entries[0]!.edited, undefined);
      history.close();
    });

    it('filters rejected model requests by "rejected", apart from the failed ones', () => {
      const { history } = fresh();
      const sampling = { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 5 };
      const failed = (taskId: string, code: number) =>
        received(
          taskId,
          { status: 'failed', lastUpdatedAt: '2026-06-01T00:00:02.000Z' },
          { kind: 'sampling', request: sampling, outcome: { type: 'error', error: { code, message: 'No' } } }
        );
      history.recordReceived('s1', failed('s1', -1));
      history.recordReceived('s2', failed('s2', -32603));
      assert.deepEqual(
        history.list({ status: 'rejected' }).entries.map((summary) => summary.id),
        ['received:s1']
      );
      assert.deepEqual(
        history.list({ status: 'failed' }).entries.map((summary) => summary.id),
        ['received:s2'],
        'a row badged Rejected is not found as Failed'
      );
      history.close();
    });

    it('finds a task whose server waits for an answer by the words its badge and Status filter say, not the protocol’s', () => {
      const { history } = fresh();
      history.recordRequested(requested('o1', { state: 'input_required' }));
      history.recordRequested(requested('o2'));
      const ids = (filter: Parameters<typeof history.list>[0]) =>
        history.list(filter).entries.map((summary) => summary.id);
      assert.deepEqual(ids({ status: 'input_required' }), ['requested:o1']);
      assert.deepEqual(ids({ text: 'waiting for taskdesk' }), ['requested:o1']);
      assert.deepEqual(ids({ text: 'input required' }), [], 'words no row shows');
      history.close();
    });

    it('finds an entry by the preview its row shows beside the title', () => {
      const { history } = fresh();
      history.recordRequested(requested('o1', { arguments: { topic: 'ambiguous topic' } }));
      history.recordRequested(requested('o2', { arguments: { topic: 'tides' } }));
      assert.equal(
        history.list({}).entries.find((entry) => entry.id === 'requested:o1')?.preview,
        'topic: "ambiguous topic"'
      );
      assert.deepEqual(
        history.list({ text: 'AMBIGUOUS' }).entries.map((summary) => summary.id),
        ['requested:o1']
      );
      assert.deepEqual(
        history.list({ text: 'simulate tides' }).entries.map((summary) => summary.id),
        ['requested:o2']
      );
      history.close();
    });

    it('finds the calls the Assistant made by "assistant", as their rows say "by the Assistant", and not the person’s own', () => {
      const { history } = fresh();
      const byAssistant = { kind: 'assistant' as const, conversationId: 'c1' };
      const call = (message: string, origin?: typeof byAssistant) => ({
        call: {
          callId: message,
          serverId: 'beta',
          serverName: 'Beta',
          toolName: 'echo',
          startedAt: '2026-06-01T00:00:01.000Z',
          endedAt: '2026-06-01T00:00:02.000Z',
          state: 'completed' as const,
          ...(origin && { origin })
        },
        arguments: { message }
      });
      history.recordCall(call('mine'));
      history.recordCall(call('theirs', byAssistant));
      history.recordRequested(requested('o1', { origin: byAssistant }));
      history.recordRequested(requested('o2'));
      const previews = (text: string) =>
        history
          .list({ text })
          .entries.map((summary) => summary.preview ?? summary.id)
          .sort();
      assert.deepEqual(previews('assistant'), ['message: "theirs"', 'topic: "tides"']);
      assert.deepEqual(previews('By the Assistant'), previews('assistant'), 'the words of the row find them too');
      assert.deepEqual(
        previews('assistant tides'),
        ['topic: "tides"'],
        'and with other words, only the one that has them all'
      );
      assert.equal(history.list({}).total, 4);
      history.close();
    });
    it('says a received task whose question or model request waits in the Inbox is waiting for you, as Tasks does, and finds it so', () => {
      const { history, changed } = fresh();
      const sampling = { messages: [{ role: 'user', content: { type: 'text', text: 'Plan the week' } }], maxTokens: 5 };
      const waiting = (taskId: string, statusMessage: string, kind: 'sampling' | 'elicitation' = 'sampling') =>
        received(taskId, { statusMessage }, kind === 'sampling' ? { kind, request: sampling } : {});
      // As the Inbox's runners say it to the task's server (`WAITING_IN_INBOX`), with what to do after it.
      history.recordReceived(
        's1',
        waiting('s1', 'Waiting for your answer in the Inbox: approve a sampling request from Alpha')
      );
      history.recordReceived('q1', waiting('q1', 'Waiting for your answer in the Inbox', 'elicitation'));
      // Working on its own: the model writes the answer the person approved.
      history.recordReceived('s2', waiting('s2', 'Approved by you; m is writing the answer.'));
      history.recordRequested(requested('o1'));
      const ids = (filter: Parameters<typeof history.list>[0]) =>
        history
          .list(filter)
          .entries.map((summary) => summary.id)
          .sort();
      assert.equal(changed.find((summary) => summary.id === 'received:s1')?.waitsOnYou, true, 'the event says it');
      assert.equal(history.get('received:s1')?.waitsOnYou, true, 'and the whole entry');
      assert.deepEqual(ids({ status: 'waiting' }), ['received:q1', 'received:s1']);
      assert.deepEqual(ids({ text: 'waiting for you' }), ['received:q1', 'received:s1']);
      // The person's Decline of q1 waits out its undo window in the Desk: it waits on them no more.
      assert.deepEqual(ids({ status: 'waiting', heldTaskIds: ['q1'] }), ['received:s1']);
      assert.equal(history.list({ status: 'waiting', heldTaskIds: ['q1'] }).total, 1);
      // Only "Waiting for you" leaves it out: it still works, by its protocol status.
      assert.ok(ids({ status: 'working', heldTaskIds: ['q1'] }).includes('received:q1'));
      // Still Working by its protocol status, as the Tasks screen's "Working" finds it.
      assert.deepEqual(ids({ status: 'working' }), ['received:q1', 'received:s1', 'received:s2', 'requested:o1']);
      assert.equal(history.list({}).entries.find((summary) => summary.id === 'received:s2')?.waitsOnYou, undefined);

      // Answered: it no longer waits, and is no longer found so.
      history.recordReceived(
        's1',
        received(
          's1',
          { status: 'completed', lastUpdatedAt: '2026-06-01T00:00:05.000Z' },
          {
            kind: 'sampling',
            request: sampling,
            outcome: {
              type: 'result',
              result: { role: 'assistant', content: { type: 'text', text: 'Ok' }, model: 'm' }
            }
          }
        )
      );
      history.recordReceived('q1', undefined);
      assert.deepEqual(ids({ status: 'waiting' }), []);
      assert.deepEqual(ids({ text: 'waiting for you' }), []);
      assert.equal(history.get('received:s1')?.waitsOnYou, undefined);
      history.close();
    });

    it('says a received task’s steps as what happened: asked, waiting for you, and a Cancel in Taskdesk once', () => {
      const { history } = fresh();
      const at = (second: number) => `2026-06-01T00:00:0${second}.000Z`;
      const step = (
        taskId: string,
        second: number,
        task: Partial<TaskRecord['task']>,
        extra: Partial<TaskRecord> = {}
      ) => history.recordReceived(taskId, received(taskId, { lastUpdatedAt: at(second), ...task }, extra));
      const steps = (id: string) =>
        history.get(id)!.timeline.map((each) => [each.at, each.status, each.label, each.message]);
      // Made with the receiver's words for every new task, then waiting in the Inbox, then cancelled
      // by the person on the Tasks screen.
      step('q1', 0, { statusMessage: 'Taskdesk is working on the request.' });
      step('q1', 1, { statusMessage: 'Waiting for your answer in the Inbox' });
      step(
        'q1',
        2,
        { status: 'cancelled', statusMessage: 'Cancelled by the user in Taskdesk.' },
        { notes: [{ cancelledBy: 'you' }] }
      );
      const cancelled = history.get('received:q1')!;
      assert.equal(cancelled.cancelledBy, 'you');
      assert.equal(cancelled.statusMessage, undefined, 'its badge says "Cancelled by you": not said again');
      assert.deepEqual(steps('received:q1'), [
        [at(0), 'working', 'Asked', undefined],
        [at(1), 'working', 'Waiting for you', 'Waiting for your answer in the Inbox'],
        [at(2), 'cancelled', undefined, undefined]
      ]);
      HistoryEntrySchema.parse(cancelled);

      // Cancelled by the person's act, in its words: said, for they tell what the person did.
      step('q2', 0, { statusMessage: 'Taskdesk is working on the request.' });
      step(
        'q2',
        1,
        { status: 'cancelled', statusMessage: 'You disconnected Alpha before it was answered' },
        { notes: [{ cancelledBy: 'you' }] }
      );
      assert.equal(history.get('received:q2')!.statusMessage, 'You disconnected Alpha before it was answered');

      // A model request run without asking: asked, then what the model does, said in its own words.
      const sampling = { messages: [{ role: 'user', content: { type: 'text', text: 'Plan the week' } }], maxTokens: 5 };
      step('s1', 0, { statusMessage: 'Taskdesk is working on the request.' }, { kind: 'sampling', request: sampling });
      step('s1', 1, { statusMessage: 'm is writing the answer.' }, { kind: 'sampling', request: sampling });
      assert.deepEqual(steps('received:s1'), [
        [at(0), 'working', 'Asked', undefined],
        [at(1), 'working', undefined, 'm is writing the answer.']
      ]);
      history.close();
    });

    it('finds a question by the call of Taskdesk’s its row says it was asked for, once that call is in History', () => {
      const { history } = fresh();
      const questions = (text: string) =>
        history
          .list({ kind: 'elicitation', text })
          .entries.map((summary) => summary.id)
          .sort();
      // Asked for the task of a call of `lookup` on the same server (its task id in the question's notes).
      history.recordReceived('q1', received('q1', {}, { notes: [{ relatedTaskId: 'server-o1' }] }));
      history.recordReceived('q2', received('q2'));
      assert.deepEqual(questions('lookup'), [], 'the call is not in History yet: its row names none');

      history.recordRequested(requested('o1', { serverId: 'alpha', serverName: 'Alpha', toolName: 'lookup' }));
      assert.deepEqual(
        history.list({ kind: 'elicitation' }).entries.find((summary) => summary.id === 'received:q1')?.forCall,
        {
          tool: 'lookup',
          how: 'for',
          entryId: 'requested:o1'
        }
      );
      assert.deepEqual(questions('call of lookup'), ['received:q1'], 'by the words its row shows');
      assert.deepEqual(questions('lookup'), ['received:q1'], 'by the tool’s name');
      assert.deepEqual(questions('for the call of LOOKUP'), ['received:q1']);
      assert.deepEqual(questions('while the call of lookup'), [], 'nor by words its row does not show');
      assert.deepEqual(questions('call of research'), []);
      history.close();
    });
  });
});
