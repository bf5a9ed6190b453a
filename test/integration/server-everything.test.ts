import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { createHost, type Host } from '../../app/host/host.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { everythingServer } from '../support/everything-server.js';

/** Joins a tool result's text blocks. */
function textOf(value: unknown): string {
  const result = value as { content: unknown[] };
  return result.content.map((block) => (block as { text?: string }).text ?? '').join('\n');
}

describe('@modelcontextprotocol/server-everything over stdio (a third-party peer)', () => {
  let host: Host;
  const data = tempDir();
  before(async () => {
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [everythingServer]
    });
    const view = await host.connect('everything');
    assert.equal(view.state.status, 'ready', view.state.reason);
  });
  after(async () => {
    await host.close();
    data.remove();
  });

  const call = (name: string, args: Record<string, unknown> = {}) =>
    host
      .connection('everything')!
      .client.callTool({ name, arguments: args }, CallToolResultSchema, { timeout: 120_000 });

  it('offers its task tools because Taskdesk declares the task capabilities', async () => {
    const { tools } = await host.connection('everything')!.client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of [
      'trigger-sampling-request-async',
      'trigger-elicitation-request-async',
      'trigger-sampling-request',
      'trigger-elicitation-request'
    ]) {
      assert.ok(names.includes(name), `${name} is offered`);
    }
  });

  it('completes trigger-elicitation-request-async with the answer from the inbox', async () => {
    const added = nextEvent(host, 'inbox.added');
    const pending = call('trigger-elicitation-request-async');
    const { item } = await added;
    assert.ok(item.taskId, 'the request arrived as a task');
    await host.call('inbox.answer', {
      id: item.id,
      answer: { action: 'accept', content: { name: 'Ada Lovelace', favoriteColor: 'Blue', agreeToTerms: true } }
    });
    const text = textOf(await pending);
    assert.match(text, /\[COMPLETED\]/);
    assert.match(text, /Name: Ada Lovelace/);
    assert.match(text, /Favorite Color: Blue/);
    const record = await host.call('tasks.get', { taskId: item.taskId });
    assert.equal(record.task.status, 'completed');
    const audit = host.audit.read({ taskId: item.taskId }).map((entry) => entry.type);
    assert.ok(audit.includes('task.result-retrieved'));
  });

  it('completes trigger-sampling-request-async with a reply from the inbox', async () => {
    const added = nextEvent(host, 'inbox.added');
    const pending = call('trigger-sampling-request-async', { prompt: 'Name a colour', maxTokens: 20 });
    const { item } = await added;
    assert.ok(item.taskId);
    assert.equal(item.kind, 'sampling');
    await host.call('inbox.answer', { id: item.id, answer: { action: 'reply', text: 'Ultramarine', model: 'person' } });
    const text = textOf(await pending);
    assert.match(text, /Ultramarine/);
    assert.doesNotMatch(text, /TIMEOUT|FAILED/);
  });

  it('answers the ordinary trigger-sampling-request and trigger-elicitation-request too', async () => {
    const sampled = nextEvent(host, 'inbox.added');
    const samplingCall = call('trigger-sampling-request', { prompt: 'Say hi', maxTokens: 10 });
    const samplingItem = (await sampled).item;
    assert.equal(samplingItem.taskId, undefined);
    await host.call('inbox.answer', {
      id: samplingItem.id,
      answer: { action: 'reply', text: 'Hi from Taskdesk', model: 'person' }
    });
    assert.match(textOf(await samplingCall), /Hi from Taskdesk/);

    const asked = nextEvent(host, 'inbox.added');
    const elicitCall = call('trigger-elicitation-request');
    const elicitItem = (await asked).item;
    assert.equal(elicitItem.kind, 'elicitation');
    await host.call('inbox.answer', { id: elicitItem.id, answer: { action: 'decline' } });
    assert.match(textOf(await elicitCall), /decline/i);
  });
});
