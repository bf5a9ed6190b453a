import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { type Browser, type Locator, type Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { startHostWith, type InMemoryHostFixture, type PeerServer } from '../support/host-fixture.js';
import { buildRenderer, openDesk, openToolForm } from './renderer-build.js';

/** filesystem's `edit_file` as its reference server declares it, with a list of paths and an options object. */
const editFileSchema = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    edits: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          oldText: { type: 'string', description: 'Text to search for' },
          newText: { type: 'string' },
          count: { type: 'integer' }
        },
        required: ['oldText', 'newText'],
        additionalProperties: false
      }
    },
    paths: { type: 'array', items: { type: 'string' } },
    options: {
      type: 'object',
      properties: { dryRun: { type: 'boolean', default: false }, encoding: { type: 'string' } },
      required: ['encoding']
    },
    tags: { type: 'array', items: { type: 'string', enum: ['draft', 'final', 'urgent'] } }
  },
  required: ['path', 'edits'],
  additionalProperties: false
};

/** A server whose one tool echoes the arguments it received, and keeps them for the test to read. */
function echoPeer(received: unknown[]): PeerServer {
  const server = new Server({ name: 'forms', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'edit_file', inputSchema: editFileSchema as { type: 'object' } }]
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    received.push(request.params.arguments);
    return { content: [{ type: 'text', text: `received ${JSON.stringify(request.params.arguments)}` }] };
  });
  return { server, notifications: [], nextNotification: () => new Promise(() => undefined) };
}

describe('a tool’s nested arguments are a form: objects as fieldsets, arrays as lists', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let fixture: InMemoryHostFixture;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  let form: Locator;
  const received: unknown[] = [];
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
    fixture = await startHostWith({ files: echoPeer(received) });
    ({ server, browser, page } = await openDesk(fixture.host, built.dir, pageErrors, {
      viewport: { width: 1100, height: 1400 }
    }));
    await page.locator('nav').getByRole('link', { name: 'Servers', exact: true }).click();
    await page.locator('li[data-server-id="files"]').getByRole('button', { name: 'Tools of Server files' }).click();
    const tools = page.getByRole('region', { name: 'Tools' });
    await tools.locator('li[data-tool="edit_file"]').waitFor();
    form = await openToolForm(tools, 'edit_file');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await fixture?.dispose();
    built?.remove();
  });

  const focused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

  it('shows objects and arrays as fieldsets, lists and checkboxes, not JSON', async () => {
    assert.equal(await form.locator('textarea').count(), 0, 'no argument is asked for as JSON');
    const options = form.getByRole('group', { name: 'options', exact: true });
    assert.equal(await options.getByLabel('encoding').getAttribute('aria-required'), 'true');
    assert.equal(await options.getByLabel('dryRun').inputValue(), '1', 'its default, false, is chosen');
    const tags = form.getByRole('group', { name: 'tags', exact: true });
    assert.equal(await tags.getByRole('checkbox').count(), 3);
    assert.equal(await form.getByRole('group', { name: 'edits', exact: true }).getByText('No items.').count(), 1);
  });

  it('adds entries by keyboard, with the focus in the new entry, and removes them', async () => {
    await form.getByRole('textbox', { name: 'path', exact: true }).fill('notes.md');
    const edits = form.getByRole('group', { name: 'edits', exact: true });
    const addEdit = edits.getByRole('button', { name: 'Add item to edits' });
    await addEdit.focus();
    await page.keyboard.press('Enter');
    const first = edits.getByRole('group', { name: 'edits 1' });
    assert.ok(await focused(first.getByLabel('oldText')), 'the new entry’s first field has the focus');
    await page.keyboard.type('teh');
    await page.keyboard.press('Tab');
    await page.keyboard.type('the');
    await page.keyboard.press('Tab');
    await page.keyboard.type('2');

    // Two more: the second is removed again, the focus goes to the entry now in its place.
    await addEdit.press('Enter');
    await page.keyboard.type('wrong');
    await addEdit.press('Enter');
    await page.keyboard.type('recieve');
    await edits.getByRole('button', { name: 'Remove item 2 of edits' }).press('Enter');
    const second = edits.getByRole('group', { name: 'edits 2' });
    assert.equal(await second.getByLabel('oldText').inputValue(), 'recieve');
    assert.ok(await focused(second.getByLabel('oldText')), 'the focus is on the entry that took its place');
    assert.equal(await edits.getByRole('group', { name: 'edits 3' }).count(), 0);

    const paths = form.getByRole('group', { name: 'paths', exact: true });
    await paths.getByRole('button', { name: 'Add item to paths' }).press('Enter');
    assert.ok(await focused(paths.getByLabel('paths 1')));
    await page.keyboard.type('a.md');
    await paths.getByRole('button', { name: 'Remove item 1 of paths' }).press('Enter');
    assert.ok(
      await focused(paths.getByRole('button', { name: 'Add item to paths' })),
      'with no entry left, Add has the focus'
    );
    await paths.getByRole('button', { name: 'Add item to paths' }).press('Enter');
    await page.keyboard.type('b.md');
    await form.getByRole('group', { name: 'tags', exact: true }).getByLabel('urgent').check();
  });

  it('says at the field what is missing, and sends nothing', async () => {
    await form.getByRole('button', { name: 'Call tool' }).click();
    const newText = form.getByRole('group', { name: 'edits 2' }).getByLabel('newText');
    await form
      .locator(`#${await newText.getAttribute('id')}-error`)
      .getByText('Required')
      .waitFor();
    assert.equal(await newText.getAttribute('aria-invalid'), 'true');
    assert.ok(await focused(newText), 'the focus goes to the first field to correct');
    assert.deepEqual(received, []);
    await newText.fill('receive');
    await form.locator(`#${await newText.getAttribute('id')}-error`).waitFor({ state: 'hidden' });
  });

  it('sends exactly the JSON the tool expects, leaving out what was left empty', async () => {
    await form.getByRole('button', { name: 'Call tool' }).click();
    await form.locator('.call-result .tool-result').waitFor();
    assert.match((await form.locator('.call-result .tool-result').textContent()) ?? '', /received/);
    assert.deepEqual(received, [
      {
        path: 'notes.md',
        edits: [
          { oldText: 'teh', newText: 'the', count: 2 },
          { oldText: 'recieve', newText: 'receive' }
        ],
        paths: ['b.md'],
        tags: ['urgent']
      }
    ]);
    assert.deepEqual(pageErrors, []);
  });
});
