import assert from 'node:assert/strict';
import { headlessBrowser } from '../support/conformance-auth.js';
import { startOAuthTestServers } from '../support/oauth-test-servers.js';
import { after, before, describe, it } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import {
  CreateTaskResultSchema,
  GetPromptRequestSchema,
  ReadResourceRequestSchema
} from '@modelcontextprotocol/sdk/types.js';
import { HostMethods, type HostMethod, type HostParams, type HostResult } from '../../app/contract/host-api.js';
import { isHostMethod, unknownHostMethod } from '../../app/contract/known-method.js';
import { ManualClock } from '../support/manual-clock.js';
import { hostMethods, type HostMethodTable } from '../../app/host/host-methods.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { nextEvent, peerServer, startHostWith, tempDir, type InMemoryHostFixture } from '../support/host-fixture.js';
import { createTaskToolServer } from '../support/task-tool-server.js';
import { answered, settled } from '../support/assistant-fixture.js';

const METHODS = Object.keys(HostMethods) as HostMethod[];
const KEY = 'sk-contract-test-1234';

// Compile-time: the table's keys are exactly the contract's methods, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const tableCoversContract: Same<keyof HostMethodTable, HostMethod> = true;

const formParams = {
  mode: 'form',
  message: 'Who are you?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }
} as const;

