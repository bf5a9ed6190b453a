import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InboundTask, InboxItem, OutboundTaskView, ServerView } from '../../../app/contract/host-api.js';
import { cancelledByWords } from '../../../renderer/components/cancelled-words.js';
import {
  itemOutcome,
  matchesTask,
  NO_TASK_FILTER,
  notFetchedOf,
  notFetchedTasks,
  receivedItem,
  requestedItem,
  shownStatus,
  toolTaskWaitsOnYou,
  WAITING_FOR_YOU,
  WAITING_FOR_YOU_LABEL,
  waitingTasks,
  waitsOnYou
} from '../../../renderer/tasks/task-items.js';
import { statusLabel } from '../../../renderer/components/status-words.js';
import { notFetchedLine, unfetchedOf } from '../../../renderer/tasks/unfetched-answer.js';
import { inboundView } from '../../../app/host/inbound-view.js';
import { inboundSummary } from '../../../app/host/task-summary.js';
import { TASK_RECORD_VERSION, type TaskRecord } from '../../../app/receiver/task-record.js';

const at = '2026-06-01T00:00:00.000Z';

function received(outcome: InboundTask['outcome'], status: InboundTask['task']['status']): InboundTask {
  return {
    task: { taskId: 'r1', status, createdAt: at, lastUpdatedAt: at, ttl: 60_000 },
    serverId: 'a',
    serverName: 'Server a',
    kind: 'sampling',
    request: { messages: [{ role: 'user', content: { type: 'text', text: 'Plan the offsite' } }] },
    notes: [],
    ...(outcome && { outcome })
  };
}

function requested(extra: Partial<OutboundTaskView>): OutboundTaskView {
  return {
    outboundId: 'o1',
    serverId: 'a',
    serverName: 'Server a',
    toolName: 'slow',
    arguments: {},
    requestedTtl: null,
    createdAt: at,
    updatedAt: at,
    taskId: 't-o1',
    state: 'working',
    task: { taskId: 't-o1', status: 'working', createdAt: at, lastUpdatedAt: at, ttl: null },
    expiresAt: null,
    progress: { count: 0, history: [] },
    ...extra
  };
}

const search = (text: string) => ({ ...NO_TASK_FILTER, text });

/** A model request the person rejected, as the receiver keeps it, with its runner's `notes`. */
function rejectedRecord(notes: TaskRecord['notes']): TaskRecord {
  return {
    schemaVersion: TASK_RECORD_VERSION,
    task: { taskId: 'r1', status: 'failed', createdAt: at, lastUpdatedAt: at, ttl: 60_000 },
    owner: { serverId: 'a', serverName: 'Server a', identity: 'a' },
    kind: 'sampling',
    request: { messages: [{ role: 'user', content: { type: 'text', text: 'Plan the offsite' } }] },
    expiresAt: Date.parse(at) + 60_000,
    outcome: { type: 'error', error: { code: -1, message: 'User rejected sampling request' } },
    notes,
    sequence: 1
  };
}

