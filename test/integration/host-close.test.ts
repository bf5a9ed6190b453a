import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, it, mock } from 'node:test';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  CallToolRequestSchema,
  CreateMessageResultSchema,
  CreateTaskResultSchema,
  ElicitResultSchema,
  GetTaskResultSchema,
  ListToolsRequestSchema
} from '@modelcontextprotocol/sdk/types.js';
import { AuditLog } from '../../app/audit/audit-log.js';
import { auditSentence } from '../../app/contract/audit-words.js';
import { createHost, type Host } from '../../app/host/host.js';
import { inboxHolds, nextEvent, peerServer, startHostWith, tempDir } from '../support/host-fixture.js';
import { ManualClock } from '../support/manual-clock.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { saveFakeProvider } from '../support/assistant-fixture.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';

const STOPPED_BEFORE_ANSWER = 'Taskdesk stopped before it was answered; the server was not answered';
const STOPPED_WHILE_RUNNING = 'Taskdesk stopped while the call ran; its result was not received';
const CLOSED_WITH_OPEN_WORK =
  /^When Taskdesk last closed \(at [^)]+\), 1 question without a task was waiting, from Server a \(“Ship the release\?”\), and 1 tool call without a task was running, on Server a: Taskdesk cancelled them; the server that asked was not answered, and the call’s result was not received\. History lists them as “Cancelled by Taskdesk”\.$/;
const UNCLEAN =
  /^Taskdesk did not close cleanly last time \(last seen running at about [^)]+\): questions and model requests without a task that were waiting, and tool calls without a task that were running, were lost; their servers were not answered\. Tasks are kept, but a server Taskdesk starts itself \(stdio\) was started again, and its running tasks are lost unless it stores them\.$/;

/** A peer server with one tool that never answers. */
function slowToolServer() {
  const peer = peerServer();
  peer.server.registerCapabilities({ tools: {} });
  peer.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'wait', inputSchema: { type: 'object' } }]
  }));
  peer.server.setRequestHandler(CallToolRequestSchema, () => new Promise<never>(() => undefined));
  return peer;
}

