import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import {
  McpError,
  CreateMessageResultSchema,
  CreateTaskResultSchema,
  GetTaskResultSchema
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { HostEventPayload } from '../../app/contract/host-api.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { nextEvent, peerServer, startHostWith, type InMemoryHostFixture } from '../support/host-fixture.js';

const UNREACHABLE = 'Taskdesk could not run the model: its provider could not be reached.';
const params = { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'hi' } }], maxTokens: 5 };

/** What of the person's provider must not reach the server: its name, address, and advice meant for them. */
function assertNothingOfTheProvider(sent: unknown, name: string, address: string): void {
  const text = JSON.stringify(sent);
  for (const part of [name, address, 'base URL', 'port', 'provider settings'])
    assert.ok(!text.includes(part), `the server got "${part}": ${text}`);
}

describe('a model run made without asking (policy auto) that fails on its provider', () => {
  let fixture: InMemoryHostFixture | undefined;
  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  /** A host whose server `a` runs model requests without asking, on "Broken local" at port 9, where nothing listens. */
  async function brokenHost() {
    const peer = peerServer();
    fixture = await startHostWith({ a: peer }, { keyStore: new InMemoryKeyStore() });
    const { host } = fixture;
    await host.call('providers.save', {
      id: 'broken',
      name: 'Broken local',
      baseURL: 'http://127.0.0.1:9/v1',
      models: [{ name: 'gpt-test' }]
    });
    await host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'auto', reviewCompletion: false } });
    return { peer, host };
  }

  // The whole reason: the provider, its address, and what to do (the port's advice, or the server's).
  it('answers a plain request with a generic error, and tells the person on the Desk with the whole reason', async () => {
    const { peer, host } = await brokenHost();
    const notice = nextEvent(host, 'store.warning');
    const inHistory = nextEvent(host, 'history.changed', ({ entry }) => entry.status === 'failed');
    const thrown = await peer.server
      .request({ method: 'sampling/createMessage', params }, CreateMessageResultSchema)
      .then(
        () => assert.fail('the request should fail'),
        (error: unknown) => error
      );
    assert.ok(thrown instanceof McpError);
    assert.equal(thrown.code, -32603);
    assert.equal(thrown.message, `MCP error -32603: ${UNREACHABLE}`);
    assert.deepEqual(thrown.data, { kind: 'unreachable' });
    assertNothingOfTheProvider([thrown.message, thrown.data], 'Broken local', '127.0.0.1:9');

    const { message, links } = await notice;
    assert.match(
      message,
      /^A model request from Server a ran without asking \(its policy is Run without asking\) and failed on Broken local \(gpt-test\): Could not connect to Broken local \(127\.0\.0\.1:9\)[.:] .*the base URL.*[.?] Server a was told only that the model could not be run\. Check Broken local under LLM providers, or set Server a to Ask me first on the Servers screen\.$/
    );
    // With links to the screens its last sentence names, in its order.
    const screens = [
      { label: 'Open Broken local in LLM providers', href: '#providers/broken' },
      { label: 'Open the Servers screen', href: '#servers' }
    ];
    assert.deepEqual(links, screens);
    // A window opened later shows it too, its links with it.
    assert.deepEqual(
      host.warnings.filter((warning) => warning.message === message).map((warning) => warning.links),
      [screens]
    );
    // The audit log keeps the whole reason.
    const [failed] = await host.call('audit.read', { type: 'sampling.llm' });
    assert.match(String(failed?.detail?.reason), /^Could not connect to Broken local \(127\.0\.0\.1:9\)/);
    // So does History, which is the person's too.
    const { entry } = await inHistory;
    assert.match(entry.statusMessage ?? '', /^Could not connect to Broken local \(127\.0\.0\.1:9\)/);
  });

  it('fails a task with a generic status message and tasks/result error; the task’s notes keep the whole reason', async () => {
    const { peer, host } = await brokenHost();
    const changes: Array<HostEventPayload<'task.changed'>> = [];
    host.on('task.changed', (payload) => changes.push(payload));
    const notified = peer.nextNotification('notifications/tasks/status', (p) => p.status === 'failed');
    const notice = nextEvent(host, 'store.warning');
    const inHistory = nextEvent(host, 'history.changed', ({ entry }) => entry.status === 'failed');
    const { task } = await peer.server.request(
      { method: 'sampling/createMessage', params: { ...params, task: { ttl: 60_000 } } },
      CreateTaskResultSchema
    );
    const status = await notified;
    assert.equal(status.statusMessage, UNREACHABLE);
    const got = await peer.server.request(
      { method: 'tasks/get', params: { taskId: task.taskId } },
      GetTaskResultSchema
    );
    assert.deepEqual([got.status, got.statusMessage], ['failed', UNREACHABLE]);
    const result = await peer.server
      .request({ method: 'tasks/result', params: { taskId: task.taskId } }, z.looseObject({}))
      .then(
        () => assert.fail('tasks/result should replay the error'),
        (error: unknown) => error
      );
    assert.ok(result instanceof McpError);
    assert.equal(result.message, `MCP error -32603: ${UNREACHABLE}`);
    assert.deepEqual(result.data, { kind: 'unreachable' });
    assertNothingOfTheProvider([status, got, result.message, result.data], 'Broken local', '127.0.0.1:9');

    assert.match((await notice).message, /failed on Broken local \(gpt-test\): Could not connect to Broken local/);
    const notes = changes.flatMap((change) => change.task?.notes ?? []);
    assert.ok(
      notes.some((note) => /^Could not connect to Broken local \(127\.0\.0\.1:9\)/.test(String(note.failure))),
      JSON.stringify(notes)
    );
    // History says the whole reason, not what the server was told.
    const { entry } = await inHistory;
    assert.match(entry.statusMessage ?? '', /^Could not connect to Broken local \(127\.0\.0\.1:9\)/);
  });

  it('keeps one notice a server: the next failure replaces the one before', async () => {
    const { peer, host } = await brokenHost();
    const told: Array<HostEventPayload<'store.warning'>> = [];
    for (let i = 0; i < 2; i++) {
      const notice = nextEvent(host, 'store.warning');
      await peer.server
        .request({ method: 'sampling/createMessage', params }, CreateMessageResultSchema)
        .catch(() => undefined);
      told.push(await notice);
    }
    assert.equal(host.warnings.filter((warning) => /ran without asking/.test(warning.message)).length, 1);
    // A window already open is told which one the new one replaces.
    assert.equal(told[0]!.replaces, undefined);
    assert.equal(told[1]!.replaces, told[0]!.id);
  });
});