describe('host API contract', () => {
  it('has one handler for every method of the contract, and no other', () => {
    assert.equal(tableCoversContract, true);
    // Building the table reads none of its parts, so an empty object stands in for them.
    assert.deepEqual(Object.keys(hostMethods({} as never)).sort(), [...METHODS].sort());
  });

  it('knows exactly the contract methods, never a prototype name', () => {
    for (const method of METHODS) assert.equal(isHostMethod(method), true, method);
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'no.such', 42, undefined, null])
      assert.equal(isHostMethod(name), false, String(name));
    assert.deepEqual(unknownHostMethod('no.such'), { code: -32601, message: 'Unknown host method no.such' });
  });

  describe('every method, driven for real, answers what its result schema says', () => {
    let fixture: InMemoryHostFixture;
    let llm: FakeOpenAIServer;
    const toolClock = new ManualClock();
    const inbound = peerServer('inbound');
    const covered = new Set<HostMethod>();

    /** Calls a method through `dispatch`, as every transport does, and checks the result against the contract. */
    async function drive<M extends HostMethod>(method: M, params: HostParams<M>): Promise<HostResult<M>> {
      const reply = await fixture.host.dispatch(method, params);
      assert.ok(reply.ok, `${method} failed: ${reply.ok ? '' : reply.error.message}`);
      const parsed = HostMethods[method].result.safeParse(reply.result);
      assert.ok(
        parsed.success,
        `${method} answered outside its result schema: ${parsed.success ? '' : parsed.error.message}`
      );
      // Nothing the contract does not name: a parse that dropped a field would differ.
      assert.deepEqual(
        JSON.parse(JSON.stringify(parsed.data)),
        JSON.parse(JSON.stringify(reply.result)),
        `${method} answered fields the contract does not name`
      );
      covered.add(method);
      return reply.result;
    }

    const data = tempDir();
    before(async () => {
      // No key required: local detection probes without one.
      llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
      const tools = createTaskToolServer({ clock: toolClock, pollInterval: 60_000 });
      // A prompt and a resource for prompts.get and resources.read.
      const spare = peerServer('spare');
      spare.server.registerCapabilities({ prompts: {}, resources: {} });
      spare.server.setRequestHandler(GetPromptRequestSchema, () => ({
        messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }]
      }));
      spare.server.setRequestHandler(ReadResourceRequestSchema, (request) => ({
        contents: [{ uri: request.params.uri, text: 'notes' }]
      }));
      // An exchange a restart left ended (its caller gone), for exchanges.*.
      fs.mkdirSync(path.join(data.dir, 'exchanges'), { recursive: true });
      fs.writeFileSync(
        path.join(data.dir, 'exchanges', 'ex-contract.json'),
        JSON.stringify({
          schemaVersion: 1,
          exchangeId: 'ex-contract',
          serverId: 'spare',
          serverName: 'Server spare',
          method: 'tools/call',
          params: { name: 'ask', arguments: {} },
          asTask: false,
          round: 1,
          inputRequests: {},
          answers: {},
          state: 'completed',
          outcome: { type: 'result', result: { content: [] } },
          createdAt: '2026-12-01T00:00:00.000Z',
          updatedAt: '2026-12-01T00:00:01.000Z'
        })
      );
      // One a restart left waiting for the person after a link they agreed to open, for exchanges.continue.
      fs.writeFileSync(
        path.join(data.dir, 'exchanges', 'ex-link.json'),
        JSON.stringify({
          schemaVersion: 1,
          exchangeId: 'ex-link',
          serverId: 'spare',
          serverName: 'Server spare',
          method: 'tools/call',
          params: { name: 'sign-in', arguments: {} },
          asTask: false,
          round: 1,
          inputRequests: {
            page: {
              method: 'elicitation/create',
              params: { mode: 'url', message: 'Sign in', url: 'https://example.com/sign-in', elicitationId: 'el-1' }
            }
          },
          answers: { page: { action: 'accept' } },
          state: 'waiting-for-you',
          createdAt: '2026-11-30T00:00:00.000Z',
          updatedAt: '2026-11-30T00:00:01.000Z'
        })
      );
      fixture = await startHostWith(
        {
          inbound,
          tools: { ...peerServer('tools'), server: tools.server.server },
          spare
        },
        {
          dir: data.dir,
          keyStore: new InMemoryKeyStore(),
          // No other host's configs: a home with nothing in it.
          importPlaces: { home: '/nonexistent/taskdesk-contract-home', platform: 'linux' },
          localLlmPorts: [{ id: 'ollama', name: 'Ollama', port: llm.port }],
          localLlmProbeTimeoutMs: 15_000
        }
      );
    });
    after(async () => {
      await fixture.dispose();
      await llm.close();
      data.remove();
    });

    it('exchanges.*, prompts.get, resources.read, roots.*', async () => {
      const [ended] = await drive('exchanges.list', {});
      assert.equal(ended?.exchangeId, 'ex-contract');
      assert.equal((await drive('exchanges.cancel', { exchangeId: 'ex-contract' })).state, 'completed');
      // Sent once the server is connected (it never is here: the retry waits for it).
      assert.equal((await drive('exchanges.continue', { exchangeId: 'ex-link' })).state, 'retrying');
      assert.deepEqual(await drive('exchanges.forget', { exchangeId: 'ex-contract' }), { ok: true });
      assert.deepEqual((await drive('prompts.get', { serverId: 'spare', name: 'p' })).messages, [
        { role: 'user', content: { type: 'text', text: 'hi' } }
      ]);
      assert.deepEqual((await drive('resources.read', { serverId: 'spare', uri: 'notes://x' })).contents, [
        { uri: 'notes://x', text: 'notes' }
      ]);
      assert.deepEqual(await drive('roots.set', { serverId: 'spare', folders: [data.dir] }), { folders: [data.dir] });
      assert.deepEqual(await drive('roots.get', { serverId: 'spare' }), { folders: [data.dir] });
    });

    it('servers.*', async () => {
      assert.equal((await drive('servers.list', {})).length, 3);
      const added = await drive('servers.add', {
        id: 'extra',
        name: 'Extra',
        transport: { type: 'stdio', command: 'never-started', args: ['--token=secret'] },
        autoConnect: false
      });
      assert.equal(added.state.status, 'idle');
      const settings = await drive('servers.get', { serverId: 'extra' });
      assert.equal(settings.editable, true);
      const edited = await drive('servers.update', {
        serverId: 'extra',
        settings: {
          name: 'Extra edited',
          autoConnect: false,
          protocol: '2026-07-28',
          transport: {
            type: 'http',
            url: 'http://127.0.0.1:9/mcp',
            headers: [{ name: 'Authorization', value: 'Bearer x', secret: true }]
          }
        }
      });
      assert.equal(edited.settings.name, 'Extra edited');
      assert.deepEqual(await drive('servers.stderr', { serverId: 'extra' }), { text: '', truncated: false });
      const text = JSON.stringify({ mcpServers: { pasted: { command: 'never-started' } } });
      const found = await drive('servers.importFind', { text });
      assert.equal(found.sources.find((source) => source.kind === 'pasted')?.servers[0]?.key, 'pasted');
      const imported = await drive('servers.importAdd', {
        origin: { text },
        picks: [{ key: 'pasted' }],
        onClash: 'skip'
      });
      assert.deepEqual(imported.added, [{ key: 'pasted', id: 'pasted', name: 'pasted', autoConnect: false }]);
      assert.deepEqual(await drive('servers.remove', { serverId: 'pasted' }), { ok: true });
      assert.deepEqual(await drive('servers.remove', { serverId: 'extra' }), { ok: true });
      assert.equal((await drive('servers.connect', { serverId: 'spare' })).state.status, 'ready');
      assert.equal((await drive('servers.disconnect', { serverId: 'spare' })).state.status, 'closed');
    });

    it('tasks.* and inbox.*', async () => {
      const added = nextEvent(fixture.host, 'inbox.added');
      const first = await inbound.server.request(
        { method: 'elicitation/create', params: { ...formParams, task: { ttl: 60_000 } } },
        CreateTaskResultSchema
      );
      await added;
      const second = await inbound.server.request(
        { method: 'elicitation/create', params: { ...formParams, task: { ttl: 60_000 } } },
        CreateTaskResultSchema
      );
      assert.equal((await drive('tasks.list', { serverId: 'inbound' })).length, 2);
      assert.equal((await drive('tasks.get', { taskId: first.task.taskId })).kind, 'elicitation');
      const items = await drive('inbox.list', {});
      assert.ok(items.some((item) => item.id === first.task.taskId));
      assert.deepEqual(await drive('inbox.keepDraft', { id: first.task.taskId, values: { name: 'Ad' } }), {
        kept: true
      });
      assert.deepEqual(await drive('inbox.hold', { id: first.task.taskId, held: true }), { ok: true });
      assert.equal(fixture.host.inbox.waiting, 1);
      await drive('inbox.answer', { id: first.task.taskId, answer: { action: 'accept', content: { name: 'Ada' } } });
      assert.equal((await drive('tasks.get', { taskId: first.task.taskId })).outcome?.type, 'result');
      assert.equal((await drive('tasks.cancel', { taskId: second.task.taskId })).status, 'cancelled');
    });

    it('tools.* and outbound.*', async () => {
      const tools = await drive('tools.list', { serverId: 'tools', refresh: true });
      assert.equal(tools.find((tool) => tool.name === 'work-required')?.taskSupport, 'required');
      const plain = await drive('tools.call', {
        serverId: 'tools',
        name: 'work-forbidden',
        arguments: { label: 'x' },
        callId: 'plain-1'
      });
      assert.equal(plain.type, 'result');
      assert.deepEqual(await drive('tools.runningCalls', {}), []);
      const unknownCall = await fixture.host.dispatch('tools.cancelCall', { callId: 'plain-1' });
      assert.equal(
        unknownCall.ok ? undefined : unknownCall.error.code,
        -32602,
        'a call that ended cannot be cancelled'
      );
      covered.add('tools.cancelCall');
      const called = await drive('tools.call', {
        serverId: 'tools',
        name: 'work-required',
        arguments: { durationMs: 3_600_000 }
      });
      assert.equal(called.type, 'task');
      const outboundId = called.type === 'task' ? called.task.outboundId : '';
      assert.ok((await drive('outbound.list', {})).some((task) => task.outboundId === outboundId));
      assert.equal((await drive('outbound.get', { outboundId })).state, 'working');
      assert.equal((await drive('outbound.refresh', { outboundId })).state, 'working');
      const page = await drive('outbound.serverTasks', { serverId: 'tools' });
      assert.equal(page.tasks.length, 1);
      await drive('outbound.cancel', { outboundId });
      assert.deepEqual(await drive('outbound.forget', { outboundId }), { ok: true });
    });

    it('providers.* and sampling.*', async () => {
      const saved = await drive('providers.save', {
        id: 'fake',
        name: 'Fake LLM',
        baseURL: llm.baseURL,
        apiKey: KEY,
        models: [{ name: 'fake-small' }]
      });
      assert.equal(saved.hasKey, true);
      // An update within the key's origin keeps it; adding under an id in use is refused.
      assert.equal((await drive('providers.save', { ...saved, name: 'Fake', mode: 'update' })).hasKey, true);
      const again = await fixture.host.dispatch('providers.save', { id: 'fake', name: 'Other', baseURL: llm.baseURL });
      assert.ok(!again.ok && again.error.code === -32602, 'an add under an id in use is refused');
      assert.equal((await drive('providers.list', {})).length, 1);
      assert.deepEqual(await drive('providers.test', { providerId: 'fake' }), { ok: true, models: ['fake-small'] });
      // Moved to another origin without a new key: the key was for the old one, and is deleted.
      const moved = await drive('providers.save', { ...saved, baseURL: 'http://127.0.0.1:9/v1', mode: 'update' });
      assert.deepEqual([moved.hasKey, moved.keyDroppedFor], [false, new URL(llm.baseURL).origin]);
      assert.equal((await drive('providers.clearKey', { providerId: 'fake' })).hasKey, false);
      assert.equal((await drive('providers.detect', {}))[0]?.id, 'ollama');
      // The only one: at the top already, wherever it is asked to go.
      assert.deepEqual(await drive('providers.move', { providerId: 'fake', position: 3 }), { ok: true });
      const refused = await fixture.host.dispatch('providers.move', { providerId: 'nobody', position: 0 });
      assert.ok(!refused.ok && refused.error.code === -32602, 'an unknown provider is refused');
      assert.deepEqual(await drive('providers.remove', { providerId: 'fake' }), { ok: true });
      assert.equal((await drive('sampling.getPolicy', { serverId: 'inbound' })).mode, 'ask');
      const policy = await drive('sampling.setPolicy', {
        serverId: 'inbound',
        policy: { mode: 'auto', reviewCompletion: false }
      });
      assert.deepEqual(policy, { mode: 'auto', reviewCompletion: false });
      // No model writes for it now: nothing to stop (the Stop itself: test/integration/sampling-stop.test.ts).
      assert.deepEqual(await drive('sampling.stop', { serverId: 'inbound', taskId: 'no-such-task' }), {
        stopped: false
      });
    });

    it('history.*', async () => {
      // The tasks above are in the history: the answered elicitation among them.
      const page = await drive('history.list', { filter: { serverId: 'inbound' }, limit: 1 });
      assert.equal(page.entries.length, 1);
      assert.ok(page.nextCursor);
      const next = await drive('history.list', { cursor: page.nextCursor, limit: 1 });
      assert.notEqual(next.entries[0]?.id, page.entries[0]?.id);
      assert.equal((await drive('history.get', { id: page.entries[0]!.id })).serverId, 'inbound');
      assert.ok((await drive('history.export', { filter: { kind: 'elicitation' } })).count >= 2);
      assert.deepEqual(await drive('history.getRetention', {}), { days: 30, maxEntries: 20_000 });
      assert.deepEqual(await drive('history.setRetention', { days: 60, maxEntries: 1_000 }), {
        days: 60,
        maxEntries: 1_000
      });
    });

    it('assistant.*', async () => {
      const host = fixture.host;
      await host.call('providers.save', { id: 'chat', name: 'Chat LLM', baseURL: llm.baseURL });
      const chat = await drive('assistant.create', { providerId: 'chat', model: 'fake-small', serverIds: ['tools'] });
      assert.equal(chat.title, 'New chat');
      assert.equal((await drive('assistant.update', { conversationId: chat.id, title: 'Contract' })).title, 'Contract');
      assert.equal((await drive('assistant.list', { query: 'contract' }))[0]?.id, chat.id);
      assert.deepEqual(await drive('assistant.sources', { serverId: 'tools' }), { prompts: [], resources: [] });
      assert.equal((await drive('assistant.getPolicy', { serverId: 'tools' })).mode, 'ask');
      assert.deepEqual(
        await drive('assistant.setPolicy', { serverId: 'tools', policy: { mode: 'ask', alwaysAllow: [] } }),
        {
          mode: 'ask',
          alwaysAllow: []
        }
      );
      llm.enqueue(
        { kind: 'tool-calls', calls: [{ id: 'k1', name: 'tools__work-forbidden', arguments: '{"label":"x"}' }] },
        { kind: 'error', status: 500 },
        { kind: 'text', tokens: ['fine'] }
      );
      const approval = nextEvent(host, 'assistant.approval');
      await drive('assistant.send', { conversationId: chat.id, text: 'Go' });
      await approval;
      await drive('assistant.decide', { conversationId: chat.id, toolCallId: 'k1', decision: { action: 'approve' } });
      await settled(host, chat.id, (c) => c.status === 'failed');
      await drive('assistant.retry', { conversationId: chat.id });
      await settled(host, chat.id, answered);
      llm.enqueue({ kind: 'text', tokens: ['again'] });
      const sent = (await host.call('assistant.get', { conversationId: chat.id })).messages[0]!;
      await drive('assistant.resend', { conversationId: chat.id, messageId: sent.id, text: 'Go again' });
      await settled(host, chat.id, answered);
      assert.equal((await drive('assistant.stop', { conversationId: chat.id })).status, 'idle');
      assert.equal((await drive('assistant.get', { conversationId: chat.id })).id, chat.id);
      assert.deepEqual(await drive('assistant.delete', { conversationId: chat.id }), { ok: true });
    });

    it('auth.*', async () => {
      const oauth = await startOAuthTestServers({ consent: 'auto' });
      try {
        const host = fixture.host;
        for (const id of ['oauth', 'oauth-pre'])
          await host.call('servers.add', {
            id,
            name: id,
            autoConnect: false,
            transport: { type: 'http', url: oauth.mcpUrl }
          });
        assert.deepEqual(await drive('auth.setClient', { serverId: 'oauth-pre', clientId: 'by-hand' }), { ok: true });
        assert.deepEqual(await drive('auth.forgetClient', { serverId: 'oauth-pre' }), { ok: true });
        assert.deepEqual(await drive('auth.cancelSignIn', { serverId: 'oauth-pre' }), { ok: true });
        const start = await drive('auth.signIn', { serverId: 'oauth' });
        assert.equal(start.type, 'open');
        const signedIn = nextEvent(host, 'server.state', ({ state }) => state.auth?.status === 'signed-in');
        if (start.type === 'open') await headlessBrowser(start.authorizationUrl);
        await signedIn;
        assert.deepEqual((await drive('auth.signOut', { serverId: 'oauth' })).state.auth, {
          status: 'signed-out',
          issuer: oauth.issuer,
          revocation: { outcome: 'revoked' }
        });
        for (const id of ['oauth', 'oauth-pre']) await host.call('servers.remove', { serverId: id });
      } finally {
        await oauth.close();
      }
    });

    it('audit.read, and every method was driven', async () => {
      assert.ok((await drive('audit.read', { limit: 100 })).length > 0);
      assert.ok((await drive('audit.servers', {})).length > 0);
      assert.deepEqual(
        METHODS.filter((method) => !covered.has(method)),
        [],
        'methods this test did not drive'
      );
    });
  });
});
