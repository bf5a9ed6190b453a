import assert from 'node:assert/strict';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { AuditLog } from '../../app/audit/audit-log.js';
import { questionPreview } from '../../app/audit/question-preview.js';
import type { AuditEntry, OutboundTaskView } from '../../app/contract/host-api.js';
import { ToolTaskEndAudit } from '../../app/host/tool-task-audit.js';
import { ManualClock } from '../support/manual-clock.js';
import { tempDir } from '../support/host-fixture.js';

describe('which question an Inbox entry is about', () => {
  it("quotes an elicitation's message, in one short line", () => {
    assert.equal(
      questionPreview({ kind: 'elicitation', request: { mode: 'form', message: 'Which\n  city?' } }),
      'Which city?'
    );
  });

  it("quotes a model request's last user text, not the model's own turn", () => {
    const request = {
      messages: [
        { role: 'user', content: { type: 'text', text: 'Summarize the report' } },
        { role: 'assistant', content: { type: 'text', text: 'Which one?' } },
        {
          role: 'user',
          content: [
            { type: 'image', data: 'AAAA' },
            { type: 'text', text: 'The weekly one' }
          ]
        }
      ]
    };
    assert.equal(questionPreview({ kind: 'sampling-approval', request }), 'The weekly one');
    assert.equal(questionPreview({ kind: 'sampling', request: { messages: [] } }), undefined);
  });

  it('reads only the start of a 1 MB question, and never a URL-mode address', () => {
    const huge = `Please ${'very '.repeat(200_000)}carefully`;
    const line = questionPreview({ kind: 'elicitation', request: { message: huge } })!;
    assert.ok(line.length <= 80, `cut short (${line.length})`);
    assert.match(line, /^Please very very .*…$/);
    const url = { mode: 'url', message: 'Link your account', url: 'https://auth.example/?token=sk-secret' };
    assert.equal(questionPreview({ kind: 'elicitation', request: url }), 'Link your account');
  });

  it('masks the secrets it is given before it cuts, however many, and in a 1 MB question too', () => {
    const secret = 'sk-live-0123456789abcdef';
    const ask = (message: string) => questionPreview({ kind: 'elicitation', request: { message } }, [secret]);
    // Cut first, "sk-live-01" would be left at the end of the 80 characters.
    assert.equal(ask(`${'x'.repeat(70)}${secret} – use this key?`), `${'x'.repeat(70)}•••• – us…`);
    // Masks shorten what they cover: what the preview reads past the first part masked is masked too.
    const many = ask(`${`${secret} `.repeat(400)}and more`)!;
    assert.ok(!many.includes('sk-'), many);
    assert.match(many, /^(•••• )+•*…$/);
    const huge = ask(`Use ${secret} ${'very '.repeat(200_000)}${secret}`)!;
    assert.match(huge, /^Use •••• very very .*…$/);
    assert.equal(ask('Nothing secret here'), 'Nothing secret here');
  });
});

