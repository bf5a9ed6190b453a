import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { createHost, type Host } from '../../app/host/host.js';
import { tempDir } from '../support/host-fixture.js';
import { startOAuthTestServers, type OAuthTestServers } from '../support/oauth-test-servers.js';
import { buildRenderer, openDesk, openToolForm } from './renderer-build.js';

/**
 * Signing in from the Desk in headless Chromium: a local OAuth authorization server (the SDK's
 * auth router, with a consent page) and a Streamable HTTP MCP server it protects, both on
 * 127.0.0.1. The sign-in page opens in a new tab only after Sign in is pressed; the person
 * allows it there, and the redirect comes back to Taskdesk's loopback listener.
 */
describe('signing in to an OAuth-protected server from the Desk', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let servers: OAuthTestServers;
  let data: ReturnType<typeof tempDir>;
  let host: Host;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  let card: Locator;
  let taskId: string;
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
    servers = await startOAuthTestServers({ consent: 'page' });
    data = tempDir('taskdesk-oauth-e2e-');
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [{ id: 'protected', name: 'Protected', transport: { type: 'http', url: servers.mcpUrl } }]
    });
    ({ server, browser, page } = await openDesk(host, built.dir, pageErrors, {
      viewport: { width: 1100, height: 1400 }
    }));
    await page.getByRole('link', { name: 'Servers' }).click();
    card = page.locator('li[data-server-id="protected"]');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await host?.close();
    await servers?.close();
    data?.remove();
    built?.remove();
  });

  it('asks before opening the sign-in page, and signs in after consent', async () => {
    await card.getByRole('button', { name: 'Connect Protected' }).click();
    await card.getByText(`Sign in to Protected at ${servers.issuer}?`).waitFor();
    assert.equal(page.context().pages().length, 1, 'nothing opened before the person agreed');

    const opened = page.context().waitForEvent('page');
    await card.getByRole('button', { name: 'Sign in to Protected' }).click();
    const signInPage = await opened;
    await signInPage.getByRole('heading', { name: /Allow Taskdesk to use the test MCP server as alice\?/ }).waitFor();
    assert.equal(servers.signIns, 0, 'no code before consent');
    await signInPage.getByRole('link', { name: 'Allow' }).click();
    await signInPage.getByText('Signed in to Protected. You can close this tab.').waitFor();
    assert.match(signInPage.url(), /^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
    await signInPage.close();

    await card.getByText(`Signed in as alice at ${servers.issuer}`).waitFor();
    await card.locator('[data-status="ready"]').waitFor();
  });

  it('calls a tool with the token', async () => {
    await card.getByRole('button', { name: 'Tools of Protected' }).click();
    const tools = page.getByRole('region', { name: 'Tools' });
    const form = await openToolForm(tools, 'whoami');
    await form.getByRole('button', { name: 'Call tool' }).click();
    await form.locator('.call-result').getByText('{"subject":"alice"}').waitFor();
  });

  it('keeps a task of the server across a token refresh', async () => {
    const outcome = await host.call('tools.call', { serverId: 'protected', name: 'elicit-as-task', arguments: {} });
    assert.equal(outcome.type, 'result');
    const [block] = (outcome.type === 'result' ? outcome.result.content : []) as Array<{ text: string }>;
    ({ taskId } = JSON.parse(block!.text) as { taskId: string });
    await page.getByRole('link', { name: /Inbox/ }).click();
    const question = page.getByRole('article').filter({ hasText: 'Which colour?' });
    await question.waitFor();

    servers.expireAccessTokens();
    const refreshes = servers.refreshes;
    // Announced once the completion is on disk, which is when tasks/get reads it.
    const completed = servers.taskStatus(taskId, 'completed');
    await question.getByLabel('colour').fill('teal');
    await question.getByRole('button', { name: 'Submit' }).click();
    await question.waitFor({ state: 'detached' });
    await completed;
    const checked = await host.call('tools.call', {
      serverId: 'protected',
      name: 'check-task',
      arguments: { taskId }
    });
    assert.equal(servers.refreshes, refreshes + 1, 'the expired token was refreshed');
    assert.deepEqual(
      JSON.parse(((checked.type === 'result' ? checked.result.content : []) as Array<{ text: string }>)[0]!.text),
      { status: 'completed' }
    );
  });

  it('signs out', async () => {
    await page.getByRole('link', { name: 'Servers' }).click();
    await card.getByRole('button', { name: 'Sign out of Protected' }).click();
    await card.getByText('Sign in to Protected?').waitFor();
    await card.getByRole('button', { name: 'Connect Protected' }).waitFor();
    assert.deepEqual(pageErrors, []);
  });

  it('signs in with a client the person registered by hand', async () => {
    await card.getByText('Use a client you registered').click();
    await card.getByLabel('Client ID').fill('by-hand');
    await card.getByLabel('Client secret (if it has one)').fill('hand-secret');
    await card.getByRole('button', { name: 'Save client' }).click();
    await card.getByText('Saved: the next sign-in uses this client.').waitFor();
    assert.equal(await card.getByLabel('Client secret (if it has one)').inputValue(), '', 'the secret is not kept');

    const opened = page.context().waitForEvent('page');
    await card.getByRole('button', { name: 'Sign in to Protected' }).click();
    const signInPage = await opened;
    await signInPage.waitForURL(/client_id=/);
    const asked = new URL(signInPage.url());
    assert.equal(asked.searchParams.get('client_id'), 'by-hand');
    await signInPage.close();
    assert.equal((await page.content()).includes('hand-secret'), false, 'the secret is not on the page');
  });
});
