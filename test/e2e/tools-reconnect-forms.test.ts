import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { Host } from '../../app/host/host.js';
import { openEverythingDesk } from './everything-desk.js';

describe('the Tools screen keeps a server’s open forms, and what was typed in them, while it reconnects', () => {
  let host: Host;
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let tools: Locator;
  const pageErrors: string[] = [];

  before(async () => {
    ({ host, page, close } = await openEverythingDesk(pageErrors, { viewport: { width: 1100, height: 1400 } }));
    await page.locator('nav').getByRole('link', { name: 'Tools', exact: true }).click();
    tools = page.getByRole('region', { name: 'Tools' });
  });

  after(async () => {
    await close?.();
  });

  /** A tool's card, once its server's list is shown. */
  const shownTool = async (name: string) => {
    const item = tools.locator(`li[data-tool-server="everything"][data-tool="${name}"]`);
    await item.waitFor();
    return item;
  };
  const status = () => tools.getByRole('status').first();

  it('opens the forms again, with what was typed, once the server is back', async () => {
    await tools.getByLabel('Server', { exact: true }).selectOption('everything');
    const echo = await shownTool('echo');
    await echo.getByRole('button', { name: 'Call echo…' }).click();
    const echoForm = echo.getByRole('form', { name: 'Call echo' });
    await echoForm.getByLabel('message').fill('typed before the reconnect');
    const research = await shownTool('simulate-research-query');
    await research.getByRole('button', { name: 'Call simulate-research-query…' }).click();
    const researchForm = research.getByRole('form', { name: 'Call simulate-research-query' });
    await researchForm.getByLabel('topic').fill('tide pools');
    const annotated = await shownTool('get-annotated-message');

    assert.notEqual((await host.call('servers.disconnect', { serverId: 'everything' })).state.status, 'ready');
    await status().getByText('Everything is not connected; its tools are listed once it is ready.').waitFor();
    assert.equal(await echoForm.isVisible(), false, 'no form shows while the server is not connected');

    assert.equal((await host.call('servers.connect', { serverId: 'everything' })).state.status, 'ready');
    await status()
      .getByText(/^\d+ tools\.$/)
      .waitFor();
    await echoForm.waitFor();
    assert.equal(await echoForm.getByLabel('message').inputValue(), 'typed before the reconnect');
    assert.equal(await echo.getByRole('button', { name: 'Close form for echo' }).count(), 1, 'its disclosure is open');
    assert.ok(await researchForm.isVisible(), 'the simulate-research-query form is open again');
    assert.equal(await researchForm.getByLabel('topic').inputValue(), 'tide pools');
    // A form the person had not opened stays closed.
    assert.equal(await annotated.getByRole('button', { name: 'Call get-annotated-message…' }).count(), 1);

    // The form kept works on the new connection.
    await echoForm.getByRole('button', { name: 'Call tool' }).click();
    await echoForm.locator('.call-result').getByText('Echo: typed before the reconnect').waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
