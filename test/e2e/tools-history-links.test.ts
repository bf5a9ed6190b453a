import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { ManualClock } from '../support/manual-clock.js';
import { createTaskToolPeer } from '../support/task-tool-server.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { openToolForm } from './renderer-build.js';

/**
 * What the Tools card and a History entry say of a call after the page that made it is gone: a
 * plain call's card says how its last call ended and links to its History entry; a task still
 * running links from its History entry to its live detail on Tasks.
 */
describe('Tools and History link to each other, in headless Chromium against the real core', () => {
  let desk: DeskFixture;
  const mcp = new McpServer({ name: 'tools', version: '1.0.0' }, { capabilities: { tools: {} } });
  mcp.registerTool('echo', { inputSchema: { message: z.string() } }, async ({ message }) => ({
    content: [{ type: 'text', text: `Echo: ${message}` }]
  }));
  const tools: PeerServer = { ...peerServer('tools'), server: mcp.server };
  // The task server's clock never moves: its slow task stays working for the whole test.
  const { peer: queue } = createTaskToolPeer({ clock: new ManualClock(Date.now()), pollInterval: 3_600_000 });

  before(async () => {
    desk = await startDesk({ tools, queue }, { viewport: { width: 1100, height: 1400 } });
  });

  after(async () => {
    await desk?.close();
  });

  it('says on a tool’s card, after a reload, how its last plain call ended, with a link to its History entry', async () => {
    const { page, fixture, pageErrors } = desk;
    const { host } = fixture;
    const nav = page.getByRole('navigation', { name: 'Sections' });
    await nav.getByRole('link', { name: 'Tools', exact: true }).click();
    const toolsScreen = page.getByRole('region', { name: 'Tools' });
    await toolsScreen.getByLabel('Server', { exact: true }).selectOption('tools');
    const form = await openToolForm(toolsScreen, 'echo');
    await form.getByLabel('message').fill('before the reload');
    await form.getByRole('button', { name: 'Call tool' }).click();
    await form.getByText('Echo: before the reload').waitFor();

    await page.reload();
    await page.locator('#app[data-ready="true"]').waitFor();
    await toolsScreen.getByLabel('Server', { exact: true }).selectOption('tools');
    const card = toolsScreen.locator('li.tool[data-tool-server="tools"][data-tool="echo"]');
    const line = card.locator('.tool-last-call');
    await line.waitFor();
    assert.match((await line.textContent()) ?? '', /^Last called at .+: completed — see it in History$/);
    const [entry] = (await host.call('history.list', { filter: { serverId: 'tools', kind: 'tool-call' } })).entries;
    assert.ok(entry !== undefined && entry.id.startsWith('call:'), 'History keeps the plain call');
    assert.equal(await line.locator('time').getAttribute('datetime'), entry.createdAt);
    const link = line.getByRole('link', { name: 'see it in History' });
    assert.equal(await link.getAttribute('href'), `#history/${encodeURIComponent(entry.id)}`);

    await link.click();
    const detail = page.getByRole('region', { name: 'History' }).locator('.history-detail');
    await detail.waitFor();
    assert.equal(await detail.getAttribute('data-history-id'), entry.id);
    await detail.getByText('Echo: before the reload', { exact: true }).waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'history-detail-title');
    // Closed, the address names the screen only: the link opens it again.
    await detail.getByRole('button', { name: 'Close' }).click();
    await detail.waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => location.hash), '#history');
    await nav.getByRole('link', { name: 'Tools', exact: true }).click();
    await link.click();
    await detail.getByText('Echo: before the reload', { exact: true }).waitFor();
    assert.deepEqual(pageErrors, []);
  });

  it('links a running task’s History entry to its live detail on Tasks', async () => {
    const { page, fixture, pageErrors } = desk;
    const outcome = await fixture.host.call('tools.call', {
      serverId: 'queue',
      name: 'slow',
      arguments: { durationMs: 3_600_000 }
    });
    assert.equal(outcome.type, 'task');
    const key = `requested:${outcome.type === 'task' ? outcome.task.outboundId : ''}`;

    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'History', exact: true })
      .click();
    const history = page.getByRole('region', { name: 'History' });
    await history.locator(`li[data-history-id="${key}"] .history-title`).click();
    const detail = history.locator('.history-detail');
    const live = detail.getByRole('link', { name: 'see it live on Tasks' });
    await live.waitFor();
    assert.equal(await live.getAttribute('href'), `#tasks/${encodeURIComponent(key)}`);

    await live.click();
    const taskDetail = page.getByRole('region', { name: 'Tasks' }).locator('.task-detail');
    await taskDetail.getByRole('heading', { name: 'slow', exact: true }).waitFor();

    // The tool's card on Tools sends a person to it live as well, not to its record in History.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tools', exact: true }).click();
    const toolsScreen = page.getByRole('region', { name: 'Tools' });
    await toolsScreen.getByLabel('Server', { exact: true }).selectOption('queue');
    const line = toolsScreen.locator('li.tool[data-tool-server="queue"][data-tool="slow"] .tool-last-call');
    const onTasks = line.getByRole('link', { name: 'see it on Tasks' });
    await onTasks.waitFor();
    assert.equal(await onTasks.getAttribute('href'), `#tasks/${encodeURIComponent(key)}`);
    assert.equal(await line.getByRole('link', { name: 'see it in History' }).count(), 0);
    assert.deepEqual(pageErrors, []);
  });
});
