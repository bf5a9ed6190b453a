import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createHost, type Host } from '../../../app/host/host.js';
import type { InboxItem } from '../../../app/contract/host-api.js';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import { answered, saveFakeProvider, settled } from '../../support/assistant-fixture.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { nextEvent, tempDir } from '../../support/host-fixture.js';

/**
 * Sources of a server of MCP 2026-07-28 (test/support/mrtr-server.ts on the v2 server package,
 * over stdio, refusing the legacy protocol): listed in the modern envelope, and fetched through
 * the requestor's multi round-trip exchange, whose questions wait in the Inbox and whose answers
 * go with the retry; the model then reads what the server gave.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const serverScript = fileURLToPath(new URL('../../support/mrtr-server.ts', import.meta.url));

type WireMessage = { role: string; content: unknown };

function asked(host: Host, origin: string): Promise<InboxItem> {
  const listed = host.inbox.list().find((item) => item.serverId === 'mrtr' && item.origin === origin);
  if (listed) return Promise.resolve(listed);
  return nextEvent(host, 'inbox.added', ({ item }) => item.serverId === 'mrtr' && item.origin === origin).then(
    ({ item }) => item
  );
}

describe('assistant: prompts and resources of a 2026-07-28 server (multi round-trip, stdio)', () => {
  let host: Host;
  let llm: FakeOpenAIServer;
  const data = tempDir();

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    host = createHost({ dataDir: data.dir, autoConnect: false, keyStore: new InMemoryKeyStore() });
    await host.call('servers.add', {
      id: 'mrtr',
      name: 'MRTR server',
      transport: { type: 'stdio', command: process.execPath, args: ['--import', 'tsx', serverScript], cwd: root },
      autoConnect: false,
      protocol: '2026-07-28'
    });
    const view = await host.connect('mrtr');
    assert.equal(view.state.status, 'ready', view.state.reason);
    assert.equal(view.state.era, 'modern');
    await saveFakeProvider(host, llm.baseURL);
  });

  after(async () => {
    await host.close();
    await llm.close();
    data.remove();
  });

  it('lists them in the modern envelope; a prompt and a resource that ask first are answered from the Inbox and reach the model', async () => {
    const sources = await host.call('assistant.sources', { serverId: 'mrtr' });
    assert.deepEqual(
      sources.prompts.map((p) => p.name),
      ['greeting']
    );
    assert.deepEqual(
      sources.resources.map((r) => r.uri),
      ['notes://private']
    );

    const c = await host.call('assistant.create', {
      title: 'Modern sources',
      providerId: 'fake',
      model: 'fake-small',
      serverIds: ['mrtr']
    });
    llm.enqueue({ kind: 'text', tokens: ['Greeted, ', 'and read.'] });
    const sending = host.call('assistant.send', {
      conversationId: c.id,
      text: 'Use these',
      sources: [
        { type: 'prompt', serverId: 'mrtr', name: 'greeting' },
        { type: 'resource', serverId: 'mrtr', uri: 'notes://private' }
      ]
    });
    const greeting = await asked(host, 'prompt greeting');
    assert.equal(greeting.request.message, 'Whom to greet?');
    await host.call('inbox.answer', { id: greeting.id, answer: { action: 'accept', content: { name: 'Cy' } } });
    const share = await asked(host, 'resource notes://private');
    assert.equal(share.request.message, 'Share your notes?');
    await host.call('inbox.answer', { id: share.id, answer: { action: 'accept', content: { ok: true } } });
    const sent = await sending;
    const user = sent.messages.find((m) => m.role === 'user');
    assert.deepEqual(user?.role === 'user' ? user.sources?.map((s) => [s.label, s.text]) : undefined, [
      ['prompt "greeting" of MRTR server', 'user: Hello Cy'],
      ['resource notes://private of MRTR server', '[resource notes://private]\nthe private notes']
    ]);

    await settled(host, c.id, answered);
    const request = llm.chatRequests.at(-1)!.body.messages as WireMessage[];
    assert.deepEqual(request.at(-1), {
      role: 'user',
      content: [
        { type: 'text', text: 'Use these' },
        { type: 'text', text: '[From prompt "greeting" of MRTR server]\nuser: Hello Cy' },
        {
          type: 'text',
          text: '[From resource notes://private of MRTR server]\n[resource notes://private]\nthe private notes'
        }
      ]
    });
  });

  it('a source whose question is declined is fetched as the server then answers it', async () => {
    const c = await host.call('assistant.create', {
      title: 'Declined',
      providerId: 'fake',
      model: 'fake-small',
      serverIds: ['mrtr']
    });
    llm.enqueue({ kind: 'text', tokens: ['Nothing shared.'] });
    const sending = host.call('assistant.send', {
      conversationId: c.id,
      text: 'Read my notes',
      sources: [{ type: 'resource', serverId: 'mrtr', uri: 'notes://private' }]
    });
    const share = await asked(host, 'resource notes://private');
    await host.call('inbox.answer', { id: share.id, answer: { action: 'decline' } });
    const sent = await sending;
    const user = sent.messages.find((m) => m.role === 'user');
    assert.equal(user?.role === 'user' ? user.sources?.[0]?.text : undefined, '[resource notes://private]\nnot shared');
    await settled(host, c.id, answered);
  });
});
