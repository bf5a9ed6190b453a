import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Locator, Page } from 'playwright-core';
import { z } from 'zod';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

/**
 * Escape in a tool form's field does not close the form from under the typing: it leaves the
 * field for the form (as Escape in an Inbox card's field goes back to the card), and a second
 * Escape, on the form, closes it as its Close form button does.
 */
describe('Escape in a tool form’s fields, in headless Chromium against the real core', () => {
  let desk: DeskFixture | undefined;
  let page: Page;
  let toggle: Locator;
  let form: Locator;
  const mcp = new McpServer({ name: 'tools', version: '1.0.0' }, { capabilities: { tools: {} } });
  mcp.registerTool(
    'lookup',
    { inputSchema: { query: z.string(), limit: z.number().int().optional() } },
    async ({ query }) => ({ content: [{ type: 'text', text: `Found: ${query}` }] })
  );
  const tools: PeerServer = { ...peerServer('tools'), server: mcp.server };

  before(async () => {
    desk = await startDesk({ tools }, { viewport: { width: 1280, height: 800 } });
    page = desk.page;
    await page.locator('nav').getByRole('link', { name: 'Tools', exact: true }).click();
    const card = page.getByRole('region', { name: 'Tools' }).locator('li.tool[data-tool="lookup"]');
    toggle = card.locator('.card-header button');
    form = card.getByRole('form', { name: 'Call lookup' });
    await toggle.waitFor();
  });

  after(async () => {
    await desk?.close();
  });

  const focused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

  it('keeps the form open on Escape in a text field, the focus on the form; a second Escape closes it', async () => {
    await toggle.click();
    const query = form.getByLabel('query');
    await query.waitFor();
    assert.ok(await focused(query), 'the form opens with the focus in its first field');
    await page.keyboard.type('tide tables');

    await page.keyboard.press('Escape');
    assert.ok(await form.isVisible(), 'Escape in the field leaves the form open');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    assert.ok(await focused(form), 'the focus left the field for the form');
    assert.equal(await query.inputValue(), 'tide tables', 'what was typed stays');

    // Escape on the form itself closes it, the focus back on the button that opened it.
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'hidden' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.ok(await focused(toggle), 'the focus goes back to Call lookup…');
    assert.deepEqual(desk!.pageErrors, []);
  });

  it('does the same from a number field, Tab from the form goes back into its fields, Escape on its button closes it', async () => {
    await toggle.press('Enter');
    const limit = form.getByLabel('limit');
    await limit.waitFor();
    await limit.fill('5');
    await limit.press('Escape');
    assert.ok(await form.isVisible(), 'Escape in the number field leaves the form open');
    assert.ok(await focused(form));
    assert.equal(await limit.inputValue(), '5');
    // Back into the fields by the keyboard: the form's first field is the next stop.
    await page.keyboard.press('Tab');
    assert.ok(await focused(form.getByLabel('query')), 'Tab from the form goes to its first field');

    // Escape on one of the form's buttons (no field) closes it at once, as before.
    const call = form.getByRole('button', { name: 'Call tool' });
    await call.focus();
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'hidden' });
    assert.ok(await focused(toggle));
    // Closing lost nothing.
    await toggle.press('Enter');
    await form.getByLabel('query').waitFor();
    assert.equal(await form.getByLabel('query').inputValue(), 'tide tables');
    assert.equal(await form.getByLabel('limit').inputValue(), '5');
    assert.deepEqual(desk!.pageErrors, []);
  });
});
