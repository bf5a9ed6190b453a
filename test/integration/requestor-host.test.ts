import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHost, type Host } from '../../app/host/host.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { everythingServer } from '../support/everything-server.js';

describe('requestor through the host API, with the real inbox (server-everything over stdio)', () => {
  let host: Host;
  const data = tempDir();
  before(async () => {
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [everythingServer]
    });
    assert.equal((await host.connect('everything')).state.status, 'ready');
  });
  after(async () => {
    await host.close();
    data.remove();
  });

  it('lists tools with their task support and refuses bad arguments before calling', async () => {
    const tools = await host.call('tools.list', { serverId: 'everything' });
    const research = tools.find((tool) => tool.name === 'simulate-research-query');
    assert.ok(research);
    assert.equal(research.taskSupport, 'required');
    const bad = await host.dispatch('tools.call', {
      serverId: 'everything',
      name: 'simulate-research-query',
      arguments: { topic: 42 }
    });
    assert.equal(bad.ok, false);
    if (!bad.ok) assert.equal(bad.error.code, -32602);
    const plain = await host.dispatch('tools.call', {
      serverId: 'everything',
      name: 'simulate-research-query',
      arguments: { topic: 'x' },
      asTask: false
    });
    assert.equal(plain.ok, false, 'a required-task tool is never called plainly');
  });

  it('runs simulate-research-query as a task, routes its input_required question to the inbox with the tool named, and keeps the result', async () => {
    const question = nextEvent(host, 'inbox.added');
    const outcome = await host.call('tools.call', {
      serverId: 'everything',
      name: 'simulate-research-query',
      arguments: { topic: 'python', ambiguous: true }
    });
    assert.equal(outcome.type, 'task');
    const outboundId = outcome.type === 'task' ? outcome.task.outboundId : '';
    const { item } = await question;
    assert.equal(item.kind, 'elicitation');
    assert.equal(item.taskId, undefined, 'a side-channel request is not a task of ours');
    assert.equal(item.origin, 'tool simulate-research-query');
    const options = (
      item.request.requestedSchema as { properties: { interpretation: { oneOf: Array<{ const: string }> } } }
    ).properties.interpretation.oneOf;
    const done = nextEvent(
      host,
      'outbound.changed',
      (event) => event.type === 'changed' && event.task.outboundId === outboundId && event.task.state === 'completed'
    );
    await host.call('inbox.answer', {
      id: item.id,
      answer: { action: 'accept', content: { interpretation: options[0]!.const } }
    });
    const finished = await done;
    assert.equal(finished.type, 'changed');
    if (finished.type !== 'changed') return;
    assert.equal(finished.task.outcome?.type, 'result');
    const stored = await host.call('outbound.get', { outboundId });
    assert.equal(stored.state, 'completed');
    assert.match(JSON.stringify(stored.outcome), /python/i);
    // History has the task, and no second entry for the call that became it.
    const history = await host.call('history.list', { filter: { kind: 'tool-call' } });
    assert.deepEqual(
      history.entries.map((entry) => [entry.id, entry.status]),
      [[`requested:${outboundId}`, 'completed']]
    );
  });
});
