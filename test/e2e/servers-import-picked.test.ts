import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Locator, type Page } from 'playwright-core';
import type { Host } from '../../app/host/host.js';
import { openImportDesk, type ImportDesk } from './import-desk.js';

/**
 * What an import starts with: every server that can be imported ticked, one that cannot left
 * unticked with its reason (an entry with no command says so once, not as an empty quote), and a heading
 * that counts the servers to import apart from those that cannot be.
 */
describe('the Servers screen: what an import starts with', () => {
  let desk: ImportDesk | undefined;
  let host: Host;
  let page: Page;
  let pageErrors: string[] = [];

  before(async () => {
    desk = await openImportDesk({
      viewport: { width: 1100, height: 1400 },
      // Claude Desktop's config: one server to import, and one whose command was left out.
      writeHome: (home) => {
        const file = path.join(home, '.config/Claude/claude_desktop_config.json');
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(
          file,
          JSON.stringify({
            mcpServers: {
              notes: { command: 'taskdesk-e2e-no-such-notes', args: ['serve'] },
              half: { args: ['--port', '4000'] }
            }
          })
        );
      }
    });
    ({ host, page, pageErrors } = desk);
  });

  after(async () => {
    await desk?.close();
  });

  const panel = () => page.getByRole('region', { name: 'Import from other apps' });
  const section = (kind: string) => panel().locator(`li.import-source[data-kind="${kind}"]`);
  const row = (source: Locator, key: string) => source.locator(`li.import-server[data-key="${key}"]`);
  const pick = (source: Locator, key: string) =>
    row(source, key).getByRole('checkbox', { name: new RegExp(`^${key} `) });

  const claude = () => section('claude-desktop');
  const pasted = () => section('pasted');

  /** Looks once, for the tests below: Claude Desktop's config, and a config pasted as Claude Desktop keeps it. */
  before(async () => {
    await panel()
      .getByLabel('Or paste a config')
      .fill(
        JSON.stringify({
          mcpServers: {
            remote: { url: 'http://127.0.0.1:9/mcp' },
            local: { command: 'taskdesk-e2e-no-such-local', args: ['--stdio'] },
            empty: {}
          }
        })
      );
    await panel().getByRole('button', { name: 'Look for servers' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'heading-import-found');
  });

  it('counts in its heading the servers to import, and apart those that cannot be imported', async () => {
    assert.equal(
      await panel().locator('#heading-import-found').textContent(),
      'Found 3 servers to import in 2 configs; 2 more cannot be imported.'
    );
    assert.deepEqual(pageErrors, []);
  });

  it('starts with every server that can be imported ticked, and those that cannot unticked and disabled', async () => {
    for (const [source, key] of [
      [claude(), 'notes'],
      [pasted(), 'remote'],
      [pasted(), 'local']
    ] as const)
      assert.equal(await pick(source, key).isChecked(), true, `${key} starts ticked`);
    for (const [source, key] of [
      [claude(), 'half'],
      [pasted(), 'empty']
    ] as const) {
      assert.equal(await pick(source, key).isChecked(), false, `${key} starts unticked`);
      assert.equal(await pick(source, key).isDisabled(), true, `${key} cannot be ticked`);
      await row(source, key)
        .getByText(/^Cannot be imported: /)
        .waitFor();
    }
    assert.match(
      (await claude()
        .getByRole('button', { name: /^Import/ })
        .textContent()) ?? '',
      /^Import 1 selected/
    );
    assert.match(
      (await pasted()
        .getByRole('button', { name: /^Import/ })
        .textContent()) ?? '',
      /^Import 2 selected/
    );
    assert.deepEqual(pageErrors, []);
  });

  it('says once of an entry with no command that it has none (why it cannot be imported), not as an empty quote', async () => {
    for (const [source, key] of [
      [claude(), 'half'],
      [pasted(), 'empty']
    ] as const) {
      const text = (await row(source, key).textContent()) ?? '';
      assert.doesNotMatch(text, /''/);
      // Its reason says the command is missing: not "No command given." as well.
      assert.doesNotMatch(text, /No command given/);
      await row(source, key).getByText('Cannot be imported: "command" is missing', { exact: true }).waitFor();
    }
    // One with a command shows it as before.
    await row(pasted(), 'local').getByText('taskdesk-e2e-no-such-local --stdio', { exact: true }).waitFor();
    assert.deepEqual(pageErrors, []);
  });

  it('imports, with nothing more picked, the servers it started with ticked', async () => {
    await pasted().getByLabel('Connect them now and when Taskdesk starts').uncheck();
    await pasted()
      .getByRole('button', { name: /^Import 2 selected/ })
      .click();
    await pasted().locator('.import-result p').getByText('Imported remote and local.', { exact: true }).waitFor();
    assert.deepEqual(
      (await host.call('servers.list', {})).map((one) => one.name),
      ['remote', 'local']
    );
    assert.deepEqual(pageErrors, []);
  });
});
