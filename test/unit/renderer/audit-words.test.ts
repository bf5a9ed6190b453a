import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditLabel, auditSentence, saidBySentence } from '../../../app/contract/audit-words.js';
import { detailPairs } from '../../../renderer/audit/detail-pairs.js';

describe('audit entries in words', () => {
  it('names the settings an edit of a server changed, a transport’s field by field', () => {
    const updated = (changed?: unknown) =>
      auditSentence({ type: 'server.updated', ...(changed !== undefined && { detail: { changed } }) });
    assert.equal(updated(['transport.url']), 'You changed the server’s URL');
    assert.equal(
      updated(['name', 'transport.command', 'transport.args']),
      'You changed the server’s name, command and arguments'
    );
    assert.equal(
      updated(['transport.env', 'autoConnect']),
      'You changed the server’s environment variables and automatic connection'
    );
    // Entries of earlier builds, and an edit that changed nothing it can name (a secret's value).
    assert.equal(updated(['transport']), 'You changed the server’s transport');
    assert.equal(updated([]), 'You changed the server’s settings');
    assert.equal(updated(), 'You changed the server’s settings');
    // A rename keeps the name from before.
    assert.equal(
      auditSentence({ type: 'server.updated', detail: { changed: ['name', 'transport.url'], previousName: 'Notes' } }),
      'You changed the server’s name and URL; it was named “Notes”'
    );
  });

  it('says what the person answered, and which question', () => {
    assert.equal(
      auditSentence({
        type: 'inbox.answered',
        detail: { kind: 'elicitation', action: 'decline', question: 'Which city?' }
      }),
      'You declined a question: “Which city?”'
    );
    assert.equal(
      auditSentence({ type: 'inbox.answered', detail: { kind: 'sampling-approval', action: 'approve' } }),
      'You approved a model request'
    );
    // Its decision entry, when the person wrote the answer instead of approving.
    assert.equal(
      auditSentence({ type: 'sampling.request', detail: { decision: 'written-by-you' } }),
      'You wrote the answer to a model request yourself; no model ran'
    );
    assert.equal(
      auditSentence({ type: 'inbox.withdrawn', detail: { kind: 'sampling', question: 'Summarize' } }),
      'The server withdrew a model request before you answered: “Summarize”'
    );
    // Withdrawn by Taskdesk, for a reason it kept: said as such, not as the server's doing.
    assert.equal(
      auditSentence({
        type: 'inbox.withdrawn',
        detail: {
          kind: 'elicitation',
          question: 'Which city?',
          reason: 'The task this was asked for (tool slow) was cancelled by you.'
        }
      }),
      'A question was closed without an answer: “Which city?” The task this was asked for (tool slow) was cancelled by you.'
    );
    assert.equal(
      auditSentence({
        type: 'inbox.withdrawn',
        detail: { kind: 'elicitation', reason: 'Taskdesk stopped before it was answered; the server was not answered' }
      }),
      'A question was closed without an answer. Taskdesk stopped before it was answered; the server was not answered.'
    );
  });

  it('says connections, sign-ins and policies as a person would, not as status words', () => {
    assert.equal(
      auditSentence({ type: 'server.state', detail: { status: 'failed', reason: 'x' } }),
      'The connection failed'
    );
    assert.equal(auditSentence({ type: 'server.state', detail: { status: 'ready' } }), 'Connected');
    assert.equal(auditSentence({ type: 'server.connect-asked' }), 'You asked to connect the server');
    assert.equal(auditSentence({ type: 'server.added', detail: { transport: 'stdio' } }), 'You added the server');
    // The bundled demo server, which Taskdesk adds itself on a first launch: not the person's doing.
    assert.equal(
      auditSentence({ type: 'server.added', detail: { transport: 'stdio', by: 'taskdesk' } }),
      'Taskdesk added the server on its first start'
    );
    assert.equal(
      auditSentence({ type: 'server.signed-in', detail: { issuer: 'https://auth.example/' } }),
      'Signed in at https://auth.example/'
    );
    // An entry of an earlier version named the subject: it is not shown.
    assert.equal(auditSentence({ type: 'server.signed-in', detail: { subject: 'ada' } }), 'Signed in');
    assert.equal(auditSentence({ type: 'server.signed-out' }), 'You signed out');
    assert.equal(
      auditSentence({ type: 'server.signed-out', detail: { revocation: 'revoked' } }),
      'You signed out; the authorization server revoked the sign-in'
    );
    assert.equal(
      auditSentence({ type: 'server.signed-out', detail: { revocation: 'failed' } }),
      'You signed out; the sign-in could not be revoked at the authorization server'
    );
    assert.equal(
      auditSentence({ type: 'sampling.policy-changed', detail: { mode: 'auto', reviewCompletion: false } }),
      'You set this server’s model requests to run without asking, answers not reviewed'
    );
    assert.equal(
      auditSentence({ type: 'sampling.policy-changed', detail: { mode: 'ask', reviewCompletion: true } }),
      'You set this server’s model requests to ask you each time, answers reviewed by you'
    );
    // Refused, no model runs: there is no answer to review, whatever the review box held.
    for (const reviewCompletion of [true, false])
      assert.equal(
        auditSentence({ type: 'sampling.policy-changed', detail: { mode: 'refuse', reviewCompletion } }),
        'You set this server’s model requests to refuse them all'
      );
    // "Always allow" on an approval card records the policy with the tool added: not a stricter one.
    assert.equal(
      auditSentence({ type: 'assistant.policy-changed', detail: { mode: 'ask', alwaysAllow: ['echo', 'add'] } }),
      'You set the assistant’s calls of this server’s tools to ask you each time, except echo, add, which it may always call'
    );
    assert.equal(
      auditSentence({ type: 'assistant.policy-changed', detail: { mode: 'refuse', alwaysAllow: [] } }),
      'You set the assistant’s calls of this server’s tools to refuse them all'
    );
    // A provider by the name it was saved with; an entry of an earlier version by its id.
    assert.equal(
      auditSentence({ type: 'provider.saved', detail: { providerId: 'fake', name: 'Fake LLM' } }),
      'You saved the model provider “Fake LLM”'
    );
    assert.equal(
      auditSentence({ type: 'provider.removed', detail: { providerId: 'fake' } }),
      'You removed the model provider fake'
    );
    assert.equal(
      auditSentence({ type: 'task.status', detail: { from: 'working', to: 'input_required' } }),
      'Task status: Waiting for Taskdesk (was Working)'
    );
  });

  it('names the request whose model answer the person decided on, as the request’s own entry does', () => {
    // A newcomer read "You rejected the model’s answer" in the log and could not tell which.
    const question = 'Resource context: Once upon a time';
    assert.equal(
      auditSentence({ type: 'sampling.completion', detail: { decision: 'rejected', question } }),
      'You rejected the model’s answer to a model request: “Resource context: Once upon a time”'
    );
    assert.equal(
      auditSentence({ type: 'sampling.completion', detail: { decision: 'approved-with-edits', question } }),
      'You approved the model’s answer to a model request: “Resource context: Once upon a time”, with changes'
    );
    assert.equal(
      auditSentence({ type: 'sampling.request', detail: { decision: 'rejected', question } }),
      'You rejected a model request: “Resource context: Once upon a time”',
      'a request rejected before it ran, said apart'
    );
    assert.equal(
      auditSentence({ type: 'sampling.completion', detail: { decision: 'rejected' } }),
      'You rejected the model’s answer'
    );
    assert.equal(saidBySentence('sampling.completion', 'question'), true, 'not listed again under it');
  });

  it('writes its apostrophes curly, as the rest of the Desk does', () => {
    assert.equal(
      auditSentence({ type: 'sampling.completion', detail: { decision: 'approved-with-edits' } }),
      'You approved the model’s answer, with changes'
    );
    assert.equal(
      auditSentence({ type: 'inbox.answered', detail: { kind: 'sampling-review', action: 'reject' } }),
      'You rejected a model’s answer'
    );
    assert.equal(
      auditSentence({ type: 'assistant.tool-decision', detail: { tool: 'echo', decision: 'deny' } }),
      'You denied the assistant’s call to echo'
    );
    assert.equal(
      auditSentence({ type: 'assistant.tool-decision', detail: { tool: 'echo', decision: 'invalid-arguments' } }),
      'The assistant’s call to echo was not made: its arguments do not fit the tool’s input schema'
    );
    assert.equal(
      auditSentence({ type: 'assistant.tool-decision', detail: { tool: 'echo', decision: 'later' } }),
      'The assistant’s call to echo: later'
    );
    assert.equal(auditSentence({ type: 'task.result-retrieved' }), 'The server fetched the task’s result');
    assert.equal(auditSentence({ type: 'provider.key-cleared' }), 'You deleted a model provider’s key');
    assert.equal(auditLabel({ type: 'assistant.tool-decision' }), 'Decisions on the assistant’s tool calls');
    // Every decision of each kind that says whose: none keeps a straight one.
    const entries = [
      ...['approved', 'approved-with-edits', 'rejected', 'cancelled', 'interrupted', 'withdrawn'].map((decision) => ({
        type: 'sampling.completion',
        detail: { decision }
      })),
      ...['approve', 'always', 'deny', 'refused-by-policy', 'auto', 'always-allowed', 'invalid-arguments'].map(
        (decision) => ({
          type: 'assistant.tool-decision',
          detail: { tool: 'echo', decision }
        })
      ),
      { type: 'inbox.withdrawn', detail: { kind: 'sampling-review' } },
      { type: 'task.result-retrieved', detail: { outcome: 'error' } },
      { type: 'provider.key-dropped' },
      { type: 'server.updated', detail: { changed: ['name'] } },
      { type: 'sampling.policy-changed', detail: { mode: 'ask' } },
      { type: 'assistant.policy-changed', detail: { mode: 'auto' } }
    ];
    for (const entry of entries) {
      assert.doesNotMatch(auditSentence(entry), /'/, entry.type);
      assert.doesNotMatch(auditLabel(entry), /'/, entry.type);
    }
  });

  it('says a tool call as it was made, and how it ended in an entry of its own: cancelled, by whom, not failed', () => {
    assert.equal(
      auditSentence({ type: 'tool.called', detail: { tool: 'echo', arguments: {} } }),
      'You called the tool echo'
    );
    const ended = (detail: Record<string, unknown>) =>
      auditSentence({ type: 'tool.call-ended', detail: { tool: 'slow', ...detail } });
    // Not "answered": beside the question the call asked, that read as the question answered.
    assert.equal(ended({ outcome: 'result' }), 'The tool slow returned its result');
    assert.equal(ended({ outcome: 'tool-error' }), 'The tool slow reported an error');
    assert.equal(
      auditSentence({ type: 'tool.called', detail: { tool: 'slow', outcome: 'tool-error' } }),
      'You called the tool slow; the tool reported an error'
    );
    assert.equal(ended({ outcome: 'task', outboundId: 'o1' }), 'The call to the tool slow became a task');
    assert.equal(ended({ outcome: 'error', error: 'Connection closed' }), 'The call to the tool slow failed');
    assert.equal(ended({ outcome: 'cancelled', cancelledBy: 'you' }), 'The call to the tool slow was cancelled by you');
    assert.equal(
      ended({ outcome: 'cancelled', cancelledBy: 'taskdesk' }),
      'The call to the tool slow was cancelled by Taskdesk, as it closed'
    );
    assert.equal(auditLabel({ type: 'tool.call-ended' }), 'Tool calls ended');
  });

  it('names the question of a model request the person decided on, in their decision’s one entry', () => {
    const question = 'Write a haiku about queues';
    const request = (decision: string) => auditSentence({ type: 'sampling.request', detail: { decision, question } });
    assert.equal(request('approved'), 'You approved a model request: “Write a haiku about queues”');
    assert.equal(
      request('approved-with-edits'),
      'You approved a model request: “Write a haiku about queues”, with changes'
    );
    assert.equal(request('rejected'), 'You rejected a model request: “Write a haiku about queues”');
    assert.equal(
      request('written-by-you'),
      'You wrote the answer yourself to a model request: “Write a haiku about queues”; no model ran'
    );
    // Without one (a policy's decision, entries of earlier versions), as before.
    assert.equal(
      auditSentence({ type: 'sampling.request', detail: { decision: 'approved' } }),
      'You approved a model request'
    );
  });

  it("says how a tool's task ended, and who cancelled it", () => {
    assert.equal(
      auditSentence({ type: 'tool.task-ended', detail: { tool: 'report', state: 'cancelled', cancelledBy: 'you' } }),
      'The task of the tool report was cancelled by you'
    );
    assert.equal(
      auditSentence({ type: 'tool.task-ended', detail: { tool: 'report', state: 'completed', outcome: 'tool-error' } }),
      'The task of the tool report completed, the tool reporting an error'
    );
    assert.equal(
      auditSentence({ type: 'tool.called', detail: { tool: 'report', outcome: 'task' } }),
      'You called the tool report; it runs as a task'
    );
    // Its call was given up before the server answered with the task: cancelled then, if the server can.
    const late = { tool: 'report', reason: 'Cancelled by you' };
    assert.equal(
      auditSentence({ type: 'tool.task-cancelled-late', detail: { ...late, tasksCancel: 'sent' } }),
      'A task of the tool report came after its call had ended; Taskdesk cancelled it'
    );
    assert.equal(
      auditSentence({ type: 'tool.task-cancelled-late', detail: { ...late, tasksCancel: 'unsupported' } }),
      'A task of the tool report came after its call had ended; the server cannot cancel tasks, so it may run on'
    );
    assert.equal(
      auditSentence({
        type: 'tool.task-cancelled-late',
        detail: { ...late, tasksCancel: 'failed', error: 'Not connected' }
      }),
      'A task of the tool report came after its call had ended; cancelling it failed: Not connected'
    );
  });

  it('tells a task forgotten after it ended, saying how, from one whose time ran out unanswered', () => {
    const expired = (detail: Record<string, unknown>) => auditSentence({ type: 'task.expired', detail });
    assert.equal(
      expired({ status: 'completed' }),
      'Task forgotten: it had completed, and the time it was kept after that ran out'
    );
    assert.equal(
      expired({ status: 'failed' }),
      'Task forgotten: it had failed, and the time it was kept after that ran out'
    );
    assert.equal(
      expired({ status: 'cancelled' }),
      'Task forgotten: it had been cancelled, and the time it was kept after that ran out'
    );
    // The status it had while it waited is no end: "expired unanswered", not "status working".
    for (const status of ['working', 'input_required']) {
      assert.equal(expired({ status }), 'Task expired unanswered: its time ran out before it ended');
      assert.deepEqual(
        detailPairs({ status, question: 'Who wrote Ivanhoe?' }, 'task.expired').map((pair) => pair.field),
        ['question']
      );
    }
    assert.equal(
      expired({ status: 'completed', reason: 'Expired early: …' }),
      'Task removed early (too many finished tasks); it had completed'
    );
  });

  it('names what a summary held back, and reads a type it does not know in its own words', () => {
    assert.equal(
      auditSentence({ type: 'audit.summary', detail: { of: 'server.state', count: 40 } }),
      '40 more entries of “Connection changes”, held back: too many at once'
    );
    assert.equal(
      auditSentence({ type: 'audit.summary', detail: { of: 'server.state', count: 40, last: { status: 'ready' } } }),
      '40 more entries of “Connection changes”, held back: too many at once; the last: Connected'
    );
    assert.equal(auditLabel({ type: 'task.unknown-id' }), 'The server asked about a task Taskdesk does not know');
    assert.equal(auditSentence({ type: 'future.thing-done' }), 'Future thing done');
    // A detail of the wrong shape (an older or newer host) still makes a sentence.
    assert.equal(auditSentence({ type: 'inbox.answered', detail: { question: 42 } }), 'You answered a model request');
  });
});
