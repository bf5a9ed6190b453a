import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createHost, type Host } from '../../../app/host/host.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { tempDir } from '../../support/host-fixture.js';
import { ManualClock } from '../../support/manual-clock.js';
import { ClockedTaskStore } from '../../support/requestor-task-store.js';
import { startTaskToolHttpServer } from '../../support/requestor-http-server.js';
import { answered, saveFakeProvider, settled } from '../../support/assistant-fixture.js';

describe('assistant across a restart of the host', () => {
  it('a task still running when the host stops: its result reaches the conversation after the restart, and the model goes on', async () => {
    const work = new ManualClock();
    const store = new ClockedTaskStore({ clock: work, pollInterval: 50 });
    const mcp = await startTaskToolHttpServer({ clock: work, store });
    const llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    const data = tempDir();
    const open = async (): Promise<Host> => {
      const host = createHost({
        dataDir: data.dir,
        autoConnect: false,
        servers: [{ id: 'work', name: 'Work', transport: { type: 'http', url: mcp.url.href } }]
      });
      assert.equal((await host.connect('work')).state.status, 'ready');
      return host;
    };
    let host = await open();
    try {
      await saveFakeProvider(host, llm.baseURL);
      await host.call('assistant.setPolicy', { serverId: 'work', policy: { mode: 'auto', alwaysAllow: [] } });
      const c = await host.call('assistant.create', {
        title: 'Long job',
        providerId: 'fake',
        model: 'fake-small',
        serverIds: ['work']
      });
      llm.enqueue(
        {
          kind: 'tool-calls',
          calls: [{ id: 'r1', name: 'work__work-required', arguments: '{"durationMs":1000,"label":"survived"}' }]
        },
        { kind: 'text', tokens: ['It finished: survived.'] }
      );
      await host.call('assistant.send', { conversationId: c.id, text: 'Run it' });
      await settled(host, c.id, (x) =>
        x.messages.some((m) => m.role === 'assistant' && m.toolCalls[0]?.state === 'task')
      );
      await host.close();

      host = await open();
      const resumed = await host.call('assistant.get', { conversationId: c.id });
      assert.equal(resumed.status, 'tools', 'the conversation still waits for its task');
      assert.equal(llm.chatRequests.length, 1);
      await work.advance(1000);
      const done = await settled(host, c.id, answered);
      const tool = (llm.chatRequests[1]!.body.messages as Array<{ role: string; content: unknown }>).find(
        (m) => m.role === 'tool'
      );
      assert.equal(tool?.content, 'done: survived');
      const last = done.messages.at(-1)!;
      assert.equal(last.role === 'assistant' && last.text, 'It finished: survived.');
    } finally {
      await host.close();
      await mcp.close();
      await llm.close();
      data.remove();
    }
  });

  it('what a call acknowledged survives a crash: a copy of the data directory taken right after the answers, before any checkpoint or close, has it', async () => {
    const llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    const data = tempDir();
    const crashed = tempDir();
    const host = createHost({ dataDir: data.dir, autoConnect: false });
    let after: Host | undefined;
    try {
      await saveFakeProvider(host, llm.baseURL);
      llm.enqueue({ kind: 'hold' });
      const c = await host.call('assistant.create', { title: 'Acked', providerId: 'fake', model: 'fake-small' });
      await host.call('assistant.update', { conversationId: c.id, systemPrompt: 'Be brief.' });
      await host.call('assistant.send', { conversationId: c.id, text: 'Remember this' });
      // The disk as a crash now would leave it (the process gone; what the kernel has is kept).
      fs.cpSync(data.dir, crashed.dir, { recursive: true });
      after = createHost({ dataDir: crashed.dir, autoConnect: false });
      const kept = await after.call('assistant.get', { conversationId: c.id });
      assert.equal(kept.systemPrompt, 'Be brief.');
      const first = kept.messages[0];
      assert.equal(first?.role === 'user' && first.text, 'Remember this');
      assert.equal(kept.status, 'failed', 'the answer that was streaming is a retryable error');
    } finally {
      await after?.close();
      await host.close();
      await llm.close();
      data.remove();
      crashed.remove();
    }
  });

  it('a conversation stored by an earlier build (one document each) is moved into the log', async () => {
    const data = tempDir();
    const old = {
      schemaVersion: 1,
      conversation: {
        id: 'c-old',
        title: 'From before',
        providerId: 'fake',
        model: 'fake-small',
        serverIds: [],
        maxToolRounds: 10,
        imageInput: true,
        createdAt: '2026-11-01T00:00:00.000Z',
        updatedAt: '2026-11-01T00:00:00.000Z',
        status: 'idle',
        messages: [{ id: 'm', at: '2026-11-01T00:00:00.000Z', role: 'user', text: 'Old words' }]
      }
    };
    fs.mkdirSync(path.join(data.dir, 'assistant'), { recursive: true });
    fs.writeFileSync(path.join(data.dir, 'assistant', 'c-old.json'), JSON.stringify(old));
    let host = createHost({ dataDir: data.dir, autoConnect: false });
    try {
      assert.equal((await host.call('assistant.get', { conversationId: 'c-old' })).title, 'From before');
      await host.close();
      assert.equal(fs.existsSync(path.join(data.dir, 'assistant', 'c-old.json')), false, 'the old file is gone');
      host = createHost({ dataDir: data.dir, autoConnect: false });
      const again = await host.call('assistant.get', { conversationId: 'c-old' });
      assert.equal(again.messages[0]?.role === 'user' && again.messages[0].text, 'Old words');
      // Renamed since; then the old file is back, as a crash before its removal would leave it:
      // the log's newer copy wins, and the file goes.
      await host.call('assistant.update', { conversationId: 'c-old', title: 'Renamed since' });
      await host.close();
      fs.writeFileSync(path.join(data.dir, 'assistant', 'c-old.json'), JSON.stringify(old));
      host = createHost({ dataDir: data.dir, autoConnect: false });
      assert.equal((await host.call('assistant.get', { conversationId: 'c-old' })).title, 'Renamed since');
      assert.equal(fs.existsSync(path.join(data.dir, 'assistant', 'c-old.json')), false, 'the leftover is gone');
    } finally {
      await host.close();
      data.remove();
    }
  });

  it('conversations persist; an answer cut off by the stop fails with a retry; a corrupt file is moved aside with a warning', async () => {
    const llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    const data = tempDir();
    let host = createHost({ dataDir: data.dir, autoConnect: false });
    try {
      await saveFakeProvider(host, llm.baseURL);
      const kept = await host.call('assistant.create', {
        title: 'Kept',
        providerId: 'fake',
        model: 'fake-small',
        systemPrompt: 'Terse.'
      });
      llm.enqueue({ kind: 'text', tokens: ['Hello', ' there.'] }, { kind: 'hold' });
      await host.call('assistant.send', { conversationId: kept.id, text: 'Hi' });
      await settled(host, kept.id, answered);
      const cut = await host.call('assistant.create', { title: 'Cut off', providerId: 'fake', model: 'fake-small' });
      await host.call('assistant.send', { conversationId: cut.id, text: 'Tell me everything' });
      (await llm.nextHeld()).push('Every');
      await host.close();
      // A file of an earlier build (one document per conversation) that does not parse.
      fs.mkdirSync(path.join(data.dir, 'assistant'), { recursive: true });
      fs.writeFileSync(path.join(data.dir, 'assistant', 'c-broken.json'), '{ not json');

      host = createHost({ dataDir: data.dir, autoConnect: false });
      const list = await host.call('assistant.list', {});
      assert.deepEqual(list.map((c) => c.title).sort(), ['Cut off', 'Kept']);
      const again = await host.call('assistant.get', { conversationId: kept.id });
      assert.equal(again.systemPrompt, 'Terse.');
      assert.deepEqual(
        again.messages.map((m) => (m.role === 'user' || m.role === 'assistant' ? m.text : m.role)),
        ['Hi', 'Hello there.']
      );
      const interrupted = await host.call('assistant.get', { conversationId: cut.id });
      assert.equal(interrupted.status, 'failed');
      const last = interrupted.messages.at(-1)!;
      assert.equal(last.role === 'error' && last.kind, 'interrupted');
      llm.enqueue({ kind: 'text', tokens: ['Everything.'] });
      await host.call('assistant.retry', { conversationId: cut.id });
      await settled(host, cut.id, answered);

      const warning = host.warnings.find((w) => w.message.includes('conversation (c-broken)'));
      assert.ok(warning, 'a warning names the conversation file');
      assert.ok(warning.movedTo && fs.existsSync(warning.movedTo), 'its bytes are kept in the corrupt directory');
      assert.equal(fs.readFileSync(warning.movedTo, 'utf8'), '{ not json');
      assert.equal(fs.existsSync(path.join(data.dir, 'assistant', 'c-broken.json')), false);
    } finally {
      await host.close();
      await llm.close();
      data.remove();
    }
  });
});