describe('the Tasks screen’s rows', () => {
  it('finds a tool call by the arguments its row shows, as History’s search does', () => {
    const call = requestedItem(
      requested({ toolName: 'simulate-research-query', arguments: { topic: 'rust', ambiguous: true } })
    );
    assert.ok(matchesTask(call, search('rust')));
    assert.ok(matchesTask(call, search('topic: "rust"')));
    assert.ok(matchesTask(call, search('rust ambiguous simulate-research-query')));
    assert.ok(!matchesTask(call, search('python')));
  });

  it('says who cancelled a task once, under its badge: its outcome is "No result", and a search finds both', () => {
    const cancelled = requestedItem(requested({ state: 'cancelled', cancelledBy: 'you' }));
    assert.deepEqual(itemOutcome(cancelled), { muted: 'No result' });
    const theirs = receivedItem({
      ...received({ type: 'error', error: { code: -32800, message: 'Request cancelled' } }, 'cancelled'),
      cancelledBy: 'server'
    });
    assert.deepEqual(itemOutcome(theirs), { muted: 'No result' });
    // The words under the badge and the outcome's are found, as the row shows them.
    assert.ok(matchesTask(cancelled, search('cancelled by you')));
    assert.ok(matchesTask(cancelled, search('no result')));
    assert.ok(matchesTask(theirs, search('cancelled by the server')));
    assert.ok(!matchesTask(theirs, search('cancelled by you')));
    // Under the "Cancelled" badge only who did it, not "Cancelled" again; nothing when unknown.
    assert.deepEqual((['you', 'server', 'taskdesk', undefined] as const).map(cancelledByWords), [
      'by you',
      'by the server',
      'by Taskdesk',
      undefined
    ]);
  });

  it('finds a title’s typographic apostrophe by the one a person types', () => {
    const item = receivedItem({
      ...received({ type: 'result', result: { action: 'cancel' } }, 'completed'),
      kind: 'elicitation',
      request: { message: 'What’s the team’s city?', requestedSchema: { type: 'object', properties: {} } }
    });
    assert.ok(matchesTask(item, search("what's the team's")));
    assert.ok(matchesTask(item, search('WHAT’S')));
    assert.ok(!matchesTask(item, search("what's the team's town")));
  });

  it('says how a question ended as History does: Answered, Declined or Dismissed, not Completed', () => {
    const question = (result: Record<string, unknown>) =>
      receivedItem({
        ...received({ type: 'result', result }, 'completed'),
        kind: 'elicitation',
        request: {
          message: 'Which city?',
          requestedSchema: { type: 'object', properties: { city: { type: 'string' } } }
        }
      });
    const answered = question({ action: 'accept', content: { city: 'Paris' } });
    const declined = question({ action: 'decline' });
    const dismissed = question({ action: 'cancel' });
    assert.deepEqual([answered.label, declined.label, dismissed.label], ['Answered', 'Declined', 'Dismissed']);
    assert.deepEqual(itemOutcome(answered), {
      action: 'Accepted',
      fields: [{ name: 'city', title: 'city', value: 'Paris' }]
    });
    // The badge says it was declined or dismissed: the outcome does not say it again.
    assert.deepEqual(itemOutcome(declined), { muted: 'No answer' });
    assert.deepEqual(itemOutcome(dismissed), { muted: 'No answer' });
    assert.ok(matchesTask(declined, search('declined')));
    assert.ok(matchesTask(answered, search('answered paris')));
    // A model request run without asking and a requested task keep "Completed"; one the person
    // answered (wrote its reply, or approved it: `answered`) says "Answered", as History's row.
    const modelAnswer = received({ type: 'result', result: { content: { type: 'text', text: 'Hi' } } }, 'completed');
    assert.equal(receivedItem(modelAnswer).label, undefined);
    const answeredRequest = receivedItem({ ...modelAnswer, answered: true });
    assert.equal(answeredRequest.label, 'Answered');
    assert.equal(shownStatus(answeredRequest), 'answered', 'the Status filter’s Answered finds it');
    assert.equal(requestedItem(requested({ state: 'completed' })).label, undefined);
  });

  it('filters by status in the words of the badges: a question that ended is Answered, Declined or Dismissed, not Completed; a turned-down model request Rejected, not Failed', () => {
    const question = (action: string) =>
      receivedItem({
        ...received({ type: 'result', result: { action } }, 'completed'),
        kind: 'elicitation',
        request: { message: 'Which city?', requestedSchema: { type: 'object', properties: {} } }
      });
    const answered = question('accept');
    const declined = question('decline');
    const dismissed = question('cancel');
    const done = requestedItem(requested({ state: 'completed' }));
    const rejected = receivedItem(
      received({ type: 'error', error: { code: -1, message: 'User rejected sampling request' } }, 'failed')
    );
    const failed = requestedItem(requested({ state: 'failed' }));
    const all = [answered, declined, dismissed, done, rejected, failed];
    const picked = (status: string) => all.filter((item) => matchesTask(item, { ...NO_TASK_FILTER, status }));
    assert.deepEqual(picked('completed'), [done]);
    assert.deepEqual(picked('answered'), [answered]);
    assert.deepEqual(picked('declined'), [declined]);
    assert.deepEqual(picked('dismissed'), [dismissed]);
    assert.deepEqual(picked('failed'), [failed]);
    assert.deepEqual(picked('rejected'), [rejected]);
    assert.deepEqual(picked('ended'), all);
  });

  it('shows a question Taskdesk withdrew as cancelled with why (by the person when their cancel was why), not as what its server was told', () => {
    const why =
      'The task this was asked for (tool slow) completed without it. Taskdesk withdrew it, and told its server it was declined.';
    const withdrawn = receivedItem({
      ...received({ type: 'error', error: { code: -1, message: why } }, 'failed'),
      withdrawn: why
    });
    assert.deepEqual(
      [withdrawn.status, withdrawn.cancelledBy, withdrawn.rejected, withdrawn.running],
      ['cancelled', 'taskdesk', false, false]
    );
    assert.equal(itemOutcome(withdrawn), why);
    assert.ok(matchesTask(withdrawn, { ...NO_TASK_FILTER, status: 'cancelled' }));
    assert.ok(!matchesTask(withdrawn, search('rejected')));

    const dismissed = receivedItem({
      ...received({ type: 'result', result: { action: 'cancel' } }, 'completed'),
      kind: 'elicitation',
      withdrawn: why
    });
    assert.deepEqual([dismissed.status, dismissed.cancelledBy], ['cancelled', 'taskdesk']);

    // The person cancelled the task it was asked for: theirs, as History says (`cancelledBy: 'you'` on the view).
    const yours = receivedItem({
      ...received({ type: 'result', result: { action: 'cancel' } }, 'completed'),
      kind: 'elicitation',
      cancelledBy: 'you',
      withdrawn:
        'The task this was asked for (tool slow) was cancelled by you. Taskdesk withdrew it, and told its server it was dismissed.'
    });
    assert.deepEqual([yours.status, yours.cancelledBy], ['cancelled', 'you']);
  });

  it('finds a row by words of its outcome, and a turned-down model request by "rejected"', () => {
    const rejected = receivedItem(inboundSummary(rejectedRecord([{ phase: 'awaiting-approval' }])));
    assert.equal(rejected.rejected, true);
    // Rejected before any model ran (its notes say no model answered): said as History says it.
    assert.equal(itemOutcome(rejected), 'You rejected the model request; no model ran.');
    // Its approved run failed first, then the person rejected it: a model ran, and why it failed is said.
    const afterFailure = receivedItem(
      inboundSummary(
        rejectedRecord([
          { phase: 'awaiting-approval' },
          { phase: 'model', providerId: 'fake', model: 'fake-small' },
          { phase: 'awaiting-approval', lastFailure: { message: 'Fake LLM refused access.', providerId: 'fake' } }
        ])
      )
    );
    assert.equal(
      itemOutcome(afterFailure),
      'You rejected the model request after its model run failed (Fake LLM refused access); its server did not get an answer.'
    );
    assert.ok(matchesTask(rejected, search('rejected')));
    assert.ok(matchesTask(rejected, search('offsite no model ran')), 'by the words its row shows');

    const answered = requestedItem(
      requested({
        state: 'completed',
        outcome: { type: 'result', result: { content: [{ type: 'text', text: 'Tides peak at noon' }] }, fetchedAt: at }
      })
    );
    assert.ok(matchesTask(answered, search('tides noon')));
    assert.ok(!matchesTask(answered, search('rejected')));
  });

  it('says which the person rejected as the whole record does, however many notes its runner kept', () => {
    // Four approved runs failed and were tried again, then the fifth answered, and the person
    // rejected that answer in review: 18 notes, its last phase (the review) past the 12 a list keeps.
    const tries = Array.from({ length: 4 }, (_, index) => [
      {
        phase: 'awaiting-approval',
        ...(index > 0 && { lastFailure: { message: 'Fake LLM is overloaded.', providerId: 'fake' } })
      },
      { answeredBy: 'user', action: 'approve' },
      { phase: 'model', providerId: 'fake', model: 'fake-small' },
      { failure: 'Fake LLM is overloaded.' }
    ]).flat();
    const record = rejectedRecord([
      ...tries,
      { phase: 'awaiting-approval', lastFailure: { message: 'Fake LLM is overloaded.', providerId: 'fake' } },
      {
        phase: 'awaiting-review',
        providerId: 'fake',
        model: 'fake-small',
        result: { role: 'assistant', content: { type: 'text', text: 'Go to the coast.' } }
      }
    ]);
    const listed = inboundSummary(record);
    assert.equal(listed.truncated, true, 'the list’s copy of its notes is cut short');
    const said = 'You rejected the model’s answer; its server did not get it.';
    assert.equal(itemOutcome(receivedItem(listed)), said, 'the row, from the list');
    assert.equal(itemOutcome(receivedItem(inboundView(record))), said, 'as the whole record says it');
  });

  it('says why a tool task failed as its outcome, the error that failed it as a note, and none for the generic "has no result stored"', () => {
    const reason = 'The upstream service refused the job';
    const failedTask = (outcome: OutboundTaskView['outcome'], extra: Partial<OutboundTaskView> = {}) =>
      requestedItem(
        requested({
          state: 'failed',
          task: {
            taskId: 't-o1',
            status: 'failed',
            statusMessage: reason,
            createdAt: at,
            lastUpdatedAt: at,
            ttl: null
          },
          ...(outcome && { outcome }),
          ...extra
        })
      );
    const generic = failedTask({
      type: 'error',
      error: { code: -32603, message: 'Task 4480aa00-0000-4000-8000-000000000000 has no result stored' },
      fetchedAt: at
    });
    assert.deepEqual(itemOutcome(generic), { text: reason, note: '' });
    assert.ok(matchesTask(generic, search('upstream refused')));
    assert.ok(!matchesTask(generic, search('32603')));
    // Before tasks/result answered, the reason already says how it ended.
    assert.deepEqual(itemOutcome(failedTask(undefined)), { text: reason, note: '' });
    const specific = failedTask({ type: 'error', error: { code: -32000, message: 'Quota exceeded' }, fetchedAt: at });
    // The error is the tool's failure, not a result that could not be fetched: said as its card and detail say it.
    assert.deepEqual(itemOutcome(specific), {
      text: reason,
      note: 'The tool failed: Error -32000: Quota exceeded'
    });
    assert.ok(matchesTask(specific, search('tool failed quota')));
    // A message the task had while it ran says nothing of its end: the error is its outcome then.
    const interim = failedTask(
      { type: 'error', error: { code: -32000, message: 'Quota exceeded' }, fetchedAt: at },
      {
        messageFromRun: true
      }
    );
    assert.equal(itemOutcome(interim), 'The tool failed: Error -32000: Quota exceeded');
    // A 2026-07-28 task that failed with its JSON-RPC error and no status message of its end.
    const modern = requestedItem(
      requested({
        state: 'failed',
        protocol: '2026-07-28',
        outcome: { type: 'error', error: { code: -32050, message: 'disk is full' }, fetchedAt: at }
      })
    );
    assert.equal(itemOutcome(modern), 'The tool failed: Error -32050: disk is full');
  });

  it('says a completed tool task whose result could not be got so, and not that the tool failed', () => {
    const completed = requestedItem(
      requested({
        state: 'completed',
        outcome: {
          type: 'error',
          error: { code: -32603, message: 'The server reported the task completed but sent no result.' },
          fetchedAt: at
        }
      })
    );
    assert.equal(
      itemOutcome(completed),
      'Its result could not be fetched: Error -32603: The server reported the task completed but sent no result.'
    );
  });

  it('finds with "Waiting for you" the running tasks whose question or model request waits in the Inbox, and no other', () => {
    const asking = receivedItem({ ...received(undefined, 'working'), kind: 'elicitation' });
    const other = receivedItem({
      ...received(undefined, 'working'),
      task: { taskId: 'r2', status: 'working', createdAt: at, lastUpdatedAt: at, ttl: 60_000 }
    });
    const tool = requestedItem(requested({ state: 'input_required' }));
    const cancelling = requestedItem(
      requested({ outboundId: 'o2', taskId: 't-o2', state: 'input_required', cancelRequestedAt: at })
    );
    const item = (extra: Partial<InboxItem>): InboxItem => ({
      id: 'i',
      kind: 'elicitation',
      serverId: 'a',
      serverName: 'Server a',
      createdAt: at,
      request: {},
      ...extra
    });
    const waiting = waitingTasks([
      item({ id: 'r1', taskId: 'r1' }),
      item({ id: 'q1', relatedTaskId: 't-o1' }),
      item({ id: 'q2', relatedTaskId: 't-o2' }),
      // Another server's task of the same id waits on nothing of this one's.
      item({ id: 'r2', taskId: 'r2', serverId: 'b' })
    ]);
    const all = [asking, other, tool, cancelling];
    const picked = all.filter((task) => matchesTask(task, { ...NO_TASK_FILTER, status: WAITING_FOR_YOU }, waiting));
    assert.deepEqual(picked, [asking, tool]);
    // Nothing in the Inbox: nothing waits on the person, whatever its status says.
    assert.deepEqual(
      all.filter((task) => matchesTask(task, { ...NO_TASK_FILTER, status: WAITING_FOR_YOU })),
      []
    );
  });

  it('finds with "Waiting for Taskdesk" the tool tasks whose server waits on Taskdesk, not one whose row says "Waiting for you"', () => {
    // Whose answer each choice waits on, in its words: the person's, or Taskdesk's.
    assert.deepEqual(
      [WAITING_FOR_YOU_LABEL, statusLabel('input_required')],
      ['Waiting for you', 'Waiting for Taskdesk']
    );
    const asking = requestedItem(requested({ state: 'input_required' }));
    const fetching = requestedItem(requested({ outboundId: 'o2', taskId: 't-o2', state: 'input_required' }));
    const waiting = waitingTasks([
      {
        id: 'q1',
        kind: 'elicitation',
        serverId: 'a',
        serverName: 'Server a',
        createdAt: at,
        request: {},
        relatedTaskId: 't-o1'
      }
    ]);
    const found = (status: string) =>
      [asking, fetching].filter((task) => matchesTask(task, { ...NO_TASK_FILTER, status }, waiting));
    assert.deepEqual(found('input_required'), [fetching]);
    assert.deepEqual(found(WAITING_FOR_YOU), [asking]);
    // Nothing in the Inbox: both wait on Taskdesk.
    assert.deepEqual(
      [asking, fetching].filter((task) => matchesTask(task, { ...NO_TASK_FILTER, status: 'input_required' })),
      [asking, fetching]
    );
  });

  it('decides that a tool call’s task waits on the person as its row does, for its card and its call form', () => {
    const item = (extra: Partial<InboxItem>): InboxItem => ({
      id: 'q1',
      kind: 'elicitation',
      serverId: 'a',
      serverName: 'Server a',
      createdAt: at,
      request: {},
      relatedTaskId: 't-o1',
      ...extra
    });
    const asking = requested({ state: 'input_required' });
    assert.equal(toolTaskWaitsOnYou(asking, [item({})]), true);
    assert.equal(toolTaskWaitsOnYou(asking, [item({ kind: 'sampling' })]), true, 'a model request too');
    // As the Tasks row: nothing in the Inbox for it, another server's, a call that is no task, or
    // a task the person asked to cancel, or one that ended: it does not wait on them.
    assert.equal(toolTaskWaitsOnYou(asking, []), false);
    assert.equal(toolTaskWaitsOnYou(asking, [item({ serverId: 'b' })]), false);
    assert.equal(toolTaskWaitsOnYou(asking, [item({ relatedCall: true })]), false);
    assert.equal(toolTaskWaitsOnYou({ ...asking, cancelRequestedAt: at }, [item({})]), false);
    assert.equal(toolTaskWaitsOnYou({ ...asking, state: 'completed' }, [item({})]), false);
    for (const task of [asking, { ...asking, cancelRequestedAt: at }, { ...asking, state: 'completed' as const }])
      for (const inbox of [[item({})], [item({ relatedCall: true })], []])
        assert.equal(
          toolTaskWaitsOnYou(task, inbox),
          waitsOnYou(requestedItem(task), waitingTasks(inbox)),
          'the same decision as the row’s'
        );
  });

  it('finds the words a row shows beside its status: "changed by you", "by the Assistant", "Waiting for you", its kind', () => {
    const edited = receivedItem({ ...received(undefined, 'working'), edited: true });
    const plain = receivedItem({
      ...received(undefined, 'working'),
      task: { taskId: 'r2', status: 'working', createdAt: at, lastUpdatedAt: at, ttl: 60_000 }
    });
    assert.ok(matchesTask(edited, search('changed by you')));
    assert.ok(!matchesTask(plain, search('changed by you')));
    const theirs = requestedItem(requested({ origin: { kind: 'assistant', conversationId: 'c1' } }));
    assert.ok(matchesTask(theirs, search('by the assistant')));
    assert.ok(!matchesTask(requestedItem(requested({})), search('by the assistant')));
    // Its badge says "Waiting for you" while the Inbox holds its model request.
    const waiting = waitingTasks([
      { id: 'i1', kind: 'sampling', serverId: 'a', serverName: 'Server a', createdAt: at, request: {}, taskId: 'r1' }
    ]);
    assert.ok(matchesTask(edited, search('waiting for you'), waiting));
    assert.ok(!matchesTask(plain, search('waiting for you'), waiting));
    assert.ok(!matchesTask(edited, search('waiting for you')), 'nothing in the Inbox: nothing waits');
    // The Kind column's words.
    assert.ok(matchesTask(plain, search('model request')));
    assert.ok(!matchesTask(plain, search('tool call')));
  });

  it('says under "Waiting for you" that a server will not fetch the answer when its Inbox card says so, and only then', () => {
    const asking = receivedItem({ ...received(undefined, 'working'), kind: 'elicitation' });
    const question: InboxItem = {
      id: 'i1',
      kind: 'elicitation',
      serverId: 'a',
      serverName: 'Server a',
      createdAt: at,
      taskId: 'r1',
      request: { message: 'Which shelf?' }
    };
    const stdio = (state: ServerView['state']): ServerView => ({
      id: 'a',
      name: 'Server a',
      transport: { type: 'stdio', target: 'a' },
      state
    });
    const later = '2026-06-01T00:05:00.000Z';
    const why = (servers: ServerView[], inbox: InboxItem[] = [question]) =>
      notFetchedOf(asking, notFetchedTasks(inbox, servers));
    // Started again since it asked (a new process), or not connected (the process that asked stopped).
    assert.equal(why([stdio({ status: 'ready', readySince: later })]), 'started-again');
    assert.equal(why([stdio({ status: 'closed' })]), 'process-stopped');
    assert.equal(
      notFetchedLine('Server a', 'started-again'),
      'Server a will not fetch your answer: it was started again since it asked.'
    );
    assert.equal(
      notFetchedLine('Server a', 'process-stopped'),
      'Server a will not fetch your answer: the process that asked has stopped.'
    );
    // Its details say the Inbox card's own sentence.
    assert.match(
      unfetchedOf(
        { direction: 'received', serverId: 'a', taskId: 'r1' },
        [question],
        [stdio({ status: 'ready', readySince: later })]
      )?.note ?? '',
      /^Server a asked this before Taskdesk started it again: .+ so Server a will not fetch your answer\.$/
    );
    // Asked over the connection of now, or of an HTTP server (it may come back to its session), or nothing waiting: nothing to say.
    assert.equal(why([stdio({ status: 'ready', readySince: '2026-05-31T23:00:00.000Z' })]), undefined);
    assert.equal(
      why([
        {
          ...stdio({ status: 'ready', readySince: later }),
          transport: { type: 'http', target: 'http://127.0.0.1/mcp' }
        }
      ]),
      undefined
    );
    assert.equal(why([stdio({ status: 'ready', readySince: later })], []), undefined);
  });

  it('says a tool’s error result in its row as its detail says it', () => {
    const item = requestedItem(
      requested({
        state: 'completed',
        outcome: {
          type: 'result',
          result: { content: [{ type: 'text', text: 'disk full' }], isError: true },
          fetchedAt: at
        }
      })
    );
    assert.deepEqual(itemOutcome(item), { before: 'The tool reported an error: ', markdown: 'disk full', after: '' });
  });
});
