import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuditEntry, OutboundTaskView } from '../../../app/contract/host-api.js';
import { auditTaskQuestion, auditTaskWords } from '../../../renderer/audit/audit-task-words.js';

const TASK = '6d23c87b-5f0e-4c51-9d0e-1b2c3d4e5f60';
const CALL_TASK = 'a1b2c3d4-0000-4c51-9d0e-1b2c3d4e5f60';

/** Taskdesk's call of `slow` on server `work`, run as the task {@link CALL_TASK}, as the Desk follows it. */
const calls: Record<string, OutboundTaskView> = {
  o1: { outboundId: 'o1', serverId: 'work', taskId: CALL_TASK, toolName: 'slow' } as OutboundTaskView
};

const entry = (over: Partial<AuditEntry> & Pick<AuditEntry, 'type'>): AuditEntry => ({
  at: '2026-12-06T22:30:45.000Z',
  serverId: 'work',
  ...over
});

describe('the Audit log’s Task column', () => {
  it('says what an entry’s task is in words, never its id, which stays in the tooltip', () => {
    const cases: Array<[AuditEntry, string]> = [
      [entry({ type: 'task.created', taskId: TASK, detail: { kind: 'sampling' } }), 'sent as a task'],
      [
        entry({ type: 'inbox.answered', taskId: TASK, detail: { kind: 'elicitation', action: 'accept' } }),
        'sent as a task'
      ],
      [entry({ type: 'task.unknown-id', taskId: TASK }), 'one Taskdesk does not know'],
      // A tool task the Desk follows, found by its outbound id or by its task id.
      [
        entry({ type: 'tool.task-ended', taskId: CALL_TASK, detail: { tool: 'slow', outboundId: 'o1' } }),
        'your call of slow'
      ],
      [entry({ type: 'tool.task-cancelled', taskId: CALL_TASK, detail: { tool: 'slow' } }), 'your call of slow'],
      // One it no longer follows (forgotten), by the tool the entry names.
      [
        entry({ type: 'tool.task-ended', taskId: TASK, detail: { tool: 'report', outboundId: 'gone' } }),
        'the call of report'
      ]
    ];
    for (const [given, words] of cases) {
      const said = auditTaskWords(given, 'Server work', calls);
      assert.equal(said?.words, words, given.type);
      assert.ok(!said.words.includes(TASK.slice(0, 8)) && !said.words.includes(CALL_TASK.slice(0, 8)), said.words);
      assert.equal(said.title, `Task ${given.taskId}`);
    }
  });

  it('names the call of Taskdesk’s a question was asked for, else its server’s task, not “asked for <id>”', () => {
    const asked = (relatedTaskId: string, more: Record<string, unknown> = {}) =>
      auditTaskWords(
        entry({ type: 'inbox.answered', detail: { kind: 'elicitation', action: 'accept', relatedTaskId, ...more } }),
        'Server work',
        calls
      );
    // The call it was asked for opens in History while the Desk follows it.
    assert.deepEqual(asked(CALL_TASK), {
      words: 'asked for your call of slow',
      title: `Asked for task ${CALL_TASK}`,
      historyId: 'requested:o1'
    });
    assert.deepEqual(asked(TASK), { words: 'asked for one of Server work’s tasks', title: `Asked for task ${TASK}` });
    // Taskdesk's own id for a request that was no task.
    assert.deepEqual(asked('ex-7', { relatedCall: true, origin: 'tool draft' }), {
      words: 'asked for your request',
      title: 'Asked for request ex-7'
    });
    // A request sent as a task of its own, for a call of Taskdesk's: both.
    assert.deepEqual(
      auditTaskWords(
        entry({ type: 'sampling.request', taskId: TASK, detail: { decision: 'approved', relatedTaskId: CALL_TASK } }),
        'Server work',
        calls
      ),
      {
        words: 'sent as a task, asked for your call of slow',
        title: `Task ${TASK}\nAsked for task ${CALL_TASK}`,
        historyId: `received:${TASK}`
      }
    );
  });

  it('quotes the question a task asks, where the entry’s sentence does not, so that a task is told by it', () => {
    const question = 'Who wrote Ivanhoe?';
    for (const type of ['task.created', 'task.status', 'task.cancelled', 'task.expired']) {
      const given = entry({ type, taskId: TASK, detail: { question, status: 'working' } });
      assert.equal(auditTaskQuestion(given), question, type);
      assert.equal(auditTaskWords(given, 'Server work', calls)?.words, '“Who wrote Ivanhoe?”, sent as a task', type);
    }
    // Its sentence quotes it already ("You answered a question: “…”"): not twice in the row.
    const answered = entry({ type: 'inbox.answered', taskId: TASK, detail: { kind: 'elicitation', question } });
    assert.equal(auditTaskQuestion(answered), undefined);
    assert.equal(auditTaskWords(answered, 'Server work', calls)?.words, 'sent as a task');
    // An entry of an earlier version keeps no question: as before.
    assert.equal(
      auditTaskWords(entry({ type: 'task.expired', taskId: TASK, detail: { status: 'working' } }), 'Server work', calls)
        ?.words,
      'sent as a task'
    );
    // No task of its own, nothing quoted (its question is the Detail column's).
    assert.equal(auditTaskQuestion(entry({ type: 'sampling.llm', detail: { question } })), undefined);
  });

  it('opens the task’s History entry where one can exist, and only there', () => {
    const historyId = (given: AuditEntry) => auditTaskWords(given, 'Server work', calls)?.historyId;
    // A task its server sent is History's `received:` entry, whatever the entry about it.
    for (const type of ['task.created', 'task.expired', 'inbox.answered', 'sampling.request'])
      assert.equal(historyId(entry({ type, taskId: TASK })), `received:${TASK}`, type);
    // A tool call of Taskdesk's run as a task: `requested:` by its outbound id, kept or followed.
    assert.equal(
      historyId(entry({ type: 'tool.task-ended', taskId: TASK, detail: { tool: 'report', outboundId: 'gone' } })),
      'requested:gone'
    );
    assert.equal(
      historyId(entry({ type: 'tool.task-cancelled', taskId: CALL_TASK, detail: { tool: 'slow' } })),
      'requested:o1'
    );
    // None: a task Taskdesk does not know, a task whose storing failed, a tool task it cannot
    // name, a plain call (its History id is made as it ends), a request of Taskdesk's that was no task.
    assert.equal(historyId(entry({ type: 'task.unknown-id', taskId: TASK })), undefined);
    assert.equal(historyId(entry({ type: 'store.write-failed', taskId: TASK })), undefined);
    assert.equal(
      historyId(entry({ type: 'tool.task-cancelled-late', taskId: TASK, detail: { tool: 'slow' } })),
      undefined
    );
    assert.equal(
      auditTaskWords(entry({ type: 'tool.called', detail: { tool: 'slow' } }), 'Server work', calls),
      undefined
    );
    assert.equal(
      historyId(entry({ type: 'inbox.answered', detail: { relatedTaskId: 'ex-7', relatedCall: true } })),
      undefined
    );
    assert.equal(historyId(entry({ type: 'inbox.answered', detail: { relatedTaskId: TASK } })), undefined);
  });

  it('says nothing of an entry about no task', () => {
    assert.equal(auditTaskWords(entry({ type: 'server.added' }), 'Server work', calls), undefined);
  });
});
