import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { type Browser, type Locator, type Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { startHostWith, type InMemoryHostFixture, type PeerServer } from '../support/host-fixture.js';
import { accessibleDescription, buildRenderer, openDesk, openToolForm } from './renderer-build.js';

/**
 * The names and descriptions Chromium gives a control and each part a screen reader stops on
 * inside it (a date input's month, day, year and picker button), as `name | description`.
 */
async function partsRead(locator: Locator): Promise<string[]> {
  const page = locator.page();
  const cdp = await page.context().newCDPSession(page);
  try {
    await locator.evaluate((element) => element.setAttribute('data-parts-probe', ''));
    const { root: document } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: document.nodeId, selector: '[data-parts-probe]' });
    const { nodes: own } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    const parts = await Promise.all(
      ['spinbutton', 'button'].map((role) => cdp.send('Accessibility.queryAXTree', { nodeId, role }))
    );
    return [own[0]!, ...parts.flatMap(({ nodes }) => nodes)].map(
      (node) => `${String(node.name?.value ?? '')} | ${String(node.description?.value ?? '')}`
    );
  } finally {
    await locator.evaluate((element) => element.removeAttribute('data-parts-probe'));
    await cdp.detach();
  }
}

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

/** A search tool: a number with bounds, an optional group with a date, a map of text and a map of numbers. */
const searchSchema = {
  type: 'object',
  properties: {
    query: { type: 'string' },
    limit: { type: 'integer', minimum: 1, maximum: 100 },
    filters: {
      type: 'object',
      properties: { language: { type: 'string' }, since: { type: 'string', format: 'date' } },
      required: ['language']
    },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    weights: { type: 'object', additionalProperties: { type: 'number' } }
  },
  required: ['query']
};

/** server-everything's `get-annotated-message`, with an optional choice that has a default too. */
const annotatedSchema = {
  type: 'object',
  properties: {
    messageType: { type: 'string', enum: ['error', 'success', 'debug'] },
    includeImage: { type: 'boolean', default: false, description: 'Whether to include an example image' },
    level: { type: 'string', enum: ['low', 'high'], default: 'low' }
  },
  required: ['messageType']
};

