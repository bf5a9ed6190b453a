import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Browser, type Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { peerServer, startHostWith, type InMemoryHostFixture } from '../support/host-fixture.js';
import { buildRenderer, openDesk } from './renderer-build.js';
import { openServerSettings } from './server-settings.js';

/**
 * Two windows on one host (or a window and the tray, which calls the host directly) never
 * disagree: a change made in one reaches the other through host events, with no reload.
 */
describe('two Desk windows on one host', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let fixture: InMemoryHostFixture;
  let server: BrowserServer;
  let browser: Browser;
  let first: Page;
  let second: Page;
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
    fixture = await startHostWith({ two: peerServer('two-peer') }, { keyStore: new InMemoryKeyStore() });
    ({ server, browser, page: first } = await openDesk(fixture.host, built.dir, pageErrors));
    second = await browser.newPage();
    second.on('pageerror', (error) => pageErrors.push(error.message));
    await second.goto(server.url);
    await second.locator('#app[data-ready="true"]').waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await fixture?.dispose();
    built?.remove();
  });

  it('shows in one window the sampling policy set in the other', async () => {
    for (const page of [first, second]) {
      await page.getByRole('link', { name: 'Servers', exact: true }).click();
      await openServerSettings(page.locator('li[data-server-id="two"]'));
    }
    await first.locator('li[data-server-id="two"]').getByLabel('Refuse').check();
    await second.locator('li[data-server-id="two"] fieldset[data-policy-mode="refuse"]').waitFor();
    assert.equal(await second.locator('li[data-server-id="two"]').getByLabel('Refuse').isChecked(), true);
  });

  it('lists in one window a server added or removed in the other', async () => {
    const form = first.getByRole('form', { name: 'Add a server' });
    await form.getByLabel('Id').fill('later');
    await form.getByLabel('Name').fill('Later');
    await form.getByRole('textbox', { name: 'Command', exact: true }).fill('true');
    await form.getByLabel('Connect now and when Taskdesk starts').uncheck();
    await form.getByRole('button', { name: 'Add server' }).click();
    const item = second.locator('li[data-server-id="later"]');
    await item.getByRole('heading', { name: 'Later' }).waitFor();
    await item.getByRole('button', { name: 'Remove Later' }).click();
    await second.getByRole('dialog', { name: 'Remove Later?' }).getByRole('button', { name: 'Remove' }).click();
    await first.locator('li[data-server-id="later"]').waitFor({ state: 'detached' });
  });

  it('shows providers changed behind both windows’ backs (as the tray would) at once', async () => {
    for (const page of [first, second]) await page.getByRole('link', { name: 'LLM providers' }).click();
    await fixture.host.call('providers.save', {
      id: 'side',
      name: 'Side door',
      baseURL: 'http://127.0.0.1:9/v1',
      models: [],
      apiKey: 'sk-side'
    });
    for (const page of [first, second]) await page.locator('li[data-provider-id="side"] [data-key="true"]').waitFor();
    await fixture.host.call('providers.clearKey', { providerId: 'side' });
    for (const page of [first, second]) await page.locator('li[data-provider-id="side"] [data-key="false"]').waitFor();
    await fixture.host.call('providers.remove', { providerId: 'side' });
    for (const page of [first, second])
      await page.locator('li[data-provider-id="side"]').waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });
});