describe('what a server is told of each kind of provider failure under auto', () => {
  let llm: FakeOpenAIServer;
  let fixture: InMemoryHostFixture | undefined;
  before(async () => {
    llm = await FakeOpenAIServer.start({ apiKey: 'sk-test-4242-never-shown' });
  });
  after(() => llm.close());
  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  const kinds = [
    { status: 401, kind: 'auth', words: 'its provider did not accept the credentials.' },
    { status: 404, kind: 'model-not-found', words: 'its provider does not offer it.' },
    { status: 400, kind: 'bad-request', words: 'its provider rejected the request.' }
  ] as const;
  for (const { status, kind, words } of kinds) {
    it(`${status}: "${words}", nothing of the provider`, async () => {
      const peer = peerServer();
      fixture = await startHostWith({ a: peer }, { keyStore: new InMemoryKeyStore() });
      await fixture.host.call('providers.save', {
        id: 'mine',
        name: 'My provider',
        baseURL: llm.baseURL,
        apiKey: 'sk-test-4242-never-shown',
        models: [{ name: 'fake-small' }]
      });
      await fixture.host.call('sampling.setPolicy', {
        serverId: 'a',
        policy: { mode: 'auto', reviewCompletion: false }
      });
      llm.enqueue({ kind: 'error', status, message: 'provider detail for sk-test-4242-never-shown' });
      const thrown = await peer.server
        .request({ method: 'sampling/createMessage', params }, CreateMessageResultSchema)
        .then(
          () => assert.fail('the request should fail'),
          (error: unknown) => error
        );
      assert.ok(thrown instanceof McpError);
      assert.equal(thrown.message, `MCP error -32603: Taskdesk could not run the model: ${words}`);
      assert.deepEqual(thrown.data, { kind });
      assertNothingOfTheProvider([thrown.message, thrown.data], 'My provider', new URL(llm.baseURL).host);
      assert.ok(!JSON.stringify([thrown.message, thrown.data]).includes('provider detail'));
    });
  }
});
