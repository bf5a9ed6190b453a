import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import {
  CreateMessageResultSchema,
  CreateTaskResultSchema,
  ElicitResultSchema,
  GetTaskResultSchema,
  McpError,
  RELATED_TASK_META_KEY
} from '@modelcontextprotocol/sdk/types.js';
import type { AuditEntry, HostEventPayload, OutboundTaskView } from '../../../app/contract/host-api.js';
import type { Host } from '../../../app/host/host.js';
import { InboxSamplingRunner } from '../../../app/inbox/inbox-runners.js';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import { saveFakeProvider } from '../../support/assistant-fixture.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { inboxHolds, nextEvent, startHostWith } from '../../support/host-fixture.js';
import { ManualClock } from '../../support/manual-clock.js';
import { createTaskToolPeer } from '../../support/task-tool-server.js';

const form = { mode: 'form', requestedSchema: { type: 'object', properties: { pick: { type: 'string' } } } } as const;
const sampling = { messages: [{ role: 'user', content: { type: 'text', text: 'Which one?' } }], maxTokens: 20 };

/**
 * A task server (`slow` runs `durationMs` on the test's clock, `tasks/cancel` declared) joined to
 * a host whose sampling requests go to the Inbox for a person's reply, as with no model configured.
 */
async function start(clock: ManualClock) {
  const { mcp, peer } = createTaskToolPeer({ clock, pollInterval: 1000 });
  const fixture = await startHostWith({ a: peer }, { clock, sampling: ({ inbox }) => new InboxSamplingRunner(inbox) });
  return { mcp, fixture };
}

async function callSlow(host: Host, durationMs: number): Promise<OutboundTaskView> {
  const outcome = await host.call('tools.call', { serverId: 'a', name: 'slow', arguments: { durationMs } });
  assert.equal(outcome.type, 'task');
  return (outcome as { task: OutboundTaskView }).task;
}

function removals(host: Host): Array<HostEventPayload<'inbox.removed'>> {
  const seen: Array<HostEventPayload<'inbox.removed'>> = [];
  host.on('inbox.removed', (payload) => seen.push(payload));
  return seen;
}

function endedAs(host: Host, outboundId: string, state: OutboundTaskView['state']) {
  return nextEvent(
    host,
    'outbound.changed',
    (event) => event.type === 'changed' && event.task.outboundId === outboundId && event.task.state === state
  );
}

/**
 * The audit log's `inbox.withdrawn` entries, oldest first, without their times, nor the preview
 * of the question each names (audit-person.test.ts asserts it): here, why each was withdrawn.
 */
async function withdrawals(host: Host): Promise<Array<Omit<AuditEntry, 'at'>>> {
  return (await host.call('audit.read', { type: 'inbox.withdrawn' })).reverse().map(({ at: _at, ...rest }) => {
    if (!rest.detail) return rest;
    const { question, ...detail } = rest.detail;
    assert.equal(typeof question, 'string', 'each names its question');
    return { ...rest, detail };
  });
}

/** Entries in one order: by kind, then those of a received task last. */
function byKind<T extends { taskId?: string; detail?: Record<string, unknown> }>(entries: T[]): T[] {
  const key = (entry: T) => `${String(entry.detail?.kind)} ${entry.taskId === undefined ? 0 : 1}`;
  return [...entries].sort((a, b) => key(a).localeCompare(key(b)));
}

/**
 * What each test of the suite it is called in starts with: a host as {@link start} makes it,
 * disposed after the test, with one `slow` task of `durationMs` running; and the server's
 * questions for that task.
 */