/** A server whose tools echo the arguments it received, and keeps them for the test to read. */
function echoPeer(received: unknown[]): PeerServer {
  const server = new Server({ name: 'forms', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      { name: 'edit_file', inputSchema: editFileSchema as { type: 'object' } },
      { name: 'search', inputSchema: searchSchema as { type: 'object' } },
      { name: 'annotated', inputSchema: annotatedSchema as { type: 'object' } }
    ]
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
  let tools: Locator;
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
    tools = page.getByRole('region', { name: 'Tools' });
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
    assert.equal(await form.getByRole('textbox', { name: 'path', exact: true }).getAttribute('aria-required'), 'true');
    // Required only once options is filled in: its hint says so, "required" read as well would say it twice.
    assert.equal(await options.getByLabel('encoding').getAttribute('aria-required'), null);
    const dryRun = options.getByLabel('dryRun');
    assert.equal(await dryRun.inputValue(), '', 'not set: its default is the server’s to apply');
    assert.equal(await dryRun.locator('option:checked').textContent(), '(not set: false by default)');
    const tags = form.getByRole('group', { name: 'tags', exact: true });
    assert.equal(await tags.getByRole('checkbox').count(), 3);
    assert.equal(await form.getByRole('group', { name: 'edits', exact: true }).getByText('No items.').count(), 1);
  });

  it('says in plain words what each argument takes, and when a required one is asked for', async () => {
    const description = async (locator: Locator) => (await accessibleDescription(locator)) ?? '';
    assert.equal(await description(form.getByRole('textbox', { name: 'path', exact: true })), '', 'text says itself');
    // A required list with no minimum is sent empty: the star alone would say it must have entries.
    assert.equal(await description(form.getByRole('group', { name: 'edits', exact: true })), '(list, may be empty)');
    assert.equal(await description(form.getByRole('group', { name: 'paths', exact: true })), '(list of text)');
    // The page's text is what is read, once: not "list of text (list of text)".
    const hintShown = (locator: Locator) =>
      locator.evaluate((element) => {
        const hint = document.getElementById(`${element.getAttribute('aria-describedby')?.split(' ')[0]}`);
        return [hint?.textContent, hint?.innerText];
      });
    assert.deepEqual(await hintShown(form.getByRole('group', { name: 'paths', exact: true })), [
      '(list of text)',
      '(list of text)'
    ]);
    assert.equal(await description(form.getByRole('group', { name: 'options', exact: true })), '');
    // options is left out when left as it came: its encoding is asked for only once options is filled in.
    const encoding = form.getByRole('group', { name: 'options', exact: true }).getByLabel('encoding');
    assert.equal(await description(encoding), 'Required if you fill in options.');
    // Its choices are true and false: a hint saying so said it twice.
    assert.equal(await description(form.getByLabel('dryRun')), '');
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

  it('starts an optional boolean or choice with a default on “(not set: … by default)”, leaves it out, and ↓ goes to true', async () => {
    // A newcomer saw includeImage start on "false", the call sent false they never chose, and ↓ found no true.
    const annotated = await openToolForm(tools, 'annotated');
    const includeImage = annotated.getByRole('combobox', { name: 'includeImage', exact: true });
    const level = annotated.getByRole('combobox', { name: 'level', exact: true });
    assert.equal(await includeImage.locator('option:checked').textContent(), '(not set: false by default)');
    assert.deepEqual(await includeImage.locator('option').allTextContents(), [
      '(not set: false by default)',
      'true',
      'false'
    ]);
    assert.equal(await level.locator('option:checked').textContent(), '(not set: low by default)');
    await annotated.getByRole('combobox', { name: 'messageType', exact: true }).selectOption({ label: 'success' });
    const sent = received.length;
    const result = annotated.locator('.call-result .tool-result');
    await annotated.getByRole('button', { name: 'Call tool' }).click();
    await result.filter({ hasText: 'received' }).waitFor();
    assert.deepEqual(received.slice(sent), [{ messageType: 'success' }], 'left out: never chosen');

    await includeImage.focus();
    await page.keyboard.press('ArrowDown');
    assert.equal(await includeImage.locator('option:checked').textContent(), 'true');
    await annotated.getByRole('button', { name: 'Call tool' }).click();
    await result.filter({ hasText: 'includeImage' }).waitFor();
    assert.deepEqual(received.slice(sent + 1), [{ messageType: 'success', includeImage: true }], 'sent once chosen');
    assert.deepEqual(pageErrors, []);
  });

  describe('a search tool: bounds, the host’s own check, a map, Escape', () => {
    let search: Locator;
    let toggle: Locator;

    before(async () => {
      search = await openToolForm(tools, 'search');
      toggle = tools.locator('li[data-tool="search"] .card-header button');
    });

    it('closes the form on a second Escape from a field, the focus on its button, typed in or not, keeping what was typed', async () => {
      // The first Escape leaves the field for the form (still open); the next, on the form, closes it.
      await search.getByLabel('query').press('Escape');
      assert.ok(await search.isVisible(), 'the first Escape leaves the form open');
      await page.keyboard.press('Escape');
      await search.waitFor({ state: 'hidden' });
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      assert.ok(await focused(toggle), 'the focus goes back to the button that opened it');

      await toggle.press('Enter');
      await search.getByLabel('query').waitFor();
      await search.getByLabel('query').fill('cats');
      await search.getByLabel('limit').fill('5');
      await search.getByLabel('limit').press('Escape');
      await page.keyboard.press('Escape');
      await search.waitFor({ state: 'hidden' });
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      assert.ok(await focused(toggle), 'the focus goes back to the button that opened it');

      // Closing loses nothing: the form is kept, hidden, with what was typed in it.
      await toggle.press('Enter');
      await search.getByLabel('query').waitFor();
      assert.equal(await search.getByLabel('query').inputValue(), 'cats');
      assert.equal(await search.getByLabel('limit').inputValue(), '5');
      assert.ok(await focused(search.getByLabel('query')));
      assert.equal(
        await search
          .getByLabel('query')
          .evaluate((field: HTMLInputElement) => [field.selectionStart, field.selectionEnd].join('-')),
        '0-4',
        'the kept text of its first field is selected: typing replaces it'
      );
    });

    it('says a number’s range in its hint and checks it in the form', async () => {
      const limit = search.getByLabel('limit');
      assert.equal(await accessibleDescription(limit), '(whole number, 1 to 100)');
      await limit.fill('500');
      await search.getByRole('button', { name: 'Call tool' }).click();
      const error = search.locator(`#${await limit.getAttribute('id')}-error`);
      await error.getByText('Must be 100 or less').waitFor();
      assert.equal(await search.locator('.action-error-what').textContent(), 'One field needs correcting.');
      await limit.fill('5');
      await error.waitFor({ state: 'hidden' });
      // Nothing is marked any more: no summary says one is.
      await search.locator('.action-error-what').waitFor({ state: 'detached' });
      assert.equal(await search.locator('.action-error').isVisible(), false);
    });

    it('counts the marked fields down in its summary as they are corrected, then takes it away', async () => {
      const sent = received.length;
      const query = search.getByLabel('query');
      const limit = search.getByLabel('limit');
      await query.fill('');
      await limit.fill('0');
      await search.getByRole('button', { name: 'Call tool' }).click();
      const what = search.locator('.action-error-what');
      await what.filter({ hasText: '2 fields need correcting.' }).waitFor();
      const queryError = search.locator(`#${await query.getAttribute('id')}-error`);
      const limitError = search.locator(`#${await limit.getAttribute('id')}-error`);
      assert.equal(await queryError.textContent(), 'Required');

      await query.fill('cats');
      await queryError.waitFor({ state: 'hidden' });
      await what.filter({ hasText: 'One field needs correcting.' }).waitFor();
      // Wrong in another way: still marked, still one.
      await limit.fill('500');
      await limitError.filter({ hasText: 'Must be 100 or less' }).waitFor();
      assert.equal(await what.textContent(), 'One field needs correcting.');

      await limit.fill('5');
      await limitError.waitFor({ state: 'hidden' });
      await what.waitFor({ state: 'detached' });
      assert.equal(await search.locator('[aria-invalid="true"]').count(), 0);
      assert.equal(received.length, sent, 'nothing was sent');
    });

    it('puts the host’s problem with a nested argument on its own field, in plain words, and sends nothing', async () => {
      const sent = received.length;
      const filters = search.getByRole('group', { name: 'filters', exact: true });
      await filters.getByLabel('language').fill('en');
      // Chromium's date input takes a five-digit year; the schema's format date does not.
      const since = filters.getByLabel('since');
      // Its type is said once, in its name: a description is read again on each of its parts.
      const read = await partsRead(since);
      assert.ok(read.length >= 4, `the date input and its parts: ${read.join('; ')}`);
      assert.deepEqual(
        read.filter((text) => text.includes('(date)')),
        ['since (date) | '],
        read.join('; ')
      );
      await since.fill('41345-02-02');
      // The field is just below the top bar, its label under it, when the focus jumps to the field
      // (in a lower window, which the page can scroll that far in): the page scrolls to show the label.
      const size = page.viewportSize()!;
      await page.setViewportSize({ width: size.width, height: 600 });
      const call = search.getByRole('button', { name: 'Call tool' });
      const bar = page.locator('.top-area');
      const barBottom = async () => {
        const box = (await bar.boundingBox())!;
        return box.y + box.height;
      };
      const sinceBox = (await since.boundingBox())!;
      await page.evaluate((by) => window.scrollBy(0, by), sinceBox.y - (await barBottom()) - 2);
      const label = search.locator(`label[for="${await since.getAttribute('id')}"]`);
      assert.ok((await label.boundingBox())!.y < (await barBottom()), 'the label starts out under the bar');
      await call.click();
      const error = search.locator(`#${await since.getAttribute('id')}-error`);
      await error.getByText('Enter a valid date').waitFor();
      assert.equal(await since.getAttribute('aria-invalid'), 'true');
      assert.ok(await focused(since), 'the focus goes to the field the problem names');
      // It comes to rest with its label below the bar, not under it.
      assert.ok((await label.boundingBox())!.y >= (await barBottom()), 'the label is in sight below the bar');
      await page.setViewportSize(size);
      assert.equal(await filters.getAttribute('aria-invalid'), null, 'not on the group');
      assert.equal(await search.locator('.action-error-what').textContent(), 'One field needs correcting.');
      assert.equal(received.length, sent, 'the host checked the arguments before sending anything');
      await since.fill('2026-02-02');
      await error.waitFor({ state: 'hidden' });
      // The host's mark corrected: the summary goes with it.
      await search.locator('.action-error-what').waitFor({ state: 'detached' });
    });

    it('takes a map of text as names and values, and a map of numbers as JSON with an example', async () => {
      assert.equal(await search.getByLabel('weights').getAttribute('placeholder'), '{"key": "value"}');
      const headers = search.getByRole('group', { name: 'headers', exact: true });
      assert.equal(await headers.getByText('No entries.').count(), 1);
      const add = headers.getByRole('button', { name: 'Add entry to headers' });
      await add.press('Enter');
      assert.ok(await focused(headers.getByRole('group', { name: 'headers 1' }).getByLabel('Name')));
      await page.keyboard.type('Accept');
      await page.keyboard.press('Tab');
      await page.keyboard.type('text/plain');
      await add.press('Enter');
      await page.keyboard.type('Accept');
      const sent = received.length;
      await search.getByRole('button', { name: 'Call tool' }).click();
      const second = headers.getByRole('group', { name: 'headers 2' }).getByLabel('Name');
      await search
        .locator(`#${await second.getAttribute('id')}-error`)
        .getByText('Same name as entry 1')
        .waitFor();
      assert.ok(await focused(second));
      await second.fill('Accept-Language');
      // A name with no value is asked about, not sent as "" unseen.
      await search.getByRole('button', { name: 'Call tool' }).click();
      const secondValue = headers.getByRole('group', { name: 'headers 2' }).getByLabel('Value');
      await search
        .locator(`#${await secondValue.getAttribute('id')}-error`)
        .getByText('Enter a value or remove this entry', { exact: true })
        .waitFor();
      assert.ok(await focused(secondValue));
      assert.equal(await secondValue.getAttribute('aria-invalid'), 'true');
      assert.equal(received.length, sent, 'nothing is sent');
      await secondValue.fill('da');
      // An entry left with neither a name nor a value is an Add too many: left out.
      await add.press('Enter');
      await search.getByRole('button', { name: 'Call tool' }).click();
      await search.locator('.call-result .tool-result').waitFor();
      assert.deepEqual(received.at(-1), {
        query: 'cats',
        limit: 5,
        filters: { language: 'en', since: '2026-02-02' },
        headers: { Accept: 'text/plain', 'Accept-Language': 'da' }
      });
      assert.deepEqual(pageErrors, []);
    });
  });
});
