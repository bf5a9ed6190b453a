import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

/**
 * Call again…: from a tool call's History entry (or its task's detail) to the Tools screen, the
 * tool's form open and filled with that call's arguments, sent only by Call tool.
 */
describe('Call again, in headless Chromium against the real core', () => {
  let desk: DeskFixture | undefined;
  const mcp = new McpServer({ name: 'tools', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  mcp.registerTool('echo', { inputSchema: { message: z.string() } }, async ({ message }) => ({
    content: [{ type: 'text', text: `Echo: ${message}` }]
  }));
  // A tool the server stops offering once it was called.
  const fleeting = mcp.registerTool('fleeting', { inputSchema: { note: z.string() } }, async () => ({
    content: [{ type: 'text', text: 'Gone soon' }]
  }));
  const tools: PeerServer = { ...peerServer('tools'), server: mcp.server };

  after(async () => {
    await desk?.close();
  });

  it('opens the tool’s form filled with the call’s arguments, focused, and sends only on Call tool', async () => {
    desk = await startDesk({ tools });
    const { page, fixture, pageErrors } = desk;
    const { host } = fixture;
    await host.call('tools.call', { serverId: 'tools', name: 'echo', arguments: { message: 'first try' } });
    await host.call('tools.call', { serverId: 'tools', name: 'fleeting', arguments: { note: 'once' } });
    // Its server says its tools changed (notifications/tools/list_changed): the list is read again.
    fleeting.remove();

    await page.locator('nav').getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    await history.locator('li', { hasText: 'first try' }).getByRole('button').first().click();
    const detail = history.locator('.history-detail');
    await detail.getByRole('button', { name: 'Call echo again…' }).click();

    const toolsScreen = page.getByRole('region', { name: 'Tools' });
    const form = toolsScreen.getByRole('form', { name: 'Call echo' });
    const message = form.getByLabel('message');
    await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.value === 'first try');
    assert.equal(await message.inputValue(), 'first try');
    assert.equal(await message.evaluate((field) => field === document.activeElement), true);
    assert.match(page.url(), /#tools$/);
    // Nothing was sent by opening it: History still holds the two calls.
    assert.equal((await host.call('history.list', { filter: { kind: 'tool-call' } })).total, 2);

    await message.fill('second try');
    await form.getByRole('button', { name: 'Call tool' }).click();
    await form.getByText('Echo: second try').waitFor();
    assert.equal((await host.call('history.list', { filter: { kind: 'tool-call' } })).total, 3);

    // Again, from the form that shows its last call's result: a fresh form, that result gone.
    await page.locator('nav').getByRole('link', { name: 'History', exact: true }).click();
    await history.locator('li', { hasText: 'first try' }).getByRole('button').first().click();
    await detail.getByRole('button', { name: 'Call echo again…' }).click();
    await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.value === 'first try');
    assert.equal(await form.getByText('Echo: second try').count(), 0, 'the last call’s result is not this one’s');

    // The call of a tool the server no longer offers: said on the Tools screen, no form filled.
    await page.locator('nav').getByRole('link', { name: 'History', exact: true }).click();
    await history.locator('li', { hasText: 'once' }).getByRole('button').first().click();
    await detail.getByRole('button', { name: 'Call fleeting again…' }).click();
    await toolsScreen
      .getByText('Server tools no longer offers fleeting: that call cannot be made again.', { exact: false })
      .waitFor();
    assert.deepEqual(pageErrors, []);
  });

  it('says of a call Taskdesk stopped without closing that its arguments were not kept, and opens its form saying so', async () => {
    const { page, fixture, pageErrors } = desk!;
    // What the start after a kill lists of a call whose arguments were too large to keep.
    const startedAt = new Date(Date.now() - 5_000).toISOString();
    await fixture.host.history.recordNotFinished({
      kind: 'tool-call',
      serverId: 'tools',
      serverName: 'tools',
      toolName: 'echo',
      argumentsTooLarge: true,
      startedAt,
      lastSeenAt: new Date().toISOString()
    });
    await page.locator('nav').getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    await history.locator('li', { hasText: 'Not finished' }).getByRole('button').first().click();
    const detail = history.locator('.history-detail');
    await detail
      .getByText(
        'Its arguments were not kept: they were larger than the 4 KiB of JSON Taskdesk keeps of a running call.',
        { exact: true }
      )
      .waitFor();
    // Not shown as a call without arguments.
    assert.equal(await detail.locator('.request-view pre', { hasText: /^\{\}$/ }).count(), 0);
    await detail.getByRole('button', { name: 'Call echo again…' }).click();

    const toolsScreen = page.getByRole('region', { name: 'Tools' });
    const form = toolsScreen.getByRole('form', { name: 'Call echo' });
    await form.getByText('The arguments of that call were not kept: fill the form in.', { exact: true }).waitFor();
    await page.waitForFunction(
      (expected) => document.querySelector('.sr-only[aria-live="polite"]')?.lastElementChild?.textContent === expected,
      'The form of echo: the arguments of that call were not kept.'
    );
    assert.deepEqual(pageErrors, []);
  });

  it('lists a server’s tools again when it says they changed, keeping an open form and what was typed in it', async () => {
    const { page } = desk!;
    // Away and back: the line about the tool that went is done with.
    await page.locator('nav').getByRole('link', { name: 'History', exact: true }).click();
    await page.locator('nav').getByRole('link', { name: 'Tools', exact: true }).click();
    const toolsScreen = page.getByRole('region', { name: 'Tools' });
    const form = toolsScreen.getByRole('form', { name: 'Call echo' });
    // Open from the first test, or opened now.
    const toggle = toolsScreen.locator('li.tool[data-tool="echo"] .card-header button');
    await toggle.waitFor();
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await form.getByLabel('message').fill('typed before the change');
    mcp.registerTool('late', { inputSchema: { n: z.number() } }, async () => ({ content: [] }));
    await toolsScreen.locator('li.tool[data-tool="late"]').waitFor();
    await toolsScreen.getByText('2 tools.', { exact: true }).waitFor();
    assert.equal(await form.getByLabel('message').inputValue(), 'typed before the change');
    assert.deepEqual(desk!.pageErrors, []);
  });
});