describe('closing Taskdesk with plain work open', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('records a waiting plain question and a running plain call in History as cancelled by Taskdesk, and audits why', async () => {
    const peer = slowToolServer();
    const data = tempDir();
    cleanups.push(data.remove);
    const fixture = await startHostWith({ a: peer }, { dir: data.dir });
    const { host } = fixture;

    // A plain question waiting in the Inbox, and a plain call that never returns.
    const question = peer.server
      .request(
        {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Ship the release?',
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } }
          }
        },
        ElicitResultSchema
      )
      .then(
        () => 'answered',
        () => 'not answered'
      );
    await inboxHolds(host, 1);
    const running = nextEvent(host, 'call.changed', ({ call }) => call.state === 'running');
    const call = host.dispatch('tools.call', { serverId: 'a', name: 'wait', arguments: {}, asTask: false });
    await running;

    await fixture.stop();
    const reply = await call;
    assert.equal(reply.ok ? undefined : reply.error.message, STOPPED_WHILE_RUNNING);
    assert.equal(await question, 'not answered');
    // What browser mode says as it stops: this close's work, in the words the next start uses.
    assert.equal(
      host.closedWords,
      '1 question without a task was waiting, from Server a (“Ship the release?”), and 1 tool call without a task was running, on Server a: Taskdesk cancelled them; the server that asked was not answered, and the call’s result was not received.'
    );

    const reopened = createHost({ dataDir: data.dir, autoConnect: false });
    let reopenedOpen = true;
    cleanups.push(() => (reopenedOpen ? reopened.close() : undefined));
    const page = await reopened.call('history.list', {});
    // Both ended at the same moment: in either order.
    assert.deepEqual(
      page.entries
        .map((entry) => [entry.direction, entry.kind, entry.title, entry.status, entry.cancelledBy])
        .sort((x, y) => String(x[1]).localeCompare(String(y[1]))),
      [
        ['received', 'elicitation', 'Ship the release?', 'cancelled', 'taskdesk'],
        ['requested', 'tool-call', 'Tool call: wait', 'cancelled', 'taskdesk']
      ]
    );
    for (const entry of page.entries) {
      const expected = entry.kind === 'tool-call' ? STOPPED_WHILE_RUNNING : STOPPED_BEFORE_ANSWER;
      assert.equal(entry.statusMessage, expected, entry.id);
    }

    const withdrawn = await reopened.call('audit.read', { type: 'inbox.withdrawn' });
    assert.deepEqual(
      withdrawn.map((entry) => entry.detail?.reason),
      [STOPPED_BEFORE_ANSWER]
    );
    // Cancelled by Taskdesk as it closed, as History says it: not a call that failed.
    const ended = await reopened.call('audit.read', { type: 'tool.call-ended' });
    assert.deepEqual(
      ended.map((entry) => [entry.detail?.outcome, entry.detail?.cancelledBy, entry.detail?.reason]),
      [['cancelled', 'taskdesk', STOPPED_WHILE_RUNNING]]
    );
    assert.equal(auditSentence(ended[0]!), 'The call to the tool wait was cancelled by Taskdesk, as it closed');
    // The next start says once what the close cancelled (no unclean stop: the close was clean).
    assert.equal(reopened.warnings.length, 1, JSON.stringify(reopened.warnings));
    assert.match(reopened.warnings[0]!.message, CLOSED_WITH_OPEN_WORK);
    const said = await reopened.call('audit.read', { type: 'host.open-work-cancelled' });
    assert.match(String(said.at(-1)?.detail?.message), CLOSED_WITH_OPEN_WORK);
    assert.deepEqual(await reopened.call('audit.read', { type: 'host.unclean-stop' }), []);
    reopenedOpen = false;
    await reopened.close();
    assert.equal(reopened.closedWords, undefined, 'nothing was open: the note it took is not said again');

    // Said once: the start after says nothing, and a close with nothing open leaves no note.
    const third = createHost({ dataDir: data.dir, autoConnect: false });
    assert.deepEqual(third.warnings, []);
    await third.close();
    assert.ok(!fs.existsSync(path.join(data.dir, 'closed-with-open-work.json')));
  });

  it('says at the next start that Taskdesk did not close cleanly, once, and not after a clean close', async () => {
    const data = tempDir();
    cleanups.push(data.remove);
    const running = createHost({ dataDir: data.dir, autoConnect: false });
    cleanups.push(() => running.close());
    // What a SIGKILL leaves: the data directory of a host that never closed.
    const copy = tempDir();
    cleanups.push(copy.remove);
    fs.cpSync(data.dir, copy.dir, { recursive: true });

    let next: Host = createHost({ dataDir: copy.dir, autoConnect: false });
    assert.equal(next.warnings.length, 1, JSON.stringify(next.warnings));
    assert.match(next.warnings[0]!.message, UNCLEAN);
    // Each warning has its own id, the same each time it is given out (a stream replays it), and
    // the same words said again (another start from the same state) are another warning, another id.
    const id = next.warnings[0]!.id;
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.equal(next.warnings[0]!.id, id);
    const again = tempDir();
    cleanups.push(again.remove);
    fs.cpSync(data.dir, again.dir, { recursive: true });
    const other = createHost({ dataDir: again.dir, autoConnect: false });
    assert.equal(other.warnings[0]?.message, next.warnings[0]!.message);
    assert.notEqual(other.warnings[0]?.id, id);
    await other.close();
    const audited = await next.call('audit.read', { type: 'host.unclean-stop' });
    assert.match(String(audited.at(-1)?.detail?.message), UNCLEAN);
    await next.close();

    // Closed cleanly this time: nothing to say, though the first one was said only once.
    next = createHost({ dataDir: copy.dir, autoConnect: false });
    assert.deepEqual(next.warnings, []);
    await next.close();
  });
});

