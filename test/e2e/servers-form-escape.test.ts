import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { createHost, type Host } from '../../app/host/host.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { tempDir } from '../support/host-fixture.js';
import { buildRenderer, openDesk } from './renderer-build.js';

/**
 * Escape in a field of a server's Edit… form does not close the form from under the typing: it
 * leaves the field for the form, as in a tool's form and an Inbox card, and a second Escape, on
 * the form, closes it as Cancel does (asking first when it holds changes not saved).
 */
describe('Escape in a server’s Edit… form, in headless Chromium against the real core', () => {
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
    // Never connected here: their cards have Edit…, and nothing runs (port 9 refuses at once).
    await host.call('servers.add', {
      id: 'alpha',
      name: 'Alpha',
      autoConnect: false,
      transport: { type: 'http', url: 'http://127.0.0.1:9/alpha' },
      secrets: { env: [], headers: [] }
    });
    await host.call('servers.add', {
      id: 'beta',
      name: 'Beta',
      autoConnect: false,
      transport: { type: 'stdio', command: 'beta-server', args: ['--quiet'] },
      secrets: { env: [], headers: [] }
    });
    ({ server, browser, page } = await openDesk(host, built.dir, pageErrors, {
      viewport: { width: 1100, height: 1400 }
    }));
    await page.locator('nav').getByRole('link', { name: 'Servers', exact: true }).click();
    await page.locator('li[data-server-id="beta"]').waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await host?.close();
    data?.remove();
    built?.remove();
  });

  const focused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);
  const dialog = () => page.getByRole('dialog', { name: 'Discard your changes?' });

  it('keeps the form open on Escape in a text field, the focus on the form and what was typed kept; a second Escape asks first', async () => {
    const card = page.locator('li[data-server-id="alpha"]');
    const edit = card.getByRole('button', { name: 'Edit Alpha' });
    const form = card.getByRole('form', { name: 'Edit Alpha' });
    const name = form.getByRole('textbox', { name: 'Name', exact: true });
    await edit.click();
    await name.fill('Alpha renamed');

    await name.press('Escape');
    assert.ok(await form.isVisible(), 'Escape in the field leaves the form open');
    assert.equal(await edit.getAttribute('aria-expanded'), 'true');
    assert.equal(await dialog().count(), 0, 'nothing asked yet');
    assert.ok(await focused(form), 'the focus left the field for the form');
    assert.equal(await name.inputValue(), 'Alpha renamed', 'what was typed stays');

    // Escape on the form: closing would drop a change, so it asks; Keep editing keeps it all.
    await page.keyboard.press('Escape');
    await dialog().getByRole('button', { name: 'Keep editing', exact: true }).click();
    await dialog().waitFor({ state: 'hidden' });
    assert.equal(await name.inputValue(), 'Alpha renamed');
    assert.ok(await focused(form), 'Keep editing gives the focus back to the form');

    await page.keyboard.press('Escape');
    await dialog().getByRole('button', { name: 'Discard changes' }).click();
    await form.waitFor({ state: 'detached' });
    assert.ok(await focused(edit), 'closed, the focus is on Edit…');
    assert.equal((await host.call('servers.get', { serverId: 'alpha' })).name, 'Alpha', 'nothing saved');
    assert.deepEqual(pageErrors, []);
  });

  it('does the same from the Arguments box, a choice and a list; unchanged, the second Escape closes at once, as Escape on a button does', async () => {
    const card = page.locator('li[data-server-id="beta"]');
    const edit = card.getByRole('button', { name: 'Edit Beta' });
    const form = card.getByRole('form', { name: 'Edit Beta' });
    await edit.click();
    const args = form.getByRole('textbox', { name: 'Arguments' });
    await args.waitFor();
    const fields: Array<[string, Locator]> = [
      ['the Arguments box', args],
      ['the transport choice', form.getByRole('radio', { checked: true })],
      ['the Protocol list', form.getByRole('combobox', { name: 'Protocol' })]
    ];
    for (const [what, field] of fields) {
      await field.focus();
      await field.press('Escape');
      assert.ok(await form.isVisible(), `Escape in ${what} leaves the form open`);
      assert.ok(await focused(form), `Escape in ${what} puts the focus on the form`);
    }
    assert.equal(await args.inputValue(), '--quiet');
    // Back into the fields by the keyboard: the form's first field is the next stop.
    await page.keyboard.press('Tab');
    assert.ok(
      await focused(form.getByRole('textbox', { name: 'Name', exact: true })),
      'Tab from the form goes to Name'
    );

    // Nothing changed: Escape on the form closes it at once, the focus back on Edit….
    await args.press('Escape');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    assert.equal(await dialog().count(), 0, 'no question when nothing changed');
    assert.ok(await focused(edit));

    // Escape on one of the form's buttons (no field) closes it at once, as before.
    await edit.click();
    await form.getByRole('button', { name: 'Cancel', exact: true }).focus();
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    assert.ok(await focused(edit));
    assert.deepEqual(pageErrors, []);
  });
});
