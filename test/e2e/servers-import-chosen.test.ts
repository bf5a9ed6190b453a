import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Page } from 'playwright-core';
import type { Host } from '../../app/host/host.js';
import { tempDir } from '../support/host-fixture.js';
import { assertNoViolations } from './axe-check.js';
import { openImportDesk, type ImportDesk } from './import-desk.js';
import { recordSaid, said, saidTimes } from './live-region.js';

const CLAUDE = {
  name: 'claude_desktop_config.json',
  mimeType: 'application/json',
  buffer: Buffer.from(
    JSON.stringify({
      mcpServers: {
        'task-tools': { command: 'taskdesk-e2e-no-such-task-tools', args: ['serve'] },
        'echo-two': { url: 'https://echo-two.example.com/mcp' }
      }
    })
  )
};
/** Not JSON: a comma is missing between two servers. */
const BROKEN = '{"mcpServers": {"a": {"command": "x"} "b": {}}}';

/**
 * Importing from a config file the person chooses ("Choose a config file…"): read in the page, as
 * a browser must (it gives no path), and named as the source of what it imports; and a config that
 * cannot be read (a file chosen, pasted text, a file's path) said as such in the heading, not
 * counted as a config looked in.
 */
describe('the Servers screen: importing from a config file chosen, and configs that cannot be read', () => {
  let desk: ImportDesk | undefined;
  let host: Host;
  let page: Page;
  let pageErrors: string[] = [];
  const elsewhere = tempDir('taskdesk-import-chosen-');

  before(async () => {
    desk = await openImportDesk({ viewport: { width: 1100, height: 1400 } });
    ({ host, page, pageErrors } = desk);
  });

  after(async () => {
    await desk?.close();
    elsewhere.remove();
  });

  const panel = () => page.getByRole('region', { name: 'Import from other apps' });
  const heading = () => panel().locator('#heading-import-found');
  /**
   * The file input the button opens. A file is picked in it directly: Playwright's `filechooser`
   * event is at times not emitted for a page's first chooser, so the test does not wait on it.
   */
  const fileInput = () => panel().locator('input[type="file"]');
  const choose = (file: { name: string; mimeType: string; buffer: Buffer }) => fileInput().setInputFiles(file);
  const focusedId = () => page.evaluate(() => document.activeElement?.id);
  const lookedAt = () => page.waitForFunction(() => document.activeElement?.id === 'heading-import-found');

  it('offers “Choose a config file…”, reached by Tab after Look for servers, opening a chooser of one JSON file', async () => {
    await panel().getByRole('button', { name: 'Look for servers' }).focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Choose a config file…');
    // The press opens the file input's chooser: its click is counted here (and the chooser not opened).
    await fileInput().evaluate((input) => {
      const opened = window as unknown as { chooserOpened: number };
      opened.chooserOpened = 0;
      input.addEventListener('click', (event) => {
        opened.chooserOpened++;
        event.preventDefault();
      });
    });
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (window as unknown as { chooserOpened: number }).chooserOpened === 1);
    assert.deepEqual(
      await fileInput().evaluate((input: HTMLInputElement) => [input.type, input.accept, input.multiple]),
      ['file', '.json,application/json', false]
    );
    await recordSaid(page);
    await choose(CLAUDE);
    await lookedAt();
    assert.equal(await heading().textContent(), 'Found 2 servers to import in 1 config.');
    await saidTimes(page, /^Found 2 servers/);
    // The apps' places are not listed as looked in: the file chosen is what the person asked to read.
    assert.doesNotMatch((await panel().textContent()) ?? '', /Looked for/);
    assert.deepEqual(pageErrors, []);
  });

  it('shows the file chosen as a config of its own, by its name, and names it as the source of what it imports', async () => {
    const chosen = panel().locator('li.import-source[data-kind="file"]');
    await chosen.getByRole('heading', { name: CLAUDE.name, exact: true }).waitFor();
    await chosen
      .locator('li.import-server[data-key="task-tools"]')
      .getByText('taskdesk-e2e-no-such-task-tools serve', { exact: true })
      .waitFor();
    await chosen.getByLabel('Connect them now and when Taskdesk starts').uncheck();
    await recordSaid(page);
    await chosen.getByRole('button', { name: /^Import 2 selected/ }).click();
    const done = chosen.locator('.import-result p');
    await done.getByText(`Imported task-tools and echo-two from ${CLAUDE.name}.`, { exact: true }).waitFor();
    await saidTimes(page, /^Imported/);
    assert.deepEqual(
      (await said(page)).filter((text) => text.startsWith('Imported')),
      [`Imported task-tools and echo-two from ${CLAUDE.name}.`]
    );
    assert.deepEqual((await host.call('servers.list', {})).map((server) => server.name).sort(), [
      'echo-two',
      'task-tools'
    ]);
    // The look after the import reads the file as chosen again: both are in Taskdesk now.
    await heading()
      .getByText('Nothing new to import in 1 config: 2 servers are in Taskdesk already.', { exact: true })
      .waitFor();
    const imported = await host.call('audit.read', { type: 'server.imported' });
    assert.deepEqual(
      imported.map((entry) => entry.detail?.from),
      [`chosen file ${CLAUDE.name}`, `chosen file ${CLAUDE.name}`]
    );
    await assertNoViolations(page, 'the Import panel after an import from a file chosen');
    assert.deepEqual(pageErrors, []);
  });

  it('says in its heading that a chosen file could not be read, not that it found no servers in it', async () => {
    await choose({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from(BROKEN) });
    await page.waitForFunction(() => document.activeElement?.textContent === 'Could not read broken.json.', undefined);
    assert.equal(await focusedId(), 'heading-import-found');
    await panel()
      .locator('li.import-source[data-kind="file"]')
      .getByRole('alert')
      .getByText(
        'broken.json is not a config Taskdesk can read: Comma expected at line 1, column 39. Nothing was imported from it.',
        { exact: true }
      )
      .waitFor();
    assert.deepEqual(pageErrors, []);
  });

  it('refuses a chosen file too big to be a config, unread, saying its size and the most it reads', async () => {
    const before = await heading().textContent();
    await choose({ name: 'big.json', mimeType: 'application/json', buffer: Buffer.alloc(1_000_001, ' ') });
    const alert = panel().locator(':scope > .action-error');
    await alert
      .getByText('Could not read big.json. It is 1.1 MB; Taskdesk reads a config file of at most 1 MB.', {
        exact: true
      })
      .waitFor();
    await alert
      .getByText('Choose the app’s config file itself, such as claude_desktop_config.json or mcp.json.', {
        exact: true
      })
      .waitFor();
    // Nothing was looked at: what the last look found stays.
    assert.equal(await heading().textContent(), before);
    assert.deepEqual(pageErrors, []);
  });

  it('says in its heading that pasted text could not be read, not how many configs it looked in', async () => {
    await panel().getByLabel('Or paste a config').fill(BROKEN);
    await panel().getByRole('button', { name: 'Look for servers' }).click();
    await lookedAt();
    assert.equal(await heading().textContent(), 'Could not read the pasted text.');
    await panel()
      .locator('li.import-source[data-kind="pasted"]')
      .getByText(
        'The pasted text is not a config Taskdesk can read: Comma expected at line 1, column 39. Nothing was imported from it.',
        { exact: true }
      )
      .waitFor();
    // Only what the last look read is shown: the file chosen before is not read again.
    assert.equal(await panel().locator('li.import-source[data-kind="file"]').count(), 0);
    assert.deepEqual(pageErrors, []);
  });

  it('says that its box takes folders or config files’ paths, and that a config file there could not be read', async () => {
    const box = panel().getByLabel('Project folders or config files', { exact: true });
    const hintId = (await box.getAttribute('aria-describedby')) ?? '';
    assert.equal(
      await page.locator(`[id="${hintId}"]`).textContent(),
      'One a line: a project’s folder, for its .cursor/mcp.json and .vscode/mcp.json, or a config file’s own path.'
    );
    const file = path.join(elsewhere.dir, 'mcp.json');
    fs.writeFileSync(file, BROKEN);
    const gone = path.join(elsewhere.dir, 'no-such-config.json');
    await panel().getByLabel('Or paste a config').fill('');
    await box.fill(file);
    await panel().getByRole('button', { name: 'Look for servers' }).click();
    await lookedAt();
    assert.equal(await heading().textContent(), `Could not read ${file}.`);
    // A path with nothing at it is not said to be a folder.
    await box.fill(`${file}\n${gone}`);
    await panel().getByRole('button', { name: 'Look for servers' }).click();
    await panel().getByText(`There is no folder or file at ${gone}.`, { exact: true }).waitFor();
    assert.equal(await heading().textContent(), `Could not read ${file}.`);
    assert.deepEqual(pageErrors, []);
  });
});
