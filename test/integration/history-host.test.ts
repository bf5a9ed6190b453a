import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CreateMessageResultSchema,
  CreateTaskResultSchema,
  ElicitResultSchema,
  ListToolsRequestSchema
} from '@modelcontextprotocol/sdk/types.js';
import { HistoryEntrySchema, type HistoryFilter } from '../../app/contract/history.js';
import { auditSentence } from '../../app/contract/audit-words.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { saveFakeProvider } from '../support/assistant-fixture.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { ManualClock } from '../support/manual-clock.js';
import { nextEvent, peerServer, startHostWith, type InMemoryHostFixture } from '../support/host-fixture.js';
import { editedRequest } from '../support/received-sampling.js';

const form = (message: string) => ({
  mode: 'form',
  message,
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }
});

/** `promise`, or a failure naming `what` when it takes longer than `ms`: a missing event fails, not hangs. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Not within ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('the task history through the host API', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('keeps answered and expired questions after their TTL and a restart, searchable, filterable and exportable', async () => {
    const clock = new ManualClock();
    const peer = peerServer();
    let fixture: InMemoryHostFixture = await startHostWith({ a: peer }, { clock });
    const dir = fixture.dir;
    cleanups.push(() => fixture.dispose());
    const { host } = fixture;

    // One question answered, one left to expire.
    const firstAdded = nextEvent(host, 'inbox.added');
    const answered = await peer.server.request(
      { method: 'elicitation/create', params: { ...form('Your name for the booking?'), task: { ttl: 10_000 } } },
      CreateTaskResultSchema
    );
    const { item } = await firstAdded;
    // Asked a moment later: the list is newest first.
    await clock.advance(1);
    const secondAdded = nextEvent(host, 'inbox.added');
    const unanswered = await peer.server.request(
      { method: 'elicitation/create', params: { ...form('Approve the refund?'), task: { ttl: 10_000 } } },
      CreateTaskResultSchema
    );
    await secondAdded;
    const completed = nextEvent(host, 'history.changed', ({ entry }) => entry.status === 'completed');
    assert.deepEqual(
      await host.dispatch('inbox.answer', { id: item.id, answer: { action: 'accept', content: { name: 'Ada' } } }),
      { ok: true, result: { ok: true } }
    );
    await completed;

    const expired = nextEvent(host, 'history.changed', ({ entry }) => entry.status === 'expired');
    await clock.advance(10_000);
    const notice = await expired;
    assert.equal(notice.entry.taskId, unanswered.task.taskId);
    assert.equal(notice.entry.unanswered, true, 'the UI is told the question went unanswered');

    // The protocol forgot both tasks; the person's history did not.
    const tasks = await host.dispatch('tasks.list', {});
    assert.ok(tasks.ok && tasks.result.every((task) => task.task.taskId !== answered.task.taskId));
    await fixture.stop();
    fixture = await startHostWith({ a: peerServer() }, { clock, dir });
    const restarted = fixture.host;

    const all = await restarted.dispatch('history.list', {});
    assert.ok(all.ok);
    assert.deepEqual(
      all.result.entries.map((entry) => [entry.title, entry.status, entry.unanswered ?? false]),
      [
        ['Approve the refund?', 'expired', true],
        ['Your name for the booking?', 'completed', false]
      ]
    );
    const search = await restarted.dispatch('history.list', { filter: { text: 'booking' } });
    assert.ok(search.ok);
    assert.deepEqual(
      search.result.entries.map((entry) => entry.taskId),
      [answered.task.taskId]
    );
    const byStatus = await restarted.dispatch('history.list', { filter: { status: 'expired', serverId: 'a' } });
    assert.ok(byStatus.ok && byStatus.result.total === 1);

    const detail = await restarted.dispatch('history.get', { id: `received:${answered.task.taskId}` });
    assert.ok(detail.ok);
    assert.deepEqual(detail.result.result, { action: 'accept', content: { name: 'Ada' } });
    // Every status message the server was told is a step, said as what happened: the new task's
    // (Taskdesk's words for every task it makes) as its arrival, then the Inbox's as a wait on you.
    assert.deepEqual(
      detail.result.timeline.map((step) => [step.status, step.label, step.message]),
      [
        ['working', 'Asked', undefined],
        ['working', 'Waiting for you', 'Waiting for your answer in the Inbox'],
        ['completed', undefined, undefined]
      ]
    );

    const exported = await restarted.dispatch('history.export', { filter: { kind: 'elicitation' } });
    assert.ok(exported.ok);
    assert.equal(exported.result.count, 2);
    const lines = exported.result.jsonl.trimEnd().split('\n');
    assert.deepEqual(
      lines.map((line) => HistoryEntrySchema.parse(JSON.parse(line)).title),
      ['Approve the refund?', 'Your name for the booking?']
    );

    const badCursor = await restarted.dispatch('history.list', { cursor: 'nope' });
    assert.deepEqual(badCursor.ok ? undefined : badCursor.error.code, -32602);
    const missing = await restarted.dispatch('history.get', { id: 'received:nope' });
    assert.equal(missing.ok ? undefined : missing.error.code, -32602);

    const retention = await restarted.dispatch('history.setRetention', { days: 1, maxEntries: 100 });
    assert.deepEqual(retention, { ok: true, result: { days: 1, maxEntries: 100 } });
    await clock.advance(2 * 24 * 3_600_000);
    const afterRetention = await restarted.dispatch('history.list', {});
    assert.ok(afterRetention.ok && afterRetention.result.total === 0, 'entries past the retention are removed');
  });

  it('records plain questions and model requests once they end: answered, run without asking, rejected, withdrawn', async () => {
    const clock = new ManualClock();
    const llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    cleanups.push(() => llm.close());
    const a = peerServer();
    const b = peerServer();
    const fixture = await startHostWith({ a, b }, { clock, keyStore: new InMemoryKeyStore() });
    cleanups.push(() => fixture.dispose());
    const { host } = fixture;
    await saveFakeProvider(host, llm.baseURL);
    await host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'auto', reviewCompletion: false } });
    await host.call('sampling.setPolicy', { serverId: 'b', policy: { mode: 'ask', reviewCompletion: false } });
    const ask = (text: string) => ({
      messages: [{ role: 'user', content: { type: 'text', text } }],
      maxTokens: 50
    });

    // A question the person answers in the Inbox.
    const asked = nextEvent(host, 'inbox.added');
    const answered = a.server.request(
      { method: 'elicitation/create', params: form('Your name for the booking?') },
      ElicitResultSchema
    );
    const { item } = await asked;
    await host.call('inbox.answer', { id: item.id, answer: { action: 'accept', content: { name: 'Ada' } } });
    assert.deepEqual(await answered, { action: 'accept', content: { name: 'Ada' } });
    await clock.advance(1);

    // A model request run without asking.
    llm.enqueue({ kind: 'text', tokens: ['Sunny ', 'and warm.'] });
    const ran = await a.server.request(
      { method: 'sampling/createMessage', params: ask('Weather in Paris?') },
      CreateMessageResultSchema
    );
    assert.deepEqual(ran.content, { type: 'text', text: 'Sunny and warm.' });
    await clock.advance(1);

    // A model request the person rejects.
    const approval = nextEvent(host, 'inbox.added', (payload) => payload.item.kind === 'sampling-approval');
    const refused = b.server
      .request({ method: 'sampling/createMessage', params: ask('Write my essay') }, CreateMessageResultSchema)
      .then(
        () => assert.fail('a rejected request has no result'),
        (error: { code?: number }) => error
      );
    await host.call('inbox.answer', { id: (await approval).item.id, answer: { action: 'reject' } });
    assert.equal((await refused).code, -1);
    await clock.advance(1);

    // A question its server withdraws before anyone answers.
    const controller = new AbortController();
    const waiting = nextEvent(host, 'inbox.added');
    const withdrawn = a.server
      .request({ method: 'elicitation/create', params: form('Approve the refund?') }, ElicitResultSchema, {
        signal: controller.signal
      })
      .catch(() => undefined);
    await waiting;
    const cancelled = nextEvent(host, 'history.changed', ({ entry }) => entry.status === 'cancelled');
    controller.abort('No longer needed');
    await withdrawn;
    await within(cancelled, 5_000, 'the withdrawn question reached History');

    const list = async (filter: HistoryFilter) => {
      const page = await host.call('history.list', { filter });
      return page.entries.map((entry) => [entry.kind, entry.serverId, entry.title, entry.status]);
    };
    const all = await host.call('history.list', {});
    assert.deepEqual(
      all.entries.map((entry) => [
        entry.direction,
        entry.kind,
        entry.serverName,
        entry.title,
        entry.status,
        entry.taskId,
        entry.rejected,
        entry.cancelledBy
      ]),
      [
        ['received', 'elicitation', 'Server a', 'Approve the refund?', 'cancelled', undefined, undefined, 'server'],
        ['received', 'sampling', 'Server b', 'Write my essay', 'failed', undefined, true, undefined],
        ['received', 'sampling', 'Server a', 'Weather in Paris?', 'completed', undefined, undefined, undefined],
        [
          'received',
          'elicitation',
          'Server a',
          'Your name for the booking?',
          'completed',
          undefined,
          undefined,
          undefined
        ]
      ]
    );
    // The list keeps how the person answered a question (its words are "Answered", not "Completed").
    assert.deepEqual(
      all.entries.map((entry) => entry.answer),
      [undefined, undefined, undefined, 'accept']
    );
    // Found by the list's filters, as the tasks' entries are.
    assert.deepEqual(await list({ text: 'booking' }), [
      ['elicitation', 'a', 'Your name for the booking?', 'completed']
    ]);
    assert.deepEqual(await list({ kind: 'sampling', status: 'completed', direction: 'received' }), [
      ['sampling', 'a', 'Weather in Paris?', 'completed']
    ]);
    assert.deepEqual(await list({ status: 'rejected' }), [['sampling', 'b', 'Write my essay', 'failed']]);
    assert.deepEqual(await list({ status: 'failed' }), [], 'a rejection is found as one, not as a failure');
    assert.deepEqual(await list({ serverId: 'b' }), [['sampling', 'b', 'Write my essay', 'failed']]);
    assert.deepEqual(await list({ direction: 'requested' }), []);

    const [refusedEntry, autoEntry, answeredEntry] = all.entries.slice(1);
    const detail = async (id: string) => HistoryEntrySchema.parse(await host.call('history.get', { id }));
    // The answer is kept as a task's answer is.
    const question = await detail(answeredEntry!.id);
    assert.deepEqual(question.result, { action: 'accept', content: { name: 'Ada' } });
    assert.equal((question.request as { message?: unknown }).message, 'Your name for the booking?');
    // Asked, waiting on the person, answered: no "working" before anything worked.
    assert.deepEqual(
      question.timeline.map((step) => [step.label ?? step.status, step.message]),
      [
        ['Asked', undefined],
        ['Waiting for you', 'Waiting for your answer in the Inbox'],
        ['completed', 'You answered']
      ]
    );
    const model = await detail(autoEntry!.id);
    assert.deepEqual((model.result as { content?: unknown }).content, { type: 'text', text: 'Sunny and warm.' });
    assert.equal((await detail(refusedEntry!.id)).error?.code, -1);
    const gone = await detail(all.entries[0]!.id);
    assert.equal(gone.statusMessage, 'The server cancelled the request: No longer needed');

    // They obey the retention.
    await host.call('history.setRetention', { days: 1, maxEntries: 100 });
    await clock.advance(2 * 24 * 3_600_000);
    assert.equal((await host.call('history.list', {})).total, 0, 'entries past the retention are removed');
  });

  it('filters questions by how they ended and finds entries by their answer, reply and result, paging right, after a restart too', async () => {
    const clock = new ManualClock();
    const llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    cleanups.push(() => llm.close());
    // A tool whose result says one thing in text and another only in its structured content.
    const toolServer = () => {
      const tools = new Server({ name: 'weather', version: '1.0.0' }, { capabilities: { tools: {} } });
      tools.setRequestHandler(ListToolsRequestSchema, async () => ({
        tools: [{ name: 'forecast', inputSchema: { type: 'object' as const } }]
      }));
      tools.setRequestHandler(CallToolRequestSchema, async () => ({
        content: [{ type: 'text', text: 'Light rain over Oslo tomorrow' }],
        structuredContent: { station: 'Blindern', rainMm: 12 }
      }));
      return { ...peerServer('weather'), server: tools };
    };
    const a = peerServer();
    let fixture = await startHostWith({ a, tools: toolServer() }, { clock, keyStore: new InMemoryKeyStore() });
    const dir = fixture.dir;
    cleanups.push(() => fixture.dispose());
    const { host } = fixture;
    await saveFakeProvider(host, llm.baseURL);
    await host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'auto', reviewCompletion: false } });

    // Four questions the person answers, declines and dismisses in the Inbox.
    const answers = [
      ['Who leads the team?', { action: 'accept', content: { name: 'Grace Hopper' } }],
      ['Who signs the form?', { action: 'accept', content: { name: 'Ada' } }],
      ['Share your phone number?', { action: 'decline' }],
      ['Your name for the raffle?', { action: 'cancel' }]
    ] as const;
    for (const [message, answer] of answers) {
      const asked = nextEvent(host, 'inbox.added');
      const reply = a.server.request({ method: 'elicitation/create', params: form(message) }, ElicitResultSchema);
      const { item } = await asked;
      await host.call('inbox.answer', { id: item.id, answer });
      await reply;
      await clock.advance(1);
    }
    // A model request run without asking, and a tool call.
    llm.enqueue({ kind: 'text', tokens: ['Sunny ', 'and warm in Lisbon.'] });
    await a.server.request(
      {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'Weather?' } }], maxTokens: 50 }
      },
      CreateMessageResultSchema
    );
    await clock.advance(1);
    await host.call('tools.call', { serverId: 'tools', name: 'forecast', arguments: {} });

    const check = async (current: typeof host) => {
      const titles = async (filter: HistoryFilter) =>
        (await current.call('history.list', { filter })).entries.map((entry) => entry.title);
      // By the words the rows show: a question that ended is no Completed row.
      assert.deepEqual(await titles({ status: 'answered' }), ['Who signs the form?', 'Who leads the team?']);
      assert.deepEqual(await titles({ status: 'declined' }), ['Share your phone number?']);
      assert.deepEqual(await titles({ status: 'dismissed' }), ['Your name for the raffle?']);
      assert.deepEqual(await titles({ status: 'completed' }), ['Tool call: forecast', 'Weather?']);
      // Filtered by the host: a page of one holds one answered question, and the next the other.
      const first = await current.call('history.list', { filter: { status: 'answered' }, limit: 1 });
      assert.equal(first.total, 2);
      assert.ok(first.nextCursor);
      const second = await current.call('history.list', {
        filter: { status: 'answered' },
        cursor: first.nextCursor,
        limit: 1
      });
      assert.deepEqual(
        [...first.entries, ...second.entries].map((entry) => entry.title),
        ['Who signs the form?', 'Who leads the team?']
      );
      assert.equal(second.nextCursor, undefined);

      // Found by what was answered, what the model said, what the tool returned, and how it ended.
      assert.deepEqual(await titles({ text: 'grace' }), ['Who leads the team?']);
      assert.deepEqual(await titles({ text: 'warm in lisbon' }), ['Weather?']);
      assert.deepEqual(await titles({ text: 'light rain' }), ['Tool call: forecast']);
      assert.deepEqual(await titles({ text: 'blindern' }), ['Tool call: forecast'], 'its structured content');
      assert.deepEqual(await titles({ text: 'declined' }), ['Share your phone number?']);
      assert.deepEqual(await titles({ text: 'dismissed raffle' }), ['Your name for the raffle?']);
      assert.deepEqual(await titles({ text: 'answered', status: 'answered' }), [
        'Who signs the form?',
        'Who leads the team?'
      ]);
    };
    await check(host);
    // Made again from what was stored, when the history is read after a restart.
    await fixture.stop();
    fixture = await startHostWith({ a: peerServer(), tools: toolServer() }, { clock, dir });
    await check(fixture.host);
    const bad = await fixture.host.dispatch('history.list', { filter: { status: 'replied' } });
    assert.equal(bad.ok ? undefined : bad.error.code, -32602, 'no filter by words no row says');
  });

  const { asked, ran } = editedRequest;

  /** A host with a fake model whose server `a`'s model requests ask first (and answers are reviewed, or not). */
  const askingHost = async (reviewCompletion: boolean) => {
    const llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    cleanups.push(() => llm.close());
    const a = peerServer();
    const fixture = await startHostWith({ a }, { keyStore: new InMemoryKeyStore() });
    cleanups.push(() => fixture.dispose());
    const { host } = fixture;
    await saveFakeProvider(host, llm.baseURL);
    await host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'ask', reviewCompletion } });
    return { llm, a, host };
  };

  it('keeps the request the person changed and ran beside the one the server sent, task or not; the audit says which parts', async () => {
    const { llm, a, host } = await askingHost(false);
    // Listening before the request goes: a task's approval is asked before its creation is answered.
    const approveEdited = () =>
      nextEvent(host, 'inbox.added', (p) => p.item.kind === 'sampling-approval').then(({ item }) =>
        host.call('inbox.answer', { id: item.id, answer: { action: 'approve', params: ran } })
      );

    // A plain request.
    llm.enqueue({ kind: 'text', tokens: ['There once was a queue'] });
    const plainEnded = nextEvent(host, 'history.changed', ({ entry }) => entry.status === 'completed');
    const approvedPlain = approveEdited();
    const plain = a.server.request({ method: 'sampling/createMessage', params: asked }, CreateMessageResultSchema);
    await approvedPlain;
    await plain;
    const plainSummary = (await within(plainEnded, 5_000, 'the plain request reached History')).entry;
    assert.equal(plainSummary.edited, true);
    assert.equal(plainSummary.title, 'Write a haiku about queues', 'titled by what the server asked');

    // A task-augmented one.
    llm.enqueue({ kind: 'text', tokens: ['A queue, once more'] });
    const approvedTask = approveEdited();
    const created = await a.server.request(
      { method: 'sampling/createMessage', params: { ...asked, task: { ttl: 60_000 } } },
      CreateTaskResultSchema
    );
    await within(approvedTask, 5_000, 'the task asked for approval');
    await a.server.request(
      { method: 'tasks/result', params: { taskId: created.task.taskId } },
      CreateMessageResultSchema
    );

    // The Tasks screen's list and detail say so of the task too, as History's `edited` does.
    const listed = (await host.call('tasks.list', {})).find((t) => t.task.taskId === created.task.taskId);
    assert.equal(listed?.edited, true);
    assert.equal((await host.call('tasks.get', { taskId: created.task.taskId })).edited, true);
    // Approved by the person: answered, its row says "Answered" on Tasks as in History.
    assert.equal(listed?.answered, true);
    assert.equal((await host.call('tasks.get', { taskId: created.task.taskId })).answered, true);

    const page = await host.call('history.list', { filter: { kind: 'sampling' } });
    assert.equal(page.total, 2);
    for (const summary of page.entries) {
      assert.equal(summary.edited, true, summary.id);
      assert.equal(summary.answer, 'accept', summary.id);
      const entry = HistoryEntrySchema.parse(await host.call('history.get', { id: summary.id }));
      assert.deepEqual(entry.request, asked, 'the request as the server sent it');
      assert.deepEqual(entry.ranRequest, ran, 'and the one that ran');
    }
    assert.match(llm.chatRequests.at(-1)!.body.messages.at(-1).content, /EDITED: a limerick/);

    const approvals = host.audit
      .read({ serverId: 'a', limit: 100 })
      .filter((entry) => entry.type === 'sampling.request');
    assert.deepEqual(
      approvals.map((entry) => [entry.detail?.decision, entry.detail?.changed]),
      [
        ['approved-with-edits', ['messages']],
        ['approved-with-edits', ['messages']]
      ]
    );
    const audit = host.audit.read({ limit: 1000 });
    assert.doesNotMatch(JSON.stringify(audit), /limerick/, 'nothing the person wrote in the audit');
    // The server's question only as its short preview, to tell which request was approved (the
    // approvals' entries) and what happened to it (its task's entries, for the one that was a task).
    const quoting = audit.filter((entry) => JSON.stringify(entry).includes('haiku'));
    assert.deepEqual(
      quoting.map((entry) => entry.detail?.question),
      quoting.map(() => 'Write a haiku about queues')
    );
    assert.equal(quoting.filter((entry) => entry.type === 'sampling.request').length, 2);
    assert.ok(quoting.some((entry) => entry.type.startsWith('task.')));
  });

  it('names a reviewed answer’s request in the audit, its decision on the answer too, without the words the person changed it to', async () => {
    const { llm, a, host } = await askingHost(true);
    llm.enqueue({ kind: 'text', tokens: ['There once was a queue'] });
    const approval = nextEvent(host, 'inbox.added', (p) => p.item.kind === 'sampling-approval');
    const review = nextEvent(host, 'inbox.added', (p) => p.item.kind === 'sampling-review');
    const answered = a.server.request({ method: 'sampling/createMessage', params: asked }, CreateMessageResultSchema);
    const { item } = await within(approval, 5_000, 'the approval');
    await host.call('inbox.answer', { id: item.id, answer: { action: 'approve', params: ran } });
    const reviewed = (await within(review, 5_000, 'the review')).item;
    await host.call('inbox.answer', { id: reviewed.id, answer: { action: 'approve' } });
    await answered;
    host.audit.flush();
    const audit = host.audit.read({ limit: 1000 });
    // One entry an answer, oldest first, each with the server's question (a newcomer could not tell which answer they had decided on).
    const decisions = audit
      .filter(
        (entry) =>
          entry.type.startsWith('inbox.') || entry.type === 'sampling.request' || entry.type === 'sampling.completion'
      )
      .reverse();
    assert.deepEqual(
      decisions.map((entry) => [entry.type, entry.detail?.decision, entry.detail?.question]),
      [
        ['sampling.request', 'approved-with-edits', 'Write a haiku about queues'],
        ['sampling.completion', 'approved', 'Write a haiku about queues']
      ]
    );
    assert.deepEqual(decisions.map(auditSentence), [
      'You approved a model request: “Write a haiku about queues”, with changes',
      'You approved the model’s answer to a model request: “Write a haiku about queues”'
    ]);
    assert.doesNotMatch(JSON.stringify(audit), /limerick/, 'nothing the person wrote in the audit');
  });
});
