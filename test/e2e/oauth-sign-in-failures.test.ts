import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { createHost, type Host } from '../../app/host/host.js';
import { tempDir } from '../support/host-fixture.js';
import { startOAuthTestServers, type OAuthTestServers } from '../support/oauth-test-servers.js';
import { buildRenderer, openDesk } from './renderer-build.js';

/**
 * The sign-in on a server's card as a newcomer walked it, where it went wrong: what it asks (the
 * address whole, no Connect that does nothing), the sign-in page for a browser that did not
 * open, a "Saved" that outlived its client, a sign-in that could not start, and a server that
 * is down (a failure, not a sign-in). Against the local OAuth test servers, in headless Chromium.
 */
describe('the sign-in on a server card, when things go wrong', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let servers: OAuthTestServers;
  let data: ReturnType<typeof tempDir>;
  let host: Host;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  let card: Locator;
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
    servers = await startOAuthTestServers({ consent: 'page' });
    data = tempDir('taskdesk-oauth-failures-e2e-');
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [{ id: 'notes', name: 'Team notes', transport: { type: 'http', url: servers.mcpUrl } }]
    });
    ({ server, browser, page } = await openDesk(host, built.dir, pageErrors));
    await page.getByRole('link', { name: 'Servers' }).click();
    card = page.locator('li[data-server-id="notes"]');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await host?.close();
    await servers?.close();
    data?.remove();
    built?.remove();
  });

  const badge = () => card.locator('.card-header .status').innerText();

  it('asks with the address mid-sentence, offers no Connect that would change nothing, and keeps the focus', async () => {
    await card.getByRole('button', { name: 'Connect Team notes' }).click();
    const asks = card.locator('.sign-in > p').first();
    await asks.getByText('asks you to sign in').waitFor();
    assert.equal(await asks.innerText(), `Team notes asks you to sign in at ${servers.issuer} before you use it.`);
    assert.equal(await asks.locator('code').innerText(), servers.issuer, 'the address stands apart');
    assert.equal(await badge(), 'Sign-in needed');
    assert.equal(
      await card.getByRole('button', { name: 'Connect Team notes' }).count(),
      0,
      'no Connect beside Sign in'
    );
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
      'Sign in to Team notes',
      'the focus went from Connect to Sign in, not to the page'
    );
  });

  it('while the browser is out: no Connect, and the sign-in page can be opened again or its address copied', async () => {
    const opened = page.context().waitForEvent('page');
    await card.getByRole('button', { name: 'Sign in to Team notes' }).click();
    const signInPage = await opened;
    await card.getByText('Finish the sign-in in the browser tab that opened (waiting…)').waitFor();
    assert.equal(await badge(), 'Signing in');
    assert.equal(await card.getByRole('button', { name: 'Connect Team notes' }).count(), 0);

    const address = card.locator('.sign-in-address');
    const authorizationUrl = signInPage.url();
    assert.equal(await address.locator('code').innerText(), new URL(servers.issuer).host, 'shortened to its host');
    assert.equal(await address.locator('code').getAttribute('title'), authorizationUrl, 'the whole address on hover');
    assert.equal((await card.innerText()).includes(authorizationUrl), false, 'not shown raw');
    await address.getByRole('button', { name: 'Copy the address of the sign-in page of Team notes' }).waitFor();
    const again = page.context().waitForEvent('page');
    await address.getByRole('button', { name: 'Open the sign-in page of Team notes' }).click();
    const second = await again;
    await second.waitForLoadState();
    assert.equal(second.url(), authorizationUrl, 'the same sign-in page');
    await second.close();

    await signInPage.getByRole('link', { name: 'Allow' }).click();
    await signInPage.getByText('Signed in to Team notes. You can close this tab.').waitFor();
    await signInPage.close();
    await card.getByText(`Signed in as alice at ${servers.issuer}`).waitFor();
    await card.getByRole('button', { name: 'Sign out of Team notes' }).click();
    await card.getByRole('button', { name: 'Connect Team notes' }).waitFor();
    // The state's event may come a moment after the card's buttons changed (CI read "Ready" once).
    await card.locator('.card-header .status', { hasText: 'Signed out' }).waitFor();
    assert.equal(await badge(), 'Signed out');
  });

  it('says "Saved" for a registered client only while the server signs in with it', async () => {
    await card.getByText('Use a client you registered').click();
    await card.getByLabel('Client ID').fill('my-bogus-client');
    await card.getByRole('button', { name: 'Save client' }).click();
    await card.getByText('Saved: the next sign-in uses this client.').waitFor();
    await card.getByRole('button', { name: 'Use automatic registration for Team notes' }).click();
    await card.getByText('Signs in with the client you registered').waitFor({ state: 'detached' });
    assert.equal(await card.getByText('Saved: the next sign-in uses this client.').count(), 0, 'no stale "Saved"');
    await card.getByText('Use a client you registered').click();
  });

  it('says where a sign-in could not start when the sign-in service is down', async () => {
    // Automatic registration again (above): this sign-in must register Taskdesk there first.
    await servers.closeAuthorizationServer();
    await card.getByRole('button', { name: 'Sign in to Team notes' }).click();
    const origin = new URL(servers.issuer).origin;
    const failure = card.getByText(`The sign-in service at ${origin} could not be reached.`, { exact: false });
    await failure.waitFor();
    assert.match(
      await card.locator('.sign-in').innerText(),
      new RegExp(
        `Could not start the sign-in to Team notes\\.\\s+The sign-in service at ${origin.replace(/\./g, '\\.')} could not be reached\\. Nothing is listening at 127\\.0\\.0\\.1:\\d+ \\(ECONNREFUSED\\)\\. Is it running\\?`
      )
    );
    assert.equal(await card.getByText('fetch failed').count(), 0);
    const entries = await host.call('audit.read', { serverId: 'notes' });
    assert.ok(entries.some((entry) => entry.type === 'server.sign-in-failed'));
  });

  it('shows a server that is down as Failed, with no sign-in asked', async () => {
    await servers.close();
    await card.getByRole('button', { name: 'Connect Team notes' }).click();
    await card.locator('.status-failed').waitFor();
    assert.equal(await badge(), 'Failed');
    await card
      .getByText(/Nothing is listening at 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/)
      .first()
      .waitFor();
    assert.equal(await card.getByRole('button', { name: 'Sign in to Team notes' }).count(), 0, 'no Sign in');
    assert.equal(await card.getByText(/asks you to sign in|Signed out of/).count(), 0, 'no sign-in prompt');
    await card.getByRole('button', { name: 'Connect Team notes' }).waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