describe('the end of a tool call run as a task', () => {
  const view = (changes: Partial<OutboundTaskView>): OutboundTaskView => ({
    outboundId: 'o1',
    serverId: 'a',
    serverName: 'Server a',
    toolName: 'report',
    arguments: { secret: 'x' },
    requestedTtl: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:01.000Z',
    taskId: 't1',
    state: 'working',
    task: {
      taskId: 't1',
      status: 'working',
      createdAt: '2026-01-01T00:00:00.000Z',
      lastUpdatedAt: '2026-01-01T00:00:00.000Z',
      ttl: null
    },
    expiresAt: null,
    progress: { count: 0, history: [] },
    ...changes
  });
  const recorder = () => {
    const recorded: Array<Omit<AuditEntry, 'at'>> = [];
    return { recorded, sink: { record: (entry: Omit<AuditEntry, 'at'>) => recorded.push(entry) } };
  };

  it('is recorded once, when nothing more will happen to the task, with how it ended', () => {
    const { recorded, sink } = recorder();
    const ends = new ToolTaskEndAudit(sink, []);
    ends.changed(view({}));
    // Terminal, its outcome not fetched yet: not over.
    ends.changed(view({ state: 'failed' }));
    assert.deepEqual(recorded, []);
    const failed = view({
      state: 'failed',
      task: { ...view({}).task, status: 'failed', statusMessage: 'The upstream service refused the job' },
      outcome: { type: 'error', error: { code: -32050, message: 'Upstream quota exhausted' }, fetchedAt: 'x' }
    });
    ends.changed(failed);
    ends.changed(failed);
    assert.deepEqual(recorded, [
      {
        type: 'tool.task-ended',
        serverId: 'a',
        serverName: 'Server a',
        taskId: 't1',
        detail: {
          tool: 'report',
          outboundId: 'o1',
          state: 'failed',
          outcome: 'error',
          statusMessage: 'The upstream service refused the job',
          error: 'Upstream quota exhausted'
        }
      }
    ]);
  });

  it('says who cancelled, a tool error, an expiry; not a task that ended before this run', () => {
    const { recorded, sink } = recorder();
    const ends = new ToolTaskEndAudit(sink, ['old']);
    ends.changed(view({ outboundId: 'old', state: 'expired', reason: 'ran out' }));
    ends.changed(
      view({
        outboundId: 'c',
        state: 'cancelled',
        cancelledBy: 'you',
        outcome: { type: 'error', error: { code: -32800, message: 'cancelled' }, fetchedAt: 'x' }
      })
    );
    ends.changed(
      view({
        outboundId: 'e',
        state: 'completed',
        outcome: { type: 'result', result: { content: [], isError: true }, fetchedAt: 'x' }
      })
    );
    ends.changed(
      view({ outboundId: 'x', state: 'expired', reason: "The task's ttl ran out before its result was fetched." })
    );
    assert.deepEqual(
      recorded.map((entry) => entry.detail),
      [
        {
          tool: 'report',
          outboundId: 'c',
          state: 'cancelled',
          cancelledBy: 'you'
        },
        { tool: 'report', outboundId: 'e', state: 'completed', outcome: 'tool-error' },
        {
          tool: 'report',
          outboundId: 'x',
          state: 'expired',
          reason: "The task's ttl ran out before its result was fetched."
        }
      ]
    );
    assert.doesNotMatch(JSON.stringify(recorded), /secret/, 'arguments are not repeated');
  });

  it("says nothing internal: no cancelled task's missing result, no completed task's last progress as a reason", () => {
    const { recorded, sink } = recorder();
    const ends = new ToolTaskEndAudit(sink, []);
    const task = (status: OutboundTaskView['task']['status'], statusMessage: string) => ({
      ...view({}).task,
      status,
      statusMessage
    });
    ends.changed(
      view({
        outboundId: 'cancelled',
        state: 'cancelled',
        cancelledBy: 'you',
        task: task('cancelled', 'Generating report...'),
        outcome: {
          type: 'error',
          error: { code: -32602, message: 'Task 45fe06db-0000-4000-8000-000000000000 has no result stored' },
          fetchedAt: 'x'
        }
      })
    );
    ends.changed(
      view({
        outboundId: 'completed',
        state: 'completed',
        task: task('completed', 'Generating report...'),
        outcome: { type: 'result', result: { content: [] }, fetchedAt: 'x' }
      })
    );
    assert.deepEqual(
      recorded.map((entry) => entry.detail),
      [
        {
          tool: 'report',
          outboundId: 'cancelled',
          state: 'cancelled',
          cancelledBy: 'you',
          statusMessage: 'Generating report...'
        },
        { tool: 'report', outboundId: 'completed', state: 'completed', outcome: 'result' }
      ]
    );
    assert.doesNotMatch(JSON.stringify(recorded), /no result stored|"reason"/);
  });
});

describe('connection changes in the audit log', () => {
  let temp: ReturnType<typeof tempDir> | undefined;
  let log: AuditLog | undefined;
  afterEach(() => {
    log?.close();
    temp?.remove();
    log = temp = undefined;
  });

  it('keeps a server reconnecting in a loop from filling the log: one summary a minute', async () => {
    temp = tempDir();
    const clock = new ManualClock();
    log = new AuditLog({ dir: path.join(temp.dir, 'audit'), clock });
    const loop = (rounds: number) => {
      for (let i = 0; i < rounds; i++) {
        log!.record({ type: 'server.state', serverId: 'loop', detail: { status: 'connecting' } });
        log!.record({ type: 'server.state', serverId: 'loop', detail: { status: 'failed', reason: 'refused' } });
      }
    };
    // An hour of a reconnect every 100 ms.
    for (let second = 0; second < 3600; second++) {
      loop(10);
      await clock.advance(1000);
    }
    log.record({ type: 'server.added', serverId: 'other' });
    const entries = log.read({ limit: 5000 });
    const ofLoop = entries.filter((entry) => entry.serverId === 'loop');
    const single = ofLoop.filter((entry) => entry.type === 'server.state').length;
    const summaries = ofLoop.filter((entry) => entry.type === 'audit.summary');
    assert.ok(single <= 30 + 61, `its first changes, then one a minute (${single})`);
    assert.ok(summaries.length <= 61, `a summary a minute (${summaries.length})`);
    const counted = summaries.reduce((sum, entry) => sum + Number(entry.detail!.count), 0);
    assert.equal(single + counted, 72_000, 'every change is accounted for');
    // Each summary says the last state it held back, so the log does not end on a stale one.
    for (const summary of summaries) assert.deepEqual(summary.detail!.last, { status: 'failed', reason: 'refused' });
    assert.ok(
      entries.some((entry) => entry.type === 'server.added'),
      'what the person does meanwhile is written'
    );
  });
});
