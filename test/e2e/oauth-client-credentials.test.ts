import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { createHost } from '../../app/host/host.js';
import { tempDir } from '../support/host-fixture.js';
import { startOAuthTestServers, type OAuthTestServers } from '../support/oauth-test-servers.js';
import { buildRenderer, openDesk, openToolForm } from './renderer-build.js';

/**
 * A Desk on a host with one server, "Protected", behind a local authorization server that knows
 * `client` and answers the client credentials grant; opened on the Servers screen. `onNewPage` is
 * told of each page the Desk opens (a sign-in page would be one).
 */
async function openProtectedDesk(
  client: Parameters<OAuthTestServers['registerClient']>[0],
  height: number,
  pageErrors: string[],
  onNewPage: () => void
) {
  const built = await buildRenderer();
  const servers = await startOAuthTestServers({ consent: 'page', clientCredentials: true });
  servers.registerClient(client);
  const data = tempDir('taskdesk-oauth-cc-e2e-');
  const host = createHost({
    dataDir: data.dir,
    autoConnect: false,
    servers: [{ id: 'protected', name: 'Protected', transport: { type: 'http', url: servers.mcpUrl } }]
  });
  const { server, browser, page } = await openDesk(host, built.dir, pageErrors, { viewport: { width: 1280, height } });
  page.context().on('page', onNewPage);
  await page.getByRole('link', { name: 'Servers' }).click();
  return {
    servers,
    page,
    card: page.locator('li[data-server-id="protected"]'),
    close: async () => {
      await browser.close();
      await server.close();
      await host.close();
      await servers.close();
      data.remove();
      built.remove();
    }
  };
}

/**
 * Choosing sign-in without a browser (OAuth client credentials) on the registered-client form,
 * in headless Chromium against the real core: Sign in then connects the server with no sign-in
 * page, against a local authorization server that answers the client credentials grant.
 */
describe('signing in without a browser from the Desk (client credentials)', () => {
  let servers: OAuthTestServers;
  let page: Page;
  let card: Locator;
  let close: (() => Promise<void>) | undefined;
  const pageErrors: string[] = [];
  let pagesOpened = 0;

  before(async () => {
    ({ servers, page, card, close } = await openProtectedDesk(
      { clientId: 'machine', clientSecret: 'machine-secret' },
      1400,
      pageErrors,
      () => (pagesOpened += 1)
    ));
  });

  after(async () => {
    await close?.();
  });

  it('offers the choice on the registered-client form, which then needs the secret', async () => {
    await card.getByRole('button', { name: 'Connect Protected' }).click();
    await card.getByText(`Protected asks you to sign in at ${servers.issuer} before you use it.`).waitFor();
    await card.getByText('Use a client you registered').click();
    const form = card.locator('.registered-client form');
    const choice = form.getByLabel('Sign in without a browser (client credentials)');
    assert.equal(await choice.isChecked(), false);
    assert.equal(await form.getByLabel('Sign-in service address (if you know it)').count(), 0);
    await choice.check();
    await form.getByText('Taskdesk signs in with them whenever it connects, with no sign-in page.').waitFor();
    assert.equal(await form.getByText('http://127.0.0.1/callback').count(), 0, 'no redirect URI to register');
    await form.getByLabel('Client ID').fill('machine');
    const save = form.getByRole('button', { name: 'Save client' });
    assert.equal(await save.isDisabled(), true, 'not without the secret');
    assert.equal(await form.getByLabel(/^Client secret( \*)?$/).getAttribute('aria-required'), 'true');
    await form.getByLabel(/^Client secret( \*)?$/).fill('machine-secret');
    await form.getByLabel('Sign-in service address (if you know it)').fill(servers.issuer);
    await save.click();
    await form.getByText('Saved: Sign in (or Connect) uses this client, without a browser.').waitFor();
    assert.equal(await form.getByLabel(/^Client secret( \*)?$/).inputValue(), '', 'the secret is not kept in the form');
  });

  it('signs in and connects with no sign-in page, and the tool call goes with the client token', async () => {
    await card.getByRole('button', { name: 'Sign in to Protected' }).click();
    await card
      .getByText(`Signed in as machine at ${servers.issuer} with the client you registered (machine)`)
      .waitFor();
    await card.locator('[data-status="ready"]').waitFor();
    assert.equal(pagesOpened, 0, 'no page opened');
    assert.equal(servers.signIns, 0, 'no authorization code asked for');
    assert.equal(servers.clientCredentialsGrants, 1);
    await card.getByRole('button', { name: 'Tools of Protected' }).click();
    const tools = page.getByRole('region', { name: 'Tools' });
    const form = await openToolForm(tools, 'whoami');
    await form.getByRole('button', { name: 'Call tool' }).click();
    await form.locator('.call-result').getByText('{"subject":"machine"}').waitFor();
    assert.deepEqual(pageErrors, []);
  });

  it('shows on its form, signed out and after a reload, the sign-in service the client belongs to (saving a new secret keeps it)', async () => {
    const serversLink = () => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Servers' });
    await serversLink().click();
    // To save a new secret, as after the sign-in service refused the old one: the form shows once not signed in.
    await card.getByRole('button', { name: 'Sign out of Protected' }).click();
    await card.getByRole('button', { name: 'Sign in to Protected' }).waitFor();
    await page.reload();
    await serversLink().click();
    await card.getByText('Use a client you registered').click();
    const form = card.locator('.registered-client form');
    assert.equal(await form.getByLabel('Sign-in service address (if you know it)').inputValue(), servers.issuer);
    await form
      .getByText('Left empty, it signs in at the service the server names the first time, and only there afterwards.', {
        exact: false
      })
      .waitFor();
    assert.deepEqual(pageErrors, []);
  });
});