function runningTasks() {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return async (durationMs: number) => {
    const clock = new ManualClock();
    const { mcp, fixture } = await start(clock);
    cleanups.push(() => fixture.dispose());
    const host = fixture.host;
    const task = await callSlow(host, durationMs);
    const related = { [RELATED_TASK_META_KEY]: { taskId: task.taskId } };
    return {
      clock,
      mcp,
      host,
      task,
      related,
      /** The server's elicitation for the task. */
      elicit: (message: string) =>
        mcp.server.request(
          { method: 'elicitation/create', params: { ...form, message, _meta: related } },
          ElicitResultSchema
        ),
      /** The server's model request for the task: its result, or the error it was answered with. */
      sample: () =>
        mcp.server
          .request(
            { method: 'sampling/createMessage', params: { ...sampling, _meta: related } },
            CreateMessageResultSchema
          )
          .catch((error: unknown) => error)
    };
  };
}

describe("questions a server asked for one of Taskdesk's own tasks, once that task ends", () => {
  const running = runningTasks();

  it('Cancel withdraws them from the Inbox: the elicitation is answered cancel, the sampling request −1 saying Taskdesk withdrew it, a task of its own ends with the cancel answer, and the audit log says why', async () => {
    const { mcp, host, task, related, elicit, sample } = await running(3_600_000);
    const elicited = elicit('Which one, for the task?');
    const sampled = sample();
    // A task-augmented question for the same task: the task Taskdesk received for it is answered the same way.
    const { task: received } = await mcp.server.request(
      {
        method: 'elicitation/create',
        params: { ...form, message: 'Asked as a task', task: { ttl: 3_600_000 }, _meta: related }
      },
      CreateTaskResultSchema
    );
    // Not for that task: it stays.
    const unrelated = mcp.server.request(
      { method: 'elicitation/create', params: { ...form, message: 'Something else' } },
      ElicitResultSchema
    );
    await inboxHolds(host, 4);
    const removed = removals(host);

    const cancelled = endedAs(host, task.outboundId, 'cancelled');
    await host.call('outbound.cancel', { outboundId: task.outboundId });
    await cancelled;

    const left = await host.call('inbox.list', {});
    assert.deepEqual(
      left.map((item) => item.request.message),
      ['Something else'],
      'only the question that was not for the task is left'
    );
    // The reply to a request of a task carries the task's metadata, as any other does.
    assert.deepEqual(await elicited, { action: 'cancel', _meta: related });
    const rejection = await sampled;
    assert.ok(rejection instanceof McpError);
    assert.equal(rejection.code, -1);
    assert.match(rejection.message, /Taskdesk withdrew this request: The task this was asked for \(tool slow\)/);
    assert.doesNotMatch(rejection.message, /User rejected/);
    const reason = 'The task this was asked for (tool slow) was cancelled by you.';
    // The person's own Cancel is why: said so (`byYou`), so that the Desk does not warn them of it.
    assert.deepEqual(
      removed.map((payload) => [payload.why, payload.reason, payload.byYou]),
      [
        ['withdrawn', reason, true],
        ['withdrawn', reason, true],
        ['withdrawn', reason, true]
      ]
    );
    const ended = await host.call('tasks.get', { taskId: received.taskId });
    assert.deepEqual(
      [ended.task.status, ended.outcome],
      ['completed', { type: 'result', result: { action: 'cancel' } }]
    );
    assert.deepEqual(
      ended.notes.find((note) => 'answeredBy' in note),
      // Answered by Taskdesk, not the person; but the person's Cancel is why (History says so).
      { answeredBy: 'taskdesk', action: 'cancel', reason, byYou: true },
      'not said to be the person'
    );

    // In the order the questions came in, which the server's requests do not fix: sorted alike.
    const detail = (kind: string) => ({ kind, relatedTaskId: task.taskId, reason });
    const subject = { type: 'inbox.withdrawn', serverId: 'a', serverName: 'Server a' };
    assert.deepEqual(
      byKind(await withdrawals(host)),
      byKind([
        { ...subject, detail: detail('elicitation') },
        { ...subject, detail: detail('sampling') },
        { ...subject, taskId: received.taskId, detail: detail('elicitation') }
      ])
    );

    // A question for the task that comes after it ended (the server had not heard yet) is answered
    // as it comes in, without entering the Inbox (see the next suite).
    const late = mcp.server.request(
      { method: 'elicitation/create', params: { ...form, message: 'One more?', _meta: related } },
      ElicitResultSchema
    );
    assert.deepEqual(await late, { action: 'cancel', _meta: related });
    assert.equal(host.inbox.size, 1, 'only the question that was not for the task');

    // The question that was not for the task is still answered by the person.
    await host.call('inbox.answer', { id: left[0]!.id, answer: { action: 'decline' } });
    assert.deepEqual(await unrelated, { action: 'decline' });
  });

  it('History records each as cancelled by you (you cancelled its task), withdrawn by Taskdesk with why, for its task, not as answered or rejected by the person', async () => {
    const { host, task, related, elicit, sample } = await running(3_600_000);
    const elicited = elicit('Which one, for the task?');
    const sampled = sample();
    await inboxHolds(host, 2);
    const cancelled = endedAs(host, task.outboundId, 'cancelled');
    await host.call('outbound.cancel', { outboundId: task.outboundId });
    await cancelled;
    // The server is still answered as a dismissal: cancel, and −1.
    assert.deepEqual(await elicited, { action: 'cancel', _meta: related });
    assert.equal(((await sampled) as McpError).code, -1);

    const reason = 'The task this was asked for (tool slow) was cancelled by you.';
    const { entries } = await host.call('history.list', { filter: { direction: 'received' } });
    assert.deepEqual(
      byKind(entries.map((entry) => ({ ...entry, detail: { kind: entry.kind } }))).map((entry) => [
        entry.kind,
        entry.status,
        entry.cancelledBy,
        entry.rejected,
        entry.statusMessage,
        entry.taskId,
        entry.relatedTaskId
      ]),
      [
        [
          'elicitation',
          'cancelled',
          'you',
          undefined,
          `${reason} Taskdesk withdrew it, and told its server it was dismissed.`,
          undefined,
          task.taskId
        ],
        [
          'sampling',
          'cancelled',
          'you',
          undefined,
          `${reason} Taskdesk withdrew it, and told its server it was declined.`,
          undefined,
          task.taskId
        ]
      ]
    );
    const question = await host.call('history.get', {
      id: entries.find((entry) => entry.kind === 'elicitation')!.id
    });
    assert.equal(question.result, undefined, 'no answer of the person to show');
    assert.deepEqual(question.timeline.at(-1)?.status, 'cancelled');
    assert.match(question.timeline.at(-1)?.message ?? '', /was cancelled by you\. Taskdesk withdrew it/);
  });

  it('History records one asked as a task of its own the same way, while that task ends as its server was told', async () => {
    const { mcp, host, task, related } = await running(3_600_000);
    const asTask = { task: { ttl: 3_600_000 }, _meta: related };
    const { task: question } = await mcp.server.request(
      { method: 'elicitation/create', params: { ...form, message: 'Which one, as a task?', ...asTask } },
      CreateTaskResultSchema
    );
    const { task: modelRequest } = await mcp.server.request(
      { method: 'sampling/createMessage', params: { ...sampling, ...asTask } },
      CreateTaskResultSchema
    );
    await inboxHolds(host, 2);
    const recorded = (taskId: string) =>
      nextEvent(host, 'history.changed', ({ entry }) => entry.taskId === taskId && entry.endedAt !== undefined);
    const recordedQuestion = recorded(question.taskId);
    const recordedModelRequest = recorded(modelRequest.taskId);
    const cancelled = endedAs(host, task.outboundId, 'cancelled');
    await host.call('outbound.cancel', { outboundId: task.outboundId });
    await cancelled;
    await Promise.all([recordedQuestion, recordedModelRequest]);

    // The server is told what it was before: the question's task completed with cancel, the
    // model request's failed with −1, each saying so in its protocol status (asked once its
    // result is served: what a server sees is what is on disk).
    const status = async (taskId: string) =>
      (await mcp.server.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema)).status;
    assert.deepEqual(
      await mcp.server.request({ method: 'tasks/result', params: { taskId: question.taskId } }, ElicitResultSchema),
      { action: 'cancel', _meta: { [RELATED_TASK_META_KEY]: { taskId: question.taskId } } }
    );
    assert.equal(await status(question.taskId), 'completed');
    const rejection = await mcp.server
      .request({ method: 'tasks/result', params: { taskId: modelRequest.taskId } }, CreateMessageResultSchema)
      .catch((error: unknown) => error);
    assert.ok(rejection instanceof McpError);
    assert.equal(rejection.code, -1);
    assert.equal(await status(modelRequest.taskId), 'failed');
    // So do the Tasks screen's tasks: their protocol status and outcome are the server's.
    const ended = await host.call('tasks.get', { taskId: question.taskId });
    assert.deepEqual(
      [ended.task.status, ended.outcome],
      ['completed', { type: 'result', result: { action: 'cancel' } }]
    );
    assert.equal((await host.call('tasks.get', { taskId: modelRequest.taskId })).task.status, 'failed');

    const reason = 'The task this was asked for (tool slow) was cancelled by you.';
    // But they, and their list summaries, say Taskdesk withdrew them and why, as History does: no
    // answer of the person's, which the Tasks screen then shows as cancelled, by the person here
    // (they cancelled the task the questions were for).
    const listed = await host.call('tasks.list', {});
    for (const [taskId, told] of [
      [question.taskId, 'dismissed'],
      [modelRequest.taskId, 'declined']
    ] as const) {
      const withdrawn = `${reason} Taskdesk withdrew it, and told its server it was ${told}.`;
      const whole = await host.call('tasks.get', { taskId });
      const summary = listed.find((task) => task.task.taskId === taskId);
      assert.deepEqual([whole.withdrawn, whole.cancelledBy], [withdrawn, 'you']);
      assert.deepEqual([summary?.withdrawn, summary?.cancelledBy], [withdrawn, 'you']);
    }
    const { entries } = await host.call('history.list', { filter: { direction: 'received' } });
    assert.deepEqual(
      byKind(entries.map((entry) => ({ ...entry, detail: { kind: entry.kind } }))).map((entry) => [
        entry.kind,
        entry.taskId,
        entry.status,
        entry.cancelledBy,
        entry.rejected,
        entry.statusMessage,
        entry.relatedTaskId
      ]),
      [
        [
          'elicitation',
          question.taskId,
          'cancelled',
          'you',
          undefined,
          `${reason} Taskdesk withdrew it, and told its server it was dismissed.`,
          task.taskId
        ],
        [
          'sampling',
          modelRequest.taskId,
          'cancelled',
          'you',
          undefined,
          `${reason} Taskdesk withdrew it, and told its server it was declined.`,
          task.taskId
        ]
      ]
    );
    for (const taskId of [question.taskId, modelRequest.taskId]) {
      const entry = await host.call('history.get', { id: `received:${taskId}` });
      assert.equal(entry.result, undefined, 'no answer of the person to show');
      assert.equal(entry.error, undefined, 'no failure or rejection of the person');
      assert.equal(entry.timeline.at(-1)?.status, 'cancelled');
      assert.match(entry.timeline.at(-1)?.message ?? '', /was cancelled by you\. Taskdesk withdrew it/);
    }
    const found = await host.call('history.list', { filter: { status: 'cancelled', direction: 'received' } });
    assert.equal(found.total, 2, "found by History's Cancelled filter");
  });

  it('a task that completes on its own withdraws a question still open for it', async () => {
    const { clock, host, task, related, elicit } = await running(5_000);
    const elicited = elicit('Too late?');
    await inboxHolds(host, 1);
    const removed = removals(host);
    const completed = endedAs(host, task.outboundId, 'completed');
    await clock.advance(6_000);
    await completed;

    assert.equal(host.inbox.size, 0);
    assert.deepEqual(await elicited, { action: 'cancel', _meta: related });
    const reason = 'The task this was asked for (tool slow) completed without it.';
    assert.deepEqual(removed, [{ id: removed[0]?.id, why: 'withdrawn', reason }]);
    assert.deepEqual(
      (await withdrawals(host)).map((entry) => entry.detail),
      [{ kind: 'elicitation', relatedTaskId: task.taskId, reason }]
    );
  });

  it('Forget on a task that may still run withdraws its questions too: nobody follows it any more', async () => {
    const { host, task, related, elicit } = await running(600_000);
    const elicited = elicit('Still there?');
    await inboxHolds(host, 1);
    const removed = removals(host);
    await host.call('outbound.forget', { outboundId: task.outboundId });
    assert.equal(host.inbox.size, 0);
    assert.deepEqual(await elicited, { action: 'cancel', _meta: related });
    assert.deepEqual(
      removed.map((payload) => [payload.reason, payload.byYou]),
      [['The task this was asked for (tool slow) was forgotten in Taskdesk.', true]]
    );
  });
});

