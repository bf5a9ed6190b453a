import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { peerServer, startHostWith, type InMemoryHostFixture } from '../../support/host-fixture.js';
import { ManualClock } from '../../support/manual-clock.js';

describe('a server whose tools change (notifications/tools/list_changed)', () => {
  let fixture: InMemoryHostFixture | undefined;
  after(async () => {
    await fixture?.dispose();
  });

  it('is listed afresh after it says so, where before the cached list stayed (for the Tools screen and the Assistant alike)', async () => {
    const mcp = new McpServer(
      { name: 'changing', version: '1.0.0' },
      { capabilities: { tools: { listChanged: true } } }
    );
    const echo = mcp.registerTool('echo', { inputSchema: { message: z.string() } }, async ({ message }) => ({
      content: [{ type: 'text', text: message }]
    }));
    fixture = await startHostWith({ changing: { ...peerServer('changing'), server: mcp.server } });
    const { host } = fixture;
    const names = async () =>
      (await host.call('tools.list', { serverId: 'changing', refresh: false })).map((tool) => tool.name).sort();
    assert.deepEqual(await names(), ['echo']);

    // Registered while connected: the SDK server sends notifications/tools/list_changed.
    mcp.registerTool('added', { inputSchema: { note: z.string() } }, async () => ({ content: [] }));
    echo.remove();
    // The notification arrives on its own turn; each try is one more round trip to the host.
    let seen = await names();
    for (let tries = 0; tries < 50 && seen.join() !== 'added'; tries++) {
      await new Promise((resolve) => setImmediate(resolve));
      seen = await names();
    }
    assert.deepEqual(seen, ['added']);
    // A call of the tool that went is refused as one the server does not have, before anything is sent.
    await assert.rejects(
      host.call('tools.call', { serverId: 'changing', name: 'echo', arguments: { message: 'x' } }),
      /has no tool "echo"/
    );
  });
});

describe('a server that floods notifications/tools/list_changed', () => {
  let fixture: InMemoryHostFixture | undefined;
  after(async () => {
    await fixture?.dispose();
  });

  it('gets one tools.changed at once and one at the end of each half second, not one each', async () => {
    const clock = new ManualClock();
    const mcp = new McpServer({ name: 'noisy', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
    mcp.registerTool('echo', { inputSchema: { message: z.string() } }, async ({ message }) => ({
      content: [{ type: 'text', text: message }]
    }));
    fixture = await startHostWith({ noisy: { ...peerServer('noisy'), server: mcp.server } }, { clock });
    const { host } = fixture;
    const told: string[] = [];
    host.events.on('tools.changed', ({ serverId }) => told.push(serverId));
    for (let index = 0; index < 100; index++) await mcp.server.sendToolListChanged();
    // Answered after every notification sent before it: all 100 are in.
    await host.call('tools.list', { serverId: 'noisy', refresh: false });
    assert.deepEqual(told, ['noisy']);
    await clock.advance(500);
    assert.deepEqual(told, ['noisy', 'noisy'], 'the last change is told too');
    await clock.advance(500);
    assert.equal(told.length, 2, 'nothing more without a change');
  });
});

describe('a server whose prompts or resources change (notifications/prompts/list_changed, notifications/resources/list_changed)', () => {
  let fixture: InMemoryHostFixture | undefined;
  after(async () => {
    await fixture?.dispose();
  });

  it('tells the Desk (sources.changed), and assistant.sources lists them afresh', async () => {
    const clock = new ManualClock();
    const mcp = new McpServer(
      { name: 'library', version: '1.0.0' },
      { capabilities: { prompts: { listChanged: true }, resources: { listChanged: true } } }
    );
    mcp.registerPrompt('summarize', { description: 'Summarize' }, () => ({
      messages: [{ role: 'user', content: { type: 'text', text: 'Summarize.' } }]
    }));
    fixture = await startHostWith({ library: { ...peerServer('library'), server: mcp.server } }, { clock });
    const { host } = fixture;
    const told: string[] = [];
    host.events.on('sources.changed', ({ serverId }) => told.push(serverId));
    const listed = async () => {
      const sources = await host.call('assistant.sources', { serverId: 'library' });
      return [...sources.prompts.map((p) => p.name), ...sources.resources.map((r) => r.uri)];
    };
    assert.deepEqual(await listed(), ['summarize']);

    // Registered while connected: the SDK server sends each list's notification.
    mcp.registerPrompt('translate', { description: 'Translate' }, () => ({
      messages: [{ role: 'user', content: { type: 'text', text: 'Translate.' } }]
    }));
    mcp.registerResource('notes', 'notes://today', { mimeType: 'text/plain' }, () => ({
      contents: [{ uri: 'notes://today', text: 'Notes' }]
    }));
    // Answered after both notifications: both are in, told once now, the second at the half second's end.
    assert.deepEqual(await listed(), ['summarize', 'translate', 'notes://today']);
    assert.deepEqual(told, ['library']);
    await clock.advance(500);
    assert.deepEqual(told, ['library', 'library']);
    // Nothing said of its tools.
    let toolsTold = 0;
    host.events.on('tools.changed', () => toolsTold++);
    await mcp.server.sendPromptListChanged();
    await listed();
    assert.equal(toolsTold, 0);
  });
});
