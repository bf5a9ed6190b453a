import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Page } from 'playwright-core';
import type { Host } from '../../app/host/host.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { openImportDesk, type ImportDesk } from './import-desk.js';
import { recordSaid, said, saidTimes } from './live-region.js';
import { root } from './renderer-build.js';

const EVERYTHING = path.join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/**
 * A key store whose secrets named `HELD_API_KEY` are first read only once it is let go: a
 * server's connect waits for them (later reads, as a Remove's, are answered at once).
 */
class HeldKeyStore extends InMemoryKeyStore {
  #letGo: () => void = () => undefined;
  readonly #gone = new Promise<void>((resolve) => (this.#letGo = resolve));
  readonly #asked = new Set<string>();

  override async get(id: string): Promise<string | undefined> {
    if (id.includes('HELD_API_KEY') && !this.#asked.has(id)) {
      this.#asked.add(id);
      await this.#gone;
    }
    return super.get(id);
  }

  letGo(): void {
    this.#letGo();
  }
}

/**
 * What an import says of servers that do not stay to connect: one disconnected while its connect
 * still waited (it is left idle, never connecting) and one removed before it connected are its
 * outcome, said once, not a wait for ever.
 */
describe('the Servers screen: what an import says of servers disconnected or removed before they connected', () => {
  let desk: ImportDesk | undefined;
  let host: Host;
  let page: Page;
  let pageErrors: string[] = [];
  const keys = new HeldKeyStore();

  before(async () => {
    desk = await openImportDesk({ viewport: { width: 1100, height: 1400 }, keyStore: keys });
    ({ host, page, pageErrors } = desk);
  });

  after(async () => {
    keys.letGo();
    await desk?.close();
  });

  const panel = () => page.getByRole('region', { name: 'Import from other apps' });
  const card = (id: string) => page.locator(`li.card.server[data-server-id="${id}"]`);

  it('says once that one was disconnected and one removed while they were still connecting', async () => {
    const server = (key: string) => ({ command: process.execPath, args: [EVERYTHING], env: { HELD_API_KEY: key } });
    await panel()
      .getByLabel('Or paste a config')
      .fill(JSON.stringify({ mcpServers: { first: server('sk-held-first'), second: server('sk-held-second') } }));
    await panel().getByRole('button', { name: 'Look for servers' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'heading-import-found');
    await recordSaid(page);
    const source = panel().locator('li.import-source[data-kind="pasted"]');
    await source.getByRole('button', { name: /^Import 2 selected/ }).click();
    const done = source.locator('.import-result p');
    // Their connects wait for their secrets: both are connecting, on their cards too.
    await done.getByText('Imported first and second; both are still connecting.', { exact: true }).waitFor();
    await card('first').locator('[data-status="connecting"]').waitFor();

    // As another window (or the tray) would: a Disconnect overtakes one connect, a Remove the other.
    await host.call('servers.disconnect', { serverId: 'first' });
    await host.call('servers.remove', { serverId: 'second' });
    await saidTimes(page, /^Imported/);
    assert.equal(await done.textContent(), 'Imported 2 servers. Not connected: first. Removed since: second.');
    // The removed one has no card to go to: its name is words, not a link.
    assert.equal(await done.getByRole('button', { name: 'first' }).count(), 1);
    assert.equal(await done.getByRole('button', { name: 'second' }).count(), 0);
    assert.deepEqual(
      (await said(page)).filter((text) => /import/i.test(text)),
      ['Imported 2 servers. Not connected: first. Removed since: second.']
    );
    assert.equal(await card('first').locator('[data-status="idle"]').count(), 1);
    assert.deepEqual(pageErrors, []);
  });
});
