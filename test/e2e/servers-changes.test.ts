import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Browser, type Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { createHost, type Host } from '../../app/host/host.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { tempDir } from '../support/host-fixture.js';
import { recordSaid, saidTimes } from './live-region.js';
import { buildRenderer, openDesk } from './renderer-build.js';

/**
 * A server that is never connected here: its card has Edit… and Remove, and nothing runs.
 * Port 9 (discard) on loopback, should anything connect it: refused at once.
 */
const quiet = (id: string, name: string) => ({
  id,
  name,
  autoConnect: false,
  transport: { type: 'http' as const, url: `http://127.0.0.1:9/${id}` },
  secrets: { env: [], headers: [] }
});

describe('the Servers screen: what a change, a removal and an import leave behind', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let data: ReturnType<typeof tempDir>;
  let host: Host;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
    data = tempDir();
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      keyStore: new InMemoryKeyStore(),
      loginEnv: async () => ({ ...process.env }),
      importPlaces: { home: '/nonexistent/taskdesk-e2e-home', platform: 'linux' }
    });
    for (const [id, name] of [
      ['alpha', 'Alpha'],
      ['beta', 'Beta'],
      ['gamma', 'Gamma']
    ] as const)
      await host.call('servers.add', quiet(id, name));
    ({ server, browser, page } = await openDesk(host, built.dir, pageErrors, {
      viewport: { width: 1100, height: 1400 }
    }));
    await page.locator('nav').getByRole('link', { name: 'Servers', exact: true }).click();
    await page.locator('li[data-server-id="gamma"]').waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await host?.close();
    data?.remove();
    built?.remove();
  });

  const focusedIs = (selector: string) =>
    page.waitForFunction((wanted) => document.activeElement === document.querySelector(wanted), selector);

  it('asks before Escape or Cancel drops changes made in Edit…: Keep editing keeps the form and the focus, Discard drops them', async () => {
    const card = page.locator('li[data-server-id="alpha"]');
    const edit = card.getByRole('button', { name: 'Edit Alpha' });
    const form = card.getByRole('form', { name: 'Edit Alpha' });
    const dialog = page.getByRole('dialog', { name: 'Discard your changes?' });
    const name = form.getByRole('textbox', { name: 'Name', exact: true });
    const url = form.getByRole('textbox', { name: 'URL', exact: true });

    // Nothing changed: Escape closes at once, as before (from a field, the second: the first
    // leaves the field for the form).
    await edit.click();
    await name.waitFor();
    await name.press('Escape');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    assert.equal(await dialog.count(), 0, 'no question when nothing changed');
    await focusedIs('li[data-server-id="alpha"] button[aria-label="Edit Alpha"]');

    await edit.click();
    await name.fill('Alpha renamed');
    await url.fill('http://127.0.0.1:9/elsewhere');
    await url.press('Escape');
    await page.keyboard.press('Escape');
    await dialog.waitFor();
    // Not "Cancel", which the form's own button is, and which throws the changes away.
    assert.equal(await dialog.getByRole('button', { name: 'Cancel' }).count(), 0);
    await dialog.getByRole('button', { name: 'Keep editing', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await name.inputValue(), 'Alpha renamed', 'Keep editing keeps the form and what was typed');
    assert.equal(await url.inputValue(), 'http://127.0.0.1:9/elsewhere');
    // Where the focus was as Escape asked: on the form, which the first Escape moved it to from URL.
    await focusedIs('li[data-server-id="alpha"] form.edit-server');

    // The form's own Cancel asks too; Escape in the question answers Keep editing.
    await form.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await name.inputValue(), 'Alpha renamed');
    // So does Edit… pressed again, which closes its form.
    await edit.click();
    await dialog.getByRole('button', { name: 'Keep editing', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await name.inputValue(), 'Alpha renamed');
    await focusedIs('li[data-server-id="alpha"] button[aria-label="Edit Alpha"]');

    await form.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.getByRole('button', { name: 'Discard changes' }).click();
    await form.waitFor({ state: 'detached' });
    await focusedIs('li[data-server-id="alpha"] button[aria-label="Edit Alpha"]');
    const saved = await host.call('servers.get', { serverId: 'alpha' });
    assert.equal(saved.name, 'Alpha', 'nothing saved');
    assert.equal(saved.transport.type === 'http' && saved.transport.url, 'http://127.0.0.1:9/alpha');

    // Opened again, the form shows what is saved; a change undone is no change.
    await edit.click();
    assert.equal(await name.inputValue(), 'Alpha');
    await name.fill('Alpha 2');
    await name.fill('Alpha');
    await name.press('Escape');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    assert.equal(await dialog.count(), 0);
    assert.deepEqual(pageErrors, []);
  });

  it('puts the focus on the card in a removed server’s place, not on a button in it, then on the Servers heading', async () => {
    const remove = async (id: string, name: string) => {
      await page
        .locator(`li[data-server-id="${id}"]`)
        .getByRole('button', { name: `Remove ${name}` })
        .click();
      await page
        .getByRole('dialog', { name: `Remove ${name}?` })
        .getByRole('button', { name: 'Remove', exact: true })
        .click();
      await page.locator(`li[data-server-id="${id}"]`).waitFor({ state: 'detached' });
    };
    await recordSaid(page);
    await remove('beta', 'Beta');
    await focusedIs('li[data-server-id="gamma"]');
    // Said, and shown: the focus alone moving to the next card told nothing of what happened.
    await saidTimes(page, /Removed Beta\./);
    await page.getByRole('region', { name: 'Servers' }).getByText('Removed Beta.', { exact: true }).waitFor();
    // The last one removed: the card before it takes its place.
    await remove('gamma', 'Gamma');
    await focusedIs('li[data-server-id="alpha"]');
    await remove('alpha', 'Alpha');
    await focusedIs('#heading-servers');
    assert.deepEqual(pageErrors, []);
  });

  it('says up front which name an imported server that clashes gets, and leaves it unticked', async () => {
    await host.call('servers.add', quiet('delta', 'Delta'));
    await page.locator('li[data-server-id="delta"]').waitFor();
    const panel = page.getByRole('region', { name: 'Import from other apps' });
    await panel.getByLabel('Or paste a config').fill(
      JSON.stringify({
        mcpServers: {
          delta: { url: 'http://127.0.0.1:9/other-delta' },
          // Another spelling of the same name: it clashes with Delta, and with the first once that is picked.
          DELTA: { url: 'http://127.0.0.1:9/third-delta' },
          epsilon: { url: 'http://127.0.0.1:9/epsilon' }
        }
      })
    );
    await panel.getByRole('button', { name: 'Look for servers' }).click();
    const source = panel.locator('li[data-kind="pasted"]');
    const first = source.locator('li[data-key="delta"]');
    const second = source.locator('li[data-key="DELTA"]');
    await first
      .getByText(
        'Taskdesk already has a server with this id or name: if you import it anyway, it is added as “delta (2)”.'
      )
      .waitFor();
    await second
      .getByText(
        'Taskdesk already has a server with this id or name: if you import it anyway, it is added as “DELTA (2)”.'
      )
      .waitFor();
    // What can be imported starts ticked, but for what Taskdesk has already: imported anyway, it
    // would be a second server of that name, so it is the person's choice.
    assert.equal(await first.getByLabel('delta HTTP').isChecked(), false, 'a clashing server is not ticked');
    assert.equal(await second.getByLabel('DELTA HTTP').isChecked(), false);
    assert.equal(await source.getByLabel('epsilon HTTP').isChecked(), true, 'a new server is ticked');
    assert.equal(
      await source
        .locator('li[data-key="epsilon"]')
        .getByText(/already has/)
        .count(),
      0
    );

    // Both picked: the second is numbered after the first, as the import will number it.
    await first.getByLabel('delta HTTP').check();
    await second.getByLabel('DELTA HTTP').check();
    await second.getByText('if you import it anyway, it is added as “DELTA (3)”.', { exact: false }).waitFor();
    await first.getByText('if you import it anyway, it is added as “delta (2)”.', { exact: false }).waitFor();
    await source.getByLabel('epsilon HTTP').uncheck();
    await source.getByLabel('Connect them now and when Taskdesk starts').uncheck();
    await source.getByRole('button', { name: /Import 2 selected/ }).click();
    await source.getByText('Imported delta (2) and DELTA (3).', { exact: true }).waitFor();
    assert.deepEqual(
      (await host.call('servers.list', {})).map((s) => s.name),
      ['Delta', 'delta (2)', 'DELTA (3)']
    );
    assert.deepEqual(pageErrors, []);
  });

  it('counts Name and Command, not the Id filled in from the name, when the empty Add form is sent', async () => {
    const form = page.getByRole('form', { name: 'Add a server' });
    const field = (label: string) => form.getByRole('textbox', { name: label, exact: true });
    const summary = form.locator('.action-error');
    await form.getByRole('button', { name: 'Add server' }).click();
    await summary.getByText('2 fields need correcting.').waitFor();
    assert.deepEqual(
      [
        await field('Name').getAttribute('aria-invalid'),
        await field('Id').getAttribute('aria-invalid'),
        await field('Command').getAttribute('aria-invalid')
      ],
      ['true', null, 'true']
    );
    await focusedIs('input[name="name"]');
    // An id the person typed is theirs to correct, whatever the name.
    await field('Id').fill('bad id!');
    await summary.getByText('3 fields need correcting.').waitFor();
    assert.equal(await field('Id').getAttribute('aria-invalid'), 'true');
    // Emptied, it follows the name again: no problem of its own while the name is empty.
    await field('Id').fill('');
    await summary.getByText('2 fields need correcting.').waitFor();
    assert.equal(await field('Id').getAttribute('aria-invalid'), null);
    await field('Name').fill('Zeta');
    assert.equal(await field('Id').inputValue(), 'zeta');
    await summary.getByText('One field needs correcting.').waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
