import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHost, type Host } from '../../../app/host/host.js';
import type { Conversation } from '../../../app/contract/assistant.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { nextEvent } from '../../support/host-fixture.js';
import { answered, saveFakeProvider, settled } from '../../support/assistant-fixture.js';
import { signedOutDataDir, urlRequiredServerConfig } from '../../support/url-required-config.js';

/**
 * A tool call the assistant made whose server asked for input first (here a 2025-11-25 server's
 * link to open, −32042; a 2026-07-28 multi round-trip question takes the same path): the call's
 * stored exchange outlives a restart, and so does the call, which gets the exchange's outcome when
 * it ends and lets the model go on. Against test/support/url-required-server.ts over stdio.
 */

function lastCall(c: Conversation) {
  for (const message of [...c.messages].reverse())
    if (message.role === 'assistant' && message.toolCalls.length > 0) return message.toolCalls[0];
  return undefined;
}

describe('an assistant tool call waiting for a link across a restart of the host', () => {
  let llm: FakeOpenAIServer;
  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
  });
  after(async () => {
    await llm.close();
  });

  /** A host on `dir` with the server connected and the assistant set to call it without asking. */
  async function open(dir: string, stateFile: string): Promise<Host> {
    const host = createHost({
      dataDir: dir,
      autoConnect: false,
      servers: [urlRequiredServerConfig(stateFile)]
    });
    assert.equal((await host.connect('files')).state.status, 'ready');
    return host;
  }

  /** Starts a conversation whose model calls `list-files`, and waits until the call waits for the person after the link. */
  async function waitingCall(host: Host): Promise<{ conversationId: string; exchangeId: string }> {
    await saveFakeProvider(host, llm.baseURL);
    await host.call('assistant.setPolicy', { serverId: 'files', policy: { mode: 'auto', alwaysAllow: [] } });
    const c = await host.call('assistant.create', {
      title: 'My files',
      providerId: 'fake',
      model: 'fake-small',
      serverIds: ['files']
    });
    llm.enqueue({ kind: 'tool-calls', calls: [{ id: 'f1', name: 'files__list-files', arguments: '{}' }] });
    const asked = nextEvent(host, 'inbox.added', ({ item }) => item.serverId === 'files');
    await host.call('assistant.send', { conversationId: c.id, text: 'What files do I have?' });
    const { item } = await asked;
    assert.equal(item.request.mode, 'url');
    const waiting = nextEvent(host, 'exchange.changed', ({ exchange }) => exchange?.state === 'waiting-for-you');
    await host.call('inbox.answer', { id: item.id, answer: { action: 'accept' } });
    const { exchangeId } = await waiting;
    // The model's turn has ended too (its stream may end after the call began): only the call waits.
    const kept = await settled(host, c.id, (x) => x.status === 'tools' && lastCall(x)?.exchangeId === exchangeId);
    assert.equal(lastCall(kept)?.state, 'running');
    return { conversationId: c.id, exchangeId };
  }

  it('gets the result when the link is done after the restart, and the model goes on; the delivered exchange is not kept', async (t) => {
    const data = signedOutDataDir();
    const { stateFile } = data;
    let host = await open(data.dir, stateFile);
    t.after(async () => {
      await host.close();
      data.remove();
    });
    const { conversationId, exchangeId } = await waitingCall(host);
    await host.close();
    const before = llm.chatRequests.length;

    host = await open(data.dir, stateFile);
    const resumed = await host.call('assistant.get', { conversationId });
    assert.equal(resumed.status, 'tools', 'the conversation still waits for its call');
    assert.equal(lastCall(resumed)?.state, 'running');
    const [pending] = await host.call('exchanges.list', {});
    assert.equal(pending?.exchangeId, exchangeId);
    assert.deepEqual(
      pending?.origin,
      { kind: 'assistant', conversationId, callId: lastCall(resumed)?.callId },
      'who made the call is kept with it'
    );

    llm.enqueue({ kind: 'text', tokens: ['You have a.txt and b.txt.'] });
    // Forgotten once the conversation holding its outcome is on disk.
    const forgotten = nextEvent(
      host,
      'exchange.changed',
      (event) => event.exchangeId === exchangeId && !event.exchange
    );
    await host.call('tools.call', {
      serverId: 'files',
      name: 'finish-sign-in',
      arguments: { account: 'files', notify: true }
    });
    const done = await settled(host, conversationId, answered);
    assert.equal(lastCall(done)?.state, 'completed');
    assert.equal(lastCall(done)?.exchangeId, undefined);
    const tool = (llm.chatRequests[before]!.body.messages as Array<{ role: string; content: unknown }>).find(
      (m) => m.role === 'tool'
    );
    assert.equal(tool?.content, 'files: a.txt, b.txt');
    await forgotten;
    assert.deepEqual(await host.call('exchanges.list', {}), [], 'its outcome was delivered to the conversation');
  });

  it('Stop after the restart cancels the exchange the call waits on', async (t) => {
    const data = signedOutDataDir();
    const { stateFile } = data;
    let host = await open(data.dir, stateFile);
    t.after(async () => {
      await host.close();
      data.remove();
    });
    const { conversationId, exchangeId } = await waitingCall(host);
    await host.close();

    host = await open(data.dir, stateFile);
    const cancelled = nextEvent(
      host,
      'exchange.changed',
      (event) => event.exchangeId === exchangeId && event.exchange === undefined
    );
    await host.call('assistant.stop', { conversationId });
    const stopped = await host.call('assistant.get', { conversationId });
    assert.equal(lastCall(stopped)?.state, 'cancelled');
    await cancelled;
    assert.deepEqual(await host.call('exchanges.list', {}), [], 'the cancelled exchange is not kept either');
  });
});
