import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createHost, type Host } from '../../app/host/host.js';
import type { ServerConfigInput } from '../../app/mcp/server-config.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';

/**
 * A model request a server asks during one of Taskdesk's tool calls (a multi round-trip request
 * to the v2 server over stdio, test/support/mrtr-server.ts): its audit entries name the tool, as
 * its Inbox item does, through the host's own lookup.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const serverScript = fileURLToPath(new URL('../support/mrtr-server.ts', import.meta.url));
const KEY = 'sk-origin-test-key';

const server: ServerConfigInput = {
  id: 'mrtr',
  name: 'MRTR server',
  transport: { type: 'stdio', command: process.execPath, args: ['--import', 'tsx', serverScript], cwd: root },
  autoConnect: false,
  protocol: '2026-07-28'
};

describe('the origin of a model request in the host’s audit log', () => {
  let host: Host;
  let llm: FakeOpenAIServer;
  const data = tempDir();

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'], apiKey: KEY });
    host = createHost({ dataDir: data.dir, autoConnect: false, keyStore: new InMemoryKeyStore() });
    await host.call('servers.add', server);
    await host.call('providers.save', {
      id: 'fake',
      name: 'Fake LLM',
      baseURL: llm.baseURL,
      apiKey: KEY,
      models: [{ name: 'fake-small' }],
      defaultModel: 'fake-small'
    });
    const view = await host.connect('mrtr');
    assert.equal(view.state.status, 'ready', view.state.reason);
  });

  after(async () => {
    await host.close();
    await llm.close();
    data.remove();
  });

  /** The server's `sampling.*` entries, oldest first, as type, decision, origin and relatedCall. */
  function samplingEntries() {
    host.audit.flush();
    return host.audit
      .read({ serverId: 'mrtr', limit: 100 })
      .filter((entry) => entry.type.startsWith('sampling.') && entry.detail?.decision !== undefined)
      .reverse()
      .map((entry) => [entry.type, entry.detail?.decision, entry.detail?.origin, entry.detail?.relatedCall]);
  }

  it('names the tool call it came from on each entry, without asking and after a person’s approval', async () => {
    await host.call('sampling.setPolicy', { serverId: 'mrtr', policy: { mode: 'auto', reviewCompletion: false } });
    llm.enqueue({ kind: 'text', tokens: ['Blue'] });
    const auto = await host.call('tools.call', { serverId: 'mrtr', name: 'draft', arguments: {} });
    assert.equal(auto.type, 'result');

    await host.call('sampling.setPolicy', { serverId: 'mrtr', policy: { mode: 'ask', reviewCompletion: true } });
    llm.enqueue({ kind: 'text', tokens: ['Green'] });
    const asked = nextEvent(host, 'inbox.added', ({ item }) => item.kind === 'sampling-approval');
    const calling = host.call('tools.call', { serverId: 'mrtr', name: 'draft', arguments: {} });
    const approval = await asked;
    const reviewed = nextEvent(host, 'inbox.added', ({ item }) => item.kind === 'sampling-review');
    await host.call('inbox.answer', { id: approval.item.id, answer: { action: 'approve' } });
    const review = await reviewed;
    await host.call('inbox.answer', { id: review.item.id, answer: { action: 'approve' } });
    assert.equal((await calling).type, 'result');

    assert.deepEqual(samplingEntries(), [
      ['sampling.request', 'auto-approved', 'tool draft', true],
      ['sampling.llm', 'completed', 'tool draft', true],
      ['sampling.request', 'approved', 'tool draft', true],
      ['sampling.llm', 'completed', 'tool draft', true],
      ['sampling.completion', 'approved', 'tool draft', true]
    ]);
  });
});
