import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { CreateTaskResultSchema, GetTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { HostEvent, HostEventPayload } from '../../../app/contract/host-api.js';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { peerServer, startHostWith, type InMemoryHostFixture } from '../../support/host-fixture.js';

// Letters and digits alternate, so that no four characters of the key read as a port or a word.
const KEY = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
const UPPER = KEY.toUpperCase();

/**
 * Every four-character piece of the key: none may reach anything that leaves Taskdesk. The random
 * ids Taskdesk makes (the task's id, UUIDs) are left out first: read case-blind, one in a few
 * hundred runs held a piece such as `4e5f` by chance.
 */
function fragmentsIn(text: string, ids: readonly string[]): string[] {
  const lower = ids
    .reduce((rest, id) => rest.replaceAll(id, '<id>'), text)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
    .toLowerCase();
  const found: string[] = [];
  for (let i = 0; i + 4 <= KEY.length; i++) if (lower.includes(KEY.slice(i, i + 4))) found.push(KEY.slice(i, i + 4));
  return found;
}

describe('a provider that echoes the API key, masked or upper-cased, in its error', () => {
  let llm: FakeOpenAIServer;
  let fixture: InMemoryHostFixture | undefined;
  before(async () => {
    llm = await FakeOpenAIServer.start({ apiKey: KEY });
  });
  after(() => llm.close());
  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  const echoes = [
    `the key ${UPPER} is not allowed here`,
    `key ${KEY.slice(0, 6)}…${KEY.slice(-4)} has no quota`,
    `key ${UPPER.slice(0, 4)}… is disabled`,
    `key ${KEY.slice(0, 4)}${'*'.repeat(24)}${KEY.slice(-4)} was revoked`,
    `key ...${UPPER.slice(-6)} belongs to another project`
  ];

  for (const [index, echo] of echoes.entries()) {
    it(`sends the server no fragment of the key (${index + 1}: ${echo.slice(0, 12)}…)`, async () => {
      const peer = peerServer();
      const seen: unknown[] = [];
      fixture = await startHostWith({ a: peer }, { keyStore: new InMemoryKeyStore() });
      const { host } = fixture;
      for (const event of ['task.changed', 'inbox.added', 'sampling.partial'] as const satisfies HostEvent[])
        host.on(event, (payload: HostEventPayload<typeof event>) => seen.push(payload));
      await host.call('providers.save', {
        id: 'fake',
        name: 'Fake LLM',
        baseURL: llm.baseURL,
        apiKey: KEY,
        models: [{ name: 'fake-small' }]
      });
      await host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'auto', reviewCompletion: false } });
      llm.enqueue({ kind: 'error', status: 400, message: echo });

      const failed = peer.nextNotification('notifications/tasks/status', (params) => params.status === 'failed');
      const created = await peer.server.request(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5, task: {} }
        },
        CreateTaskResultSchema
      );
      const notified = await failed;
      const got = await peer.server.request(
        { method: 'tasks/get', params: { taskId: created.task.taskId } },
        GetTaskResultSchema
      );
      // The server is told only what kind of failure it was; the provider's words, redacted, are
      // the person's: the audit log, the task's notes (in what the UI sees), the Desk's notice.
      assert.equal(got.statusMessage, 'Taskdesk could not run the model: its provider rejected the request.');
      const audit = await host.call('audit.read', { limit: 1000 });
      const message = String(audit.find((entry) => entry.type === 'sampling.llm')?.detail?.reason);
      assert.match(message, /Fake LLM \(127\.0\.0\.1:\d+\) rejected the request \(400\): .*\[redacted\]/);
      assert.ok(JSON.stringify(seen).includes('[redacted]'), 'the task’s notes the UI sees keep the redacted words');
      const outward = JSON.stringify([notified, got, seen, host.warnings, audit]);
      assert.deepEqual(fragmentsIn(outward, [created.task.taskId]), [], message);
    });
  }
});
