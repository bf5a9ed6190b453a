import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHost, type Host } from '../../../app/host/host.js';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { tempDir } from '../../support/host-fixture.js';
import { answered, saveFakeProvider, settled } from '../../support/assistant-fixture.js';
import { everythingServer } from '../../support/everything-server.js';

describe('assistant with server-everything over stdio', () => {
  let host: Host;
  let llm: FakeOpenAIServer;
  const data = tempDir();
  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      keyStore: new InMemoryKeyStore(),
      servers: [everythingServer]
    });
    assert.equal((await host.connect('everything')).state.status, 'ready');
    await saveFakeProvider(host, llm.baseURL);
  });
  after(async () => {
    await host.close();
    await llm.close();
    data.remove();
  });

  it('simulate-research-query (task required) runs as a task; when it completes the model reads its result and answers', async () => {
    const c = await host.call('assistant.create', {
      title: 'Research',
      providerId: 'fake',
      model: 'fake-small',
      serverIds: ['everything']
    });
    llm.enqueue(
      {
        kind: 'tool-calls',
        calls: [{ id: 'rq', name: 'everything__simulate-research-query', arguments: '{"topic":"tide pools"}' }]
      },
      { kind: 'text', tokens: ['Here is', ' the research.'] }
    );
    const approval = new Promise<void>((resolve) => {
      const off = host.on('assistant.approval', () => {
        off();
        resolve();
      });
    });
    await host.call('assistant.send', { conversationId: c.id, text: 'Research tide pools' });
    await approval;
    const offered = llm.chatRequests[0]!.body as { tools: Array<{ function: { name: string } }> };
    assert.ok(offered.tools.some((tool) => tool.function.name === 'everything__simulate-research-query'));
    await host.call('assistant.decide', { conversationId: c.id, toolCallId: 'rq', decision: { action: 'approve' } });
    const running = await settled(host, c.id, (x) =>
      x.messages.some((m) => m.role === 'assistant' && m.toolCalls[0]?.state === 'task')
    );
    const outboundId = running.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls : []))[0]!.outboundId!;
    assert.equal((await host.call('outbound.get', { outboundId })).toolName, 'simulate-research-query');
    const done = await settled(host, c.id, answered);
    const tool = (llm.chatRequests[1]!.body.messages as Array<{ role: string; content: unknown }>).find(
      (m) => m.role === 'tool'
    );
    assert.match(String(tool?.content), /tide pools/);
    const last = done.messages.at(-1)!;
    assert.equal(last.role === 'assistant' && last.text, 'Here is the research.');
  });
});