describe('the audit log around a close', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('has written every entry the closing made when close resolves: connections closed, a flood summarized', async () => {
    const a = peerServer('a');
    const b = peerServer('b');
    const data = tempDir();
    cleanups.push(data.remove);
    // A clock that does not move: past the burst of 20, every lookup is held back for a summary.
    const fixture = await startHostWith({ a, b }, { dir: data.dir, clock: new ManualClock() });
    cleanups.push(() => fixture.stop());
    for (let i = 0; i < 40; i++)
      await assert.rejects(
        b.server.request({ method: 'tasks/get', params: { taskId: `nope-${i}` } }, GetTaskResultSchema)
      );

    await fixture.host.close();
    // The files as the close left them, read by a log of their own.
    const entries = new AuditLog({ dir: path.join(data.dir, 'audit'), clock: new ManualClock() }).read({ limit: 1000 });
    const closed = entries.filter((entry) => entry.type === 'server.state' && entry.detail?.status === 'closed');
    assert.deepEqual(closed.map((entry) => entry.serverId).sort(), ['a', 'b']);
    // Closed by Taskdesk's own close, not by the person: said so.
    assert.deepEqual(
      closed.map((entry) => entry.detail?.reason),
      ['Disconnected by Taskdesk', 'Disconnected by Taskdesk']
    );
    const summaries = entries.filter((entry) => entry.type === 'audit.summary' && entry.serverId === 'b');
    assert.deepEqual(
      summaries.map((entry) => [entry.detail?.of, entry.detail?.count]),
      [['task.unknown-id', 20]]
    );
    // The servers going away after the close record nothing more.
    await Promise.all([a.server.close(), b.server.close()]);
    assert.equal(fixture.host.audit.dropped, 0);
  });

  it('has the end of a model call the close cancelled, plain or of a task, written when close resolves', async () => {
    const peer = peerServer('a');
    const data = tempDir();
    cleanups.push(data.remove);
    const llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    cleanups.push(() => llm.close());
    const fixture = await startHostWith({ a: peer }, { dir: data.dir, keyStore: new InMemoryKeyStore() });
    cleanups.push(() => fixture.stop());
    const { host } = fixture;
    await saveFakeProvider(host, llm.baseURL);
    await host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'auto', reviewCompletion: false } });
    // Two model calls that stream nothing until the close: one of a plain request, one of a task.
    llm.enqueue({ kind: 'hold' }, { kind: 'hold' });
    const request = {
      method: 'sampling/createMessage',
      params: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 5 }
    } as const;
    const plain = peer.server.request(request, CreateMessageResultSchema).catch(() => 'not answered');
    await llm.nextHeld();
    const created = await peer.server.request(
      { ...request, params: { ...request.params, task: { ttl: 60_000 } } },
      CreateTaskResultSchema
    );
    await llm.nextHeld();

    await host.close();
    assert.equal(await plain, 'not answered');
    const entries = new AuditLog({ dir: path.join(data.dir, 'audit'), clock: new ManualClock() }).read({ limit: 1000 });
    // Each ended when its abort reached it: in either order.
    const ends = entries
      .filter((entry) => entry.type === 'sampling.llm')
      .map((entry) => [entry.taskId ?? 'plain', entry.detail?.decision, entry.detail?.reason])
      .sort((x, y) => String(x[0]).localeCompare(String(y[0])));
    assert.deepEqual(
      ends,
      [
        ['plain', 'failed', 'The model run was cancelled.'],
        [created.task.taskId, 'failed', 'The model run was cancelled.']
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0])))
    );
    assert.equal(host.audit.dropped, 0, 'nothing the close caused was recorded after the log closed');
  });

  it('does not connect a server whose connect was under way at the close, and records nothing after it', async () => {
    const peer = peerServer('a');
    const data = tempDir();
    cleanups.push(data.remove);
    let transports = 0;
    const host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [{ id: 'a', name: 'Server a', transport: { type: 'stdio', command: 'in-memory-a' } }],
      transportFactory: () => {
        transports++;
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        void peer.server.connect(serverSide);
        return clientSide;
      }
    });
    cleanups.push(() => peer.server.close());
    const errors = mock.method(console, 'error', () => undefined);
    cleanups.push(() => errors.mock.restore());

    // The connect waits for the server's secrets first: the close comes meanwhile.
    const connecting = host.connect('a');
    await host.close();
    const view = await connecting;
    assert.notEqual(view.state.status, 'ready');
    assert.equal(transports, 0, 'no server started after the close');
    assert.equal(host.connection('a'), undefined);
    assert.equal(host.audit.dropped, 0, 'nothing recorded after the close');
    data.remove();
    assert.deepEqual(
      errors.mock.calls.map((call) => call.arguments),
      []
    );
  });
});