describe('questions that come in after the task they were asked for is over in Taskdesk', () => {
  const running = runningTasks();

  /** What the Desk hears of the Inbox from now on. */
  function heard(host: Host): string[] {
    const seen: string[] = [];
    host.on('inbox.added', ({ item }) => seen.push(`added ${item.kind}`));
    host.on('inbox.removed', ({ why }) => seen.push(`removed ${why}`));
    return seen;
  }

  /** The server's elicitation, or 'in the Inbox' should it be put before the person instead. */
  function elicitation(host: Host, mcp: Awaited<ReturnType<typeof start>>['mcp'], params: Record<string, unknown>) {
    return Promise.race([
      mcp.server.request({ method: 'elicitation/create', params: { ...form, ...params } }, ElicitResultSchema),
      inboxHolds(host, 1).then(() => 'in the Inbox' as const)
    ]);
  }

  it('one for a task that has ended never enters the Inbox: the server is answered as a withdrawal answers it, the audit log says why, and the Desk hears nothing', async () => {
    const { clock, mcp, host, task, related, sample } = await running(5_000);
    const completed = endedAs(host, task.outboundId, 'completed');
    await clock.advance(6_000);
    await completed;
    const desk = heard(host);

    assert.deepEqual(await elicitation(host, mcp, { message: 'Late?', _meta: related }), {
      action: 'cancel',
      _meta: related
    });
    const rejection = await sample();
    assert.ok(rejection instanceof McpError);
    assert.equal(rejection.code, -1);
    const reason = 'The task this was asked for (tool slow) completed without it.';
    assert.match(
      rejection.message,
      /Taskdesk withdrew this request: The task this was asked for \(tool slow\) completed/
    );
    // Asked as a task of its own: that task ends with the cancel answer, said to be Taskdesk's.
    const { task: received } = await mcp.server.request(
      {
        method: 'elicitation/create',
        params: { ...form, message: 'Late, as a task?', task: { ttl: 60_000 }, _meta: related }
      },
      CreateTaskResultSchema
    );
    let ended = await host.call('tasks.get', { taskId: received.taskId });
    for (let turn = 0; ended.task.status !== 'completed' && turn < 100; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
      ended = await host.call('tasks.get', { taskId: received.taskId });
    }
    assert.deepEqual(ended.outcome, { type: 'result', result: { action: 'cancel' } });
    assert.deepEqual(
      ended.notes.find((note) => 'answeredBy' in note),
      { answeredBy: 'taskdesk', action: 'cancel', reason }
    );

    assert.equal(host.inbox.size, 0);
    assert.deepEqual(desk, [], 'the person never saw them: no new question, no withdrawn notice');
    const detail = (kind: string) => ({ kind, relatedTaskId: task.taskId, reason, atArrival: true });
    const subject = { type: 'inbox.withdrawn', serverId: 'a', serverName: 'Server a' };
    assert.deepEqual(byKind(await withdrawals(host)), [
      { ...subject, detail: detail('elicitation') },
      { ...subject, taskId: received.taskId, detail: detail('elicitation') },
      { ...subject, detail: detail('sampling') }
    ]);
  });

  it('one for a task the person forgot is answered the same way; one for a task Taskdesk never had still goes to the Inbox', async () => {
    const { mcp, host, task, related } = await running(600_000);
    await host.call('outbound.forget', { outboundId: task.outboundId });
    const desk = heard(host);

    assert.deepEqual(await elicitation(host, mcp, { message: 'Still there?', _meta: related }), {
      action: 'cancel',
      _meta: related
    });
    assert.deepEqual(desk, []);
    assert.deepEqual(
      (await withdrawals(host)).map((entry) => entry.detail),
      [
        {
          kind: 'elicitation',
          relatedTaskId: task.taskId,
          reason: 'The task this was asked for (tool slow) was forgotten in Taskdesk.',
          atArrival: true
        }
      ]
    );

    // Nothing says what it is for: the person answers it, as before.
    const unknown = { [RELATED_TASK_META_KEY]: { taskId: 'a-task-of-someone-else' } };
    assert.equal(await elicitation(host, mcp, { message: 'Whose?', _meta: unknown }), 'in the Inbox');
    const [item] = await host.call('inbox.list', {});
    await host.call('inbox.answer', { id: item!.id, answer: { action: 'decline' } });
    assert.deepEqual(desk, ['added elicitation', 'removed answered']);
  });
});

