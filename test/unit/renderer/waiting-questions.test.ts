import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Conversation } from '../../../app/contract/assistant.js';
import type { InboxItem, OutboundTaskView } from '../../../app/contract/host-api.js';
import { conversationSummary, runningTaskCalls } from '../../../app/contract/conversation-summary.js';
import {
  askedWords,
  isCancelling,
  taskQuestions,
  waitingQuestions
} from '../../../renderer/components/waiting-questions.js';

const at = '2026-12-01T09:00:00.000Z';

function task(outboundId: string, taskId: string, state: OutboundTaskView['state']): OutboundTaskView {
  return { outboundId, serverId: 's', taskId, state } as OutboundTaskView;
}

function question(id: string, relatedTaskId: string, serverId = 's'): InboxItem {
  return { id, relatedTaskId, serverId } as InboxItem;
}

const conversation = {
  id: 'c',
  messages: [
    { id: 'u', at, role: 'user', text: 'Research' },
    {
      id: 'a',
      at,
      role: 'assistant',
      text: '',
      toolCalls: [
        { id: 'one', state: 'task', outboundId: 'o1' },
        { id: 'two', state: 'task', outboundId: 'o2' },
        { id: 'three', state: 'running' },
        // Its task ended (the call's state says so): none of its server's later questions are this call's.
        { id: 'four', state: 'completed', outboundId: 'o3' }
      ]
    }
  ]
} as unknown as Conversation;

describe('the questions a conversation waits on', () => {
  it("counts the questions of its calls' running tasks, by server and related task", () => {
    const outbound = {
      o1: task('o1', 't1', 'input_required'),
      o2: task('o2', 't2', 'working'),
      o3: task('o3', 't3', 'working')
    };
    const inbox = [
      question('q1', 't1'),
      question('q2', 't2'),
      question('q3', 't1', 'other'),
      question('q4', 'x'),
      question('q5', 't3')
    ];
    assert.deepEqual(runningTaskCalls(conversation), ['o1', 'o2']);
    assert.equal(waitingQuestions(runningTaskCalls(conversation), outbound, inbox), 2);
    // The list counts them from the summary, for conversations the Desk does not hold whole too.
    assert.equal(waitingQuestions(conversationSummary(conversation).runningTasks, outbound, inbox), 2);
    assert.deepEqual(
      taskQuestions(outbound.o1, inbox).map((q) => q.id),
      ['q1']
    );
  });

  it('leaves out a task the person asked to cancel: its questions are no longer theirs to answer', () => {
    const cancelling = { ...task('o1', 't1', 'input_required'), cancelRequestedAt: at };
    const outbound = { o1: cancelling, o2: task('o2', 't2', 'working') };
    const inbox = [question('q1', 't1'), question('q2', 't2')];
    assert.equal(isCancelling(cancelling), true);
    assert.equal(isCancelling(outbound.o2), false);
    assert.equal(isCancelling({ ...task('o3', 't3', 'cancelled'), cancelRequestedAt: at }), false, 'ended: cancelled');
    assert.equal(waitingQuestions(runningTaskCalls(conversation), outbound, inbox), 1);
  });

  it('leaves out ended tasks, unknown ones and conversations not held', () => {
    const outbound = { o1: task('o1', 't1', 'completed') };
    const inbox = [question('q1', 't1'), question('q2', 't2')];
    assert.equal(waitingQuestions(runningTaskCalls(conversation), outbound, inbox), 0);
    assert.equal(waitingQuestions(undefined, outbound, inbox), 0);
    assert.deepEqual(taskQuestions(undefined, inbox), []);
  });

  it('names what a task waits on as the Inbox does: a question, or a model request for a model reply', () => {
    assert.equal(askedWords({ kind: 'elicitation' }), 'question');
    for (const kind of ['sampling', 'sampling-approval', 'sampling-review'] as const)
      assert.equal(askedWords({ kind }), 'model request', kind);
  });
});
