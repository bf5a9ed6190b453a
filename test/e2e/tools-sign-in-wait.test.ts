import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { createHost, type Host } from '../../app/host/host.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { saveFakeProvider } from '../support/assistant-fixture.js';
import { headlessBrowser } from '../support/conformance-auth.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { startOAuthTestServers, type OAuthTestServers } from '../support/oauth-test-servers.js';
import { buildRenderer, openDesk, openToolForm } from './renderer-build.js';

const WAITS = 'Waiting for you to sign in to Protected: the call is sent again once you have.';
const IN_BROWSER =
  'Waiting for you to finish the sign-in to Protected in the browser tab that opened: the call is sent again once you have.';

/**
 * A tool call an OAuth-protected server refused for want of a sign-in (its grant was revoked), in
 * headless Chromium against the real core: the call's row (on the Tools screen, and its card in a
 * conversation) says it waits for the sign-in of the server, with a Sign in that opens the sign-in
 * page; once the person allowed it there, the call is sent again and its result shows as any.
 */
describe('a tool call waiting for the sign-in its server asked for', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let servers: OAuthTestServers;
  let data: ReturnType<typeof tempDir>;
  let host: Host;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  let llm: FakeOpenAIServer;
  const pageErrors: string[] = [];

  /** Signs in from Node, as a person who allows it on the consent page; resolves once connected again. */
  async function signInFromNode(): Promise<void> {
    const ready = nextEvent(
      host,
      'server.state',
      ({ state }) => state.status === 'ready' && state.auth?.status === 'signed-in'
    );
    const start = await host.call('auth.signIn', { serverId: 'protected' });
    assert.equal(start.type, 'open');
    if (start.type !== 'open') return;
    const consent = await headlessBrowser(start.authorizationUrl);
    const allow = /href="(\/consent\?id=[^"]+)"/.exec(consent.text)?.[1];
    assert.ok(allow, consent.text);
    await headlessBrowser(new URL(allow, servers.issuer).href);
    await ready;
  }

  before(async () => {
    built = await buildRenderer();
    servers = await startOAuthTestServers({ consent: 'page' });
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    data = tempDir('taskdesk-sign-in-wait-e2e-');
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      keyStore: new InMemoryKeyStore(),
      servers: [{ id: 'protected', name: 'Protected', transport: { type: 'http', url: servers.mcpUrl } }]
    });
    await host.call('servers.connect', { serverId: 'protected' });
    await signInFromNode();
    ({ server, browser, page } = await openDesk(host, built.dir, pageErrors, {
      viewport: { width: 1280, height: 1200 }
    }));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await host?.close();
    await servers?.close();
    await llm?.close();
    data?.remove();
    built?.remove();
  });

  /** Allows the sign-in on the page Sign in opened, and closes it. */
  async function allowOn(opened: Page): Promise<void> {
    await opened.getByRole('link', { name: 'Allow' }).click();
    await opened.getByText('Signed in to Protected. You can close this tab.').waitFor();
    await opened.close();
  }

  it('says on the call’s rows that it waits for the sign-in, signs in from there, then shows its result', async () => {
    await page.getByRole('link', { name: 'Servers' }).click();
    await page.locator('li[data-server-id="protected"]').getByRole('button', { name: 'Tools of Protected' }).click();
    const tools = page.getByRole('region', { name: 'Tools' });
    const form = await openToolForm(tools, 'whoami');
    servers.revokeOnToolCalls(1);
    await form.getByRole('button', { name: 'Call tool' }).click();

    // Under its tool, and in Running calls: the same words, each with its Sign in.
    const row = tools.locator('.tool-running li.running-call');
    const listed = page.locator('section.running-calls li.running-call');
    await row.getByText(WAITS, { exact: true }).waitFor();
    await listed.getByText(WAITS, { exact: true }).waitFor();
    await row.screenshot({ path: path.join(process.env.E2E_SHOTS ?? os.tmpdir(), 'tools-sign-in-wait.png') });
    assert.equal(await row.getByRole('button', { name: 'Cancel whoami, started', exact: false }).count(), 1);

    // Pressed from the keyboard: the button goes with the step, and the focus goes on to the line
    // that says to finish in the browser (not to the page's body), in that row only.
    const opened = page.context().waitForEvent('page');
    await row.getByRole('button', { name: 'Sign in to Protected' }).focus();
    await page.keyboard.press('Enter');
    const signInPage = await opened;
    await row.getByText(IN_BROWSER, { exact: true }).waitFor();
    assert.equal(await row.getByRole('button', { name: 'Sign in to Protected' }).count(), 0);
    assert.equal(
      await page.evaluate(() => {
        const at = document.activeElement;
        return at === document.body ? 'body' : `${at?.tagName} ${at?.closest('.tool-running') ? 'under its tool' : ''}`;
      }),
      'P under its tool'
    );
    assert.equal(
      await row.getByText(IN_BROWSER, { exact: true }).evaluate((line) => line === document.activeElement),
      true
    );
    await allowOn(signInPage);

    await form.locator('.call-result').getByText('{"subject":"alice"}').waitFor();
    await row.waitFor({ state: 'detached' });
    assert.equal(await page.locator('section.running-calls').count(), 0, 'no call runs any more');
    assert.deepEqual(pageErrors, []);
  });

  it('says so on the call’s card in a conversation too, and the model reads its result', async () => {
    await saveFakeProvider(host, llm.baseURL);
    await host.call('assistant.setPolicy', { serverId: 'protected', policy: { mode: 'auto', alwaysAllow: [] } });
    const c = await host.call('assistant.create', {
      title: 'Who am I',
      providerId: 'fake',
      model: 'fake-small',
      serverIds: ['protected']
    });
    await page.evaluate((hash) => (location.hash = hash), `#assistant/${c.id}`);
    const pane: Locator = page.locator(`section.chat-pane[data-conversation-id="${c.id}"]`);
    await pane.waitFor();
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'w1', name: 'protected__whoami', arguments: '{}' }] },
      { kind: 'text', tokens: ['You are alice.'] }
    );
    servers.revokeOnToolCalls(1);
    await pane.getByLabel('Your message').fill('Who am I?');
    await pane.getByLabel('Your message').press('Enter');
    const card = pane.locator('.chat-tool');
    await card.getByText(WAITS, { exact: true }).waitFor();

    const opened = page.context().waitForEvent('page');
    await card.getByRole('button', { name: 'Sign in to Protected' }).click();
    await allowOn(await opened);
    await pane.locator('[data-role="assistant"]').getByText('You are alice.').waitFor();
    assert.equal(await card.getAttribute('data-state'), 'completed');
    await card.getByText('{"subject":"alice"}').waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