describe('a model request under "Run without asking" for a task that is over in Taskdesk', () => {
  it('is withdrawn as it comes in, without running the model; one for a running task runs', async () => {
    const clock = new ManualClock();
    const llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    const { mcp, peer } = createTaskToolPeer({ clock, pollInterval: 1000 });
    const fixture = await startHostWith({ a: peer }, { clock, keyStore: new InMemoryKeyStore() });
    try {
      const host = fixture.host;
      await saveFakeProvider(host, llm.baseURL);
      await host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'auto', reviewCompletion: false } });
      const running = await callSlow(host, 600_000);
      const ending = await callSlow(host, 5_000);
      const completed = endedAs(host, ending.outboundId, 'completed');
      await clock.advance(6_000);
      await completed;

      const ask = (taskId: string) =>
        mcp.server
          .request(
            {
              method: 'sampling/createMessage',
              params: { ...sampling, _meta: { [RELATED_TASK_META_KEY]: { taskId } } }
            },
            CreateMessageResultSchema
          )
          .catch((error: unknown) => error);
      const late = await ask(ending.taskId);
      assert.ok(late instanceof McpError);
      assert.equal(late.code, -1);
      assert.match(
        late.message,
        /^MCP error -1: Taskdesk withdrew this request: The task this was asked for \(tool slow\) completed without it\.$/
      );
      assert.equal(llm.chatRequests.length, 0, 'the model was not run for it');
      const [audited] = await host.call('audit.read', { type: 'sampling.request' });
      assert.equal(audited?.detail?.decision, 'withdrawn');
      const [recorded] = (await host.call('history.list', { filter: { kind: 'sampling' } })).entries;
      assert.deepEqual(
        [recorded?.status, recorded?.cancelledBy, recorded?.statusMessage],
        [
          'cancelled',
          'taskdesk',
          'The task this was asked for (tool slow) completed without it. Taskdesk withdrew it, and told its server it was declined.'
        ],
        'History says Taskdesk withdrew it, and why'
      );

      llm.enqueue({ kind: 'text', tokens: ['Fine.'] });
      const answered = await ask(running.taskId);
      assert.ok(!(answered instanceof Error), String(answered));
      assert.equal(llm.chatRequests.length, 1);
    } finally {
      await fixture.dispose();
      await llm.close();
    }
  });
});
