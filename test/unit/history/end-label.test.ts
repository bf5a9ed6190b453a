import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HistoryEntry } from '../../../app/contract/host-api.js';
import { answeredSteps, endLabel } from '../../../renderer/history/cancelled-label.js';

const at = '2026-06-01T00:00:00.000Z';

function entry(extra: Partial<HistoryEntry>): HistoryEntry {
  return {
    id: 'request:1',
    direction: 'received',
    kind: 'elicitation',
    serverId: 'a',
    serverName: 'Server a',
    title: 'Which city?',
    status: 'completed',
    createdAt: at,
    updatedAt: at,
    timeline: [
      { at, status: 'working', label: 'Asked' },
      { at, status: 'input_required', message: 'Waiting for your answer in the Inbox' },
      { at, status: 'completed', message: 'You answered' }
    ],
    request: { message: 'Which city?' },
    ...extra
  };
}

describe('History’s words for how an entry ended', () => {
  it('says a question was answered, declined or dismissed, task or not, where its result says which', () => {
    const said = (action: string, taskId?: string) =>
      endLabel(entry({ result: { action }, ...(taskId !== undefined && { taskId, id: `received:${taskId}` }) }));
    assert.deepEqual(
      [said('accept'), said('decline'), said('cancel'), said('accept', 't1'), said('decline', 't1')],
      ['Answered', 'Declined', 'Dismissed', 'Answered', 'Declined']
    );
    // A list's summary keeps no result, but its answer: said as the entry says it.
    const { timeline: _timeline, request: _request, ...summary } = entry({});
    assert.equal(endLabel({ ...summary, answer: 'decline' }), 'Declined');
    // One of an older version has neither: a word true of every answer.
    assert.equal(endLabel(summary), 'Replied');
  });

  it('keeps "Completed" for a model request nobody answered and a task Taskdesk requested, and who cancelled for a cancelled question', () => {
    assert.equal(endLabel(entry({ kind: 'sampling', result: { content: { type: 'text', text: 'Hi' } } })), undefined);
    assert.equal(endLabel(entry({ direction: 'requested', kind: 'tool-call', result: { content: [] } })), undefined);
    assert.equal(endLabel(entry({ status: 'cancelled', cancelledBy: 'you' })), 'Cancelled by you');
  });

  it('says "Answered" for a model request the person answered (a reply they wrote or approved), as for a question', () => {
    const reply = { kind: 'sampling', result: { content: { type: 'text', text: 'Hi' } }, answer: 'accept' } as const;
    assert.equal(endLabel(entry(reply)), 'Answered');
    // The list's summary says it alike, and so does its end step on the timeline.
    const { timeline: _timeline, request: _request, result: _result, ...summary } = entry(reply);
    assert.equal(endLabel(summary), 'Answered');
    assert.deepEqual(answeredSteps(entry(reply)).at(-1), { at, status: 'completed', label: 'Answered' });
    // Rejected stays Rejected (its badge says it from `rejected`), a cancelled one says who cancelled it.
    assert.equal(endLabel(entry({ ...reply, status: 'failed' })), undefined);
    assert.equal(endLabel(entry({ ...reply, status: 'cancelled', cancelledBy: 'server' })), 'Cancelled by the server');
  });

  it('says "Waiting for you" for a running task whose question or model request waits in the Inbox, as Tasks does', () => {
    const running = { id: 'received:t1', taskId: 't1', kind: 'sampling', status: 'working' } as const;
    assert.equal(endLabel(entry({ ...running, waitsOnYou: true })), 'Waiting for you');
    assert.equal(endLabel(entry(running)), undefined, 'working on its own: its badge says Working');
  });

  it('labels a question’s end step on its timeline as its badge does, without the message that said the same', () => {
    const steps = answeredSteps(
      entry({
        result: { action: 'decline' },
        timeline: [
          { at, status: 'working', label: 'Asked' },
          { at, status: 'completed', message: 'You declined' }
        ]
      })
    );
    assert.deepEqual(steps.at(-1), { at, status: 'completed', label: 'Declined' });
    // A question asked as a task: its end step has no message.
    const task = answeredSteps(
      entry({ id: 'received:t1', taskId: 't1', result: { action: 'accept' }, timeline: [{ at, status: 'completed' }] })
    );
    assert.deepEqual(task, [{ at, status: 'completed', label: 'Answered' }]);
    const model = entry({ kind: 'sampling', result: {} });
    assert.equal(answeredSteps(model), model.timeline);
  });

  it('leaves out the server’s word on a tool task the person cancelled, and keeps it when the server cancelled', () => {
    const timeline: HistoryEntry['timeline'] = [
      { at, status: 'working', message: 'Gathering sources…' },
      { at, status: 'cancelled', message: 'Client cancelled task execution.' }
    ];
    const tool = { direction: 'requested', kind: 'tool-call', status: 'cancelled', timeline } as const;
    assert.deepEqual(answeredSteps(entry({ ...tool, cancelledBy: 'you' })), [
      { at, status: 'working', message: 'Gathering sources…' },
      { at, status: 'cancelled' }
    ]);
    assert.deepEqual(answeredSteps(entry({ ...tool, cancelledBy: 'server' })), timeline);
  });
});
