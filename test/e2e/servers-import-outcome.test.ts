import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Locator, type Page } from 'playwright-core';
import type { Host } from '../../app/host/host.js';
import { tempDir } from '../support/host-fixture.js';
import { openImportDesk, type ImportDesk } from './import-desk.js';
import { recordSaid, said } from './live-region.js';
import { root } from './renderer-build.js';

const EVERYTHING = path.join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/**
 * What an import says once it is done, and a config file in a place of its own: an import says
 * in one announcement what it added and which did not connect (not, at once after, that nothing
 * is new to import), and a config file's path typed under Project folders is read as that config.
 */
describe('the Servers screen: what an import says, and a config file given by its path', () => {
  let desk: ImportDesk | undefined;
  let host: Host;
  let page: Page;
  let pageErrors: string[] = [];
  const elsewhere = tempDir('taskdesk-import-elsewhere-');

  before(async () => {
    desk = await openImportDesk({ viewport: { width: 1100, height: 1400 } });
    ({ host, page, pageErrors } = desk);
  });

  after(async () => {
    await desk?.close();
    elsewhere.remove();
  });

  const panel = () => page.getByRole('region', { name: 'Import from other apps' });
  const section = (kind: string) => panel().locator(`li.import-source[data-kind="${kind}"]`);
  const row = (source: Locator, key: string) => source.locator(`li.import-server[data-key="${key}"]`);
  const look = async () => {
    await panel().getByRole('button', { name: 'Look for servers' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'heading-import-found');
  };

  it('says once what it imported and which did not connect, and not that nothing is new to import', async () => {
    await panel()
      .getByLabel('Or paste a config')
      .fill(
        JSON.stringify({
          mcpServers: {
            everything: { command: process.execPath, args: [EVERYTHING] },
            // Port 9 (discard) is one web clients refuse: it fails at once, with a reason.
            remote: { url: 'http://127.0.0.1:9/mcp' }
          }
        })
      );
    await look();
    await recordSaid(page);
    await section('pasted')
      .getByRole('button', { name: /^Import 2 selected/ })
      .click();
    const done = section('pasted').locator('.import-result p');
    await done.getByText(/^Imported 2 servers\. Connected: everything\. Did not connect: remote \(/).waitFor();
    // The panel looks again after the import: its heading says so, quietly.
    await panel()
      .locator('#heading-import-found')
      .getByText('Nothing new to import in 1 config: 2 servers are in Taskdesk already.', { exact: true })
      .waitFor();
    // Until the import's outcome is said, or more than one thing is said about it.
    await page.waitForFunction(() => {
      const heard = (window as unknown as { said: string[] }).said.filter((text) => /import/i.test(text));
      return heard.some((text) => text.includes('Did not connect')) || heard.length > 1;
    });
    const aboutImport = (await said(page)).filter((text) => /import/i.test(text));
    assert.equal(aboutImport.length, 1, JSON.stringify(aboutImport));
    assert.equal(aboutImport[0], await done.textContent());
    assert.doesNotMatch(aboutImport[0], /Nothing new/);
    assert.deepEqual(pageErrors, []);
  });

  it('reads a config file whose path is typed under Project folders, and imports from it, leaving it as it was', async () => {
    const file = path.join(elsewhere.dir, 'claude_desktop_config.json');
    const text = JSON.stringify({ mcpServers: { notes: { command: 'taskdesk-e2e-no-such-notes', args: ['serve'] } } });
    fs.writeFileSync(file, text);
    const before = fs.statSync(file).mtimeMs;
    await panel().getByLabel('Or paste a config').fill('');
    await panel().getByLabel('Project folders').fill(file);
    await look();
    assert.equal(await panel().locator('#heading-import-found').textContent(), 'Found 1 server to import in 1 config.');
    assert.equal(
      await panel()
        .getByText(/is not a folder/)
        .count(),
      0
    );
    const given = section('file');
    await given.getByText(file, { exact: true }).waitFor();
    await row(given, 'notes').getByText('taskdesk-e2e-no-such-notes serve', { exact: true }).waitFor();
    await given.getByLabel('Connect them now and when Taskdesk starts').uncheck();
    await given.getByRole('button', { name: /^Import 1 selected/ }).click();
    await given.locator('.import-result p').getByText('Imported notes.', { exact: true }).waitFor();
    assert.ok((await host.call('servers.list', {})).some((server) => server.name === 'notes'));
    assert.equal(fs.readFileSync(file, 'utf8'), text);
    assert.equal(fs.statSync(file).mtimeMs, before);
    assert.deepEqual(pageErrors, []);
  });
});