/**
 * Choosing a private key in place of the secret (`private_key_jwt`) for a sign-in without a
 * browser on the registered-client form, in headless Chromium against the real core and a local
 * authorization server that checks the signed assertion with the registered public key.
 */
describe('signing in without a browser with a private key, from the Desk', () => {
  let servers: OAuthTestServers;
  let page: Page;
  let card: Locator;
  let close: (() => Promise<void>) | undefined;
  const pageErrors: string[] = [];
  let pagesOpened = 0;
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

  before(async () => {
    ({ servers, page, card, close } = await openProtectedDesk(
      { clientId: 'machine', publicKey },
      1600,
      pageErrors,
      () => (pagesOpened += 1)
    ));
  });

  after(async () => {
    await close?.();
  });

  it('offers a private key and its algorithm in place of the secret, and needs the key', async () => {
    await card.getByRole('button', { name: 'Connect Protected' }).click();
    await card.getByText(`Protected asks you to sign in at ${servers.issuer} before you use it.`).waitFor();
    await card.getByText('Use a client you registered').click();
    const form = card.locator('.registered-client form');
    assert.equal(
      await form.getByLabel('A private key (private_key_jwt)').count(),
      0,
      'only when signing in without a browser'
    );
    await form.getByLabel('Sign in without a browser (client credentials)').check();
    assert.equal(
      await form.getByLabel('Its client secret').isChecked(),
      true,
      'the secret, unless the person chooses a key'
    );
    await form.getByLabel('A private key (private_key_jwt)').check();
    assert.equal(await form.getByLabel(/^Client secret/).count(), 0, 'no secret asked for with a key');
    await form.getByLabel('Client ID').fill('machine');
    const save = form.getByRole('button', { name: 'Save client' });
    assert.equal(await save.isDisabled(), true, 'not without the key');
    const key = form.getByLabel(/^Private key \(PEM\)( \*)?$/);
    assert.equal(await key.getAttribute('aria-required'), 'true');
    await key.fill(pem);
    await form.getByLabel('Key algorithm').selectOption('ES256');
    await save.click();
    await form.getByText('Saved: Sign in (or Connect) uses this client, without a browser.').waitFor();
    assert.equal(await key.inputValue(), '', 'the key is not kept in the form');
  });

  it('signs in and connects with no sign-in page, and the key never reaches the page again', async () => {
    await card.getByRole('button', { name: 'Sign in to Protected' }).click();
    await card
      .getByText(`Signed in as machine at ${servers.issuer} with the client you registered (machine)`)
      .waitFor();
    await card.locator('[data-status="ready"]').waitFor();
    assert.equal(pagesOpened, 0, 'no page opened');
    assert.equal(servers.signIns, 0, 'no authorization code asked for');
    assert.equal(servers.clientCredentialsGrants, 1);
    const body = pem.split('\n')[1]!;
    assert.equal((await page.content()).includes(body), false, 'the key is not in the page');
    assert.deepEqual(pageErrors, []);
  });
});
