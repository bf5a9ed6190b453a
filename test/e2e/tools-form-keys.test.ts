import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Locator, Page } from 'playwright-core';
import { z } from 'zod';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

/**
 * A tool's form by keyboard alone: Escape from a field, then Escape on the form, closes it
 * whatever was typed (the form is kept, with its values and result), the focus back on its Call…
 * button; opened again, its first field's kept text is selected, so what is typed replaces it.
 */
describe('a tool’s form by keyboard, in headless Chromium against the real core', () => {
  let desk: DeskFixture | undefined;
  let page: Page;
  let echo: Locator;
  let toggle: Locator;
  let form: Locator;
  let message: Locator;
  const mcp = new McpServer({ name: 'tools', version: '1.0.0' }, { capabilities: { tools: {} } });
  mcp.registerTool('echo', { inputSchema: { message: z.string() } }, async ({ message }) => ({
    content: [{ type: 'text', text: `Echo: ${message}` }]
  }));
  const tools: PeerServer = { ...peerServer('tools'), server: mcp.server };

  before(async () => {
    desk = await startDesk({ tools }, { viewport: { width: 1100, height: 1000 } });
    page = desk.page;
    await page.locator('nav').getByRole('link', { name: 'Tools', exact: true }).click();
    const screen = page.getByRole('region', { name: 'Tools' });
    echo = screen.locator('li.tool[data-tool="echo"]');
    toggle = echo.locator('.card-header button');
    form = echo.getByRole('form', { name: 'Call echo' });
    message = form.getByLabel('message');
    await toggle.waitFor();
  });

  after(async () => {
    await desk?.close();
  });

  const focused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);
  /** The focused field's selected text. */
  const selected = () =>
    page.evaluate(() => {
      const field = document.activeElement as HTMLInputElement;
      return field.value.slice(field.selectionStart ?? 0, field.selectionEnd ?? 0);
    });

  /** The form closed by its Close form button (whatever Escape does), the focus on that button. */
  const closedByItsButton = async () => {
    await toggle.focus();
    if ((await toggle.getAttribute('aria-expanded')) === 'true') await page.keyboard.press('Enter');
    await form.waitFor({ state: 'hidden' });
    assert.equal(await toggle.getAttribute('aria-label'), 'Call echo…');
  };

  it('closes the form on Escape (twice from a field) after a call, the focus back on its Call echo… button', async () => {
    await toggle.focus();
    assert.equal(await toggle.getAttribute('aria-label'), 'Call echo…');
    await page.keyboard.press('Enter');
    await form.waitFor();
    assert.ok(await focused(message), 'the form opens with the focus in its first field');
    await page.keyboard.type('hello taskdesk');
    await page.keyboard.press('Enter');
    await form.locator('.call-result').getByText('Echo: hello taskdesk').waitFor();
    assert.ok(await focused(message), 'the focus stays in the field after the call');

    // The first Escape leaves the field for the form; the second closes it.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'hidden' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await toggle.getAttribute('aria-label'), 'Call echo…');
    assert.ok(await focused(toggle), 'the focus goes back to the button that opened it');
    assert.deepEqual(desk!.pageErrors, []);
  });

  it('opens again with the kept value selected: typing replaces it', async () => {
    await closedByItsButton();
    await page.keyboard.press('Enter');
    await form.waitFor();
    assert.ok(await focused(message));
    assert.equal(await message.inputValue(), 'hello taskdesk', 'the last call’s value is kept');
    assert.ok(await form.locator('.call-result').getByText('Echo: hello taskdesk').isVisible(), 'and its result');
    assert.equal(await selected(), 'hello taskdesk', 'the kept text is selected');

    await page.keyboard.type('kbd');
    assert.equal(await message.inputValue(), 'kbd');
    await page.keyboard.press('Enter');
    await form.locator('.call-result').getByText('Echo: kbd', { exact: true }).waitFor();

    // Selected only as the form opens: a click in the field places the caret, as anywhere.
    await message.click({ position: { x: 4, y: 4 } });
    assert.equal(await selected(), '');
    assert.deepEqual(desk!.pageErrors, []);
  });

  it('keeps the kept text when an arrow key takes back the selection: typing adds to it', async () => {
    await closedByItsButton();
    await page.keyboard.press('Enter');
    await form.waitFor();
    assert.equal(await selected(), 'kbd');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.type(' again');
    assert.equal(await message.inputValue(), 'kbd again');
    assert.deepEqual(desk!.pageErrors, []);
  });
});

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
