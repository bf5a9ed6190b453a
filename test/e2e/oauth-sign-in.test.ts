import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { createHost, type Host } from '../../app/host/host.js';
import { tempDir, nextEvent } from '../support/host-fixture.js';
import { startOAuthTestServers, type OAuthTestServers } from '../support/oauth-test-servers.js';
import { buildRenderer, openDesk, openToolForm } from './renderer-build.js';
import os from 'node:os';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { saveFakeProvider } from '../support/assistant-fixture.js';
import { headlessBrowser } from '../support/conformance-auth.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';

/** What the card says while the sign-in page is out in the browser. */
const WAITING = 'Finish the sign-in in the browser tab that opened (waiting…)';

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
      // The width the registered-client form was found broken at.
      viewport: { width: 1280, height: 1400 }
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

  /** What has the focus on the Desk: a button's label, or an element's text; "the page" when none does. */
  const focused = () =>
    page.evaluate(() => {
      const at = document.activeElement;
      if (!(at instanceof HTMLElement) || at === document.body) return 'the page';
      return at.getAttribute('aria-label') ?? at.innerText;
    });

  /** Presses Sign in: the sign-in page it opens in a new tab. */
  async function pressSignIn(): Promise<Page> {
    const opened = page.context().waitForEvent('page');
    await card.getByRole('button', { name: 'Sign in to Protected' }).click();
    return opened;
  }

  it('asks before opening the sign-in page: a neutral "Sign-in needed", not a failure', async () => {
    await card.getByRole('button', { name: 'Connect Protected' }).click();
    await card.getByText(`Protected asks you to sign in at ${servers.issuer} before you use it.`).waitFor();
    assert.equal(page.context().pages().length, 1, 'nothing opened before the person agreed');
    assert.equal(await card.locator('.card-header .status').innerText(), 'Sign-in needed');
    assert.equal(await card.locator('.status-failed').count(), 0, 'no red Failed badge');
    assert.equal(await card.getByText(/Could not connect|waiting for you to agree/).count(), 0, 'no error text');

    // The Inbox, with this server alone, names the step too: not "not connected: check its connection".
    await page
      .locator('nav')
      .getByRole('link', { name: /^Inbox/ })
      .click();
    const guide = page.getByRole('region', { name: 'Inbox' }).locator('.inbox-guide li').first();
    await guide.getByText('Protected needs you to sign in:', { exact: false }).waitFor();
    assert.equal(await guide.textContent(), 'Protected needs you to sign in: sign in on its card.');
    await guide.getByRole('link', { name: 'sign in on its card', exact: true }).click();
    await card.getByRole('button', { name: 'Sign in to Protected' }).waitFor();
    assert.match(page.url(), /#servers$/);
  });

  it('lays the registered-client form out as the other forms, and names the redirect URI to register', async () => {
    await card.getByText('Use a client you registered').click();
    await card.getByLabel('Client ID').waitFor();
    const form = card.locator('.registered-client form');
    await form.screenshot({ path: path.join(process.env.E2E_SHOTS ?? '/tmp', 'registered-client-form.png') });
    await form.getByText('http://127.0.0.1/callback').waitFor();
    // Its text as far under its heading as the card's Settings are under theirs: clear of the
    // heading's focus ring (3px, 2px off), which it touched.
    const gapUnder = (summary: Locator) =>
      summary.evaluate(
        (element) => element.nextElementSibling!.getBoundingClientRect().top - element.getBoundingClientRect().bottom
      );
    const settings = card.locator('details.server-settings');
    const wasOpen = await settings.evaluate((element) => (element as HTMLDetailsElement).open);
    if (!wasOpen) await settings.locator(':scope > summary').click();
    const settingsGap = await gapUnder(settings.locator(':scope > summary'));
    if (!wasOpen) await settings.locator(':scope > summary').click();
    const clientGap = await gapUnder(card.locator('details.registered-client > summary'));
    assert.ok(clientGap >= 8, `the text is ${clientGap}px under its heading`);
    assert.ok(
      Math.abs(clientGap - settingsGap) <= 1,
      `${clientGap}px under its heading, the Settings' ${settingsGap}px`
    );
    for (const name of ['Client ID', 'Client secret (if it has one)', 'Scope (if the server names none)']) {
      const input = card.getByLabel(name);
      const label = form.locator('label', { hasText: name });
      const [inputBox, labelBox] = [await input.boundingBox(), await label.boundingBox()];
      assert.ok(inputBox && labelBox);
      assert.ok(labelBox.y + labelBox.height <= inputBox.y + 1, `${name}: the label is above its field`);
      assert.ok(inputBox.width >= 250, `${name}: the field is ${inputBox.width}px wide`);
    }
    await card.getByText('Use a client you registered').click();
  });

  it('says to finish in the browser tab once Sign in is pressed, and signs in after consent', async () => {
    // Pressed with Enter twice, a common double press: the second press must not cancel the sign-in.
    const opened = page.context().waitForEvent('page');
    await card.getByRole('button', { name: 'Sign in to Protected' }).focus();
    await page.keyboard.press('Enter');
    const signInPage = await opened;
    await card.getByText(WAITING, { exact: true }).waitFor();
    assert.equal(await focused(), WAITING, 'the focus is on what to do next, not on Cancel');
    await page.keyboard.press('Enter');
    await card.getByRole('button', { name: 'Cancel the sign-in to Protected' }).waitFor();
    assert.equal(await card.getByText('asks you to sign in').count(), 0, 'no longer asks');
    await signInPage.getByRole('heading', { name: /Allow Taskdesk to use the test MCP server as alice\?/ }).waitFor();
    assert.equal(servers.signIns, 0, 'no code before consent');
    await signInPage.getByRole('link', { name: 'Allow' }).click();
    await signInPage.getByText('Signed in to Protected. You can close this tab.').waitFor();
    assert.match(signInPage.url(), /^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
    await signInPage.close();

    await card.getByText(`Signed in as alice at ${servers.issuer}`).waitFor();
    // The line the focus was on went with the waiting: the focus is on who is signed in, not on the page.
    assert.equal(await focused(), `Signed in as alice at ${servers.issuer}`);
    await card.locator('[data-status="ready"]').waitFor();
    assert.equal(await card.getByText('Finish the sign-in').count(), 0);
  });

  it('calls a tool with the token', async () => {
    await card.getByRole('button', { name: 'Tools of Protected' }).click();
    const tools = page.getByRole('region', { name: 'Tools' });
    const form = await openToolForm(tools, 'whoami');
    await form.getByRole('button', { name: 'Call tool' }).click();
    await form.locator('.call-result').getByText('{"subject":"alice"}').waitFor();
  });

  it('adds a server that asks for a sign-in as a step, not a failure, and the Inbox says it needs one', async () => {
    await page.getByRole('link', { name: 'Servers' }).click();
    const form = page.getByRole('form', { name: 'Add a server' });
    await form.getByLabel('Id').fill('second');
    await form.getByLabel('Name').fill('Second');
    await form.getByLabel('Streamable HTTP').check();
    await form.getByLabel('URL').fill(servers.mcpUrl);
    await form.getByRole('button', { name: 'Add server' }).click();
    const second = page.locator('li[data-server-id="second"]');
    await second.getByRole('button', { name: 'Sign in to Second' }).waitFor();
    const added = 'Added Second. It asks you to sign in: press Sign in on its card.';
    await page.locator('.sr-only[aria-live="polite"]').getByText(added, { exact: true }).waitFor();
    await form.locator('.form-status').getByText(added, { exact: true }).waitFor();
    // The next step, not a failure: the line's usual colours, not a warning's.
    const colours = await form.locator('.form-status').evaluate((element) => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--ok)';
      probe.style.backgroundColor = 'var(--ok-bg)';
      document.body.append(probe);
      const expected = getComputedStyle(probe);
      const seen = getComputedStyle(element);
      const result = {
        edge: [seen.borderLeftColor, expected.color],
        background: [seen.backgroundColor, expected.backgroundColor]
      };
      probe.remove();
      return result;
    });
    assert.equal(colours.edge[0], colours.edge[1], 'the edge is the usual colour');
    assert.equal(colours.background[0], colours.background[1], 'the background is the usual colour');

    await page
      .locator('nav')
      .getByRole('link', { name: /^Inbox/ })
      .click();
    const notConnected = page.getByRole('region', { name: 'Inbox' }).locator('.inbox-guide-not-connected');
    await notConnected.waitFor();
    assert.equal(
      await notConnected.textContent(),
      'Not connected: Second (needs you to sign in); it cannot ask you anything until it is: sign in on its card.'
    );
    await host.call('servers.remove', { serverId: 'second' });
    await notConnected.waitFor({ state: 'detached' });
  });

  it('keeps a task of the server across a token refresh', async () => {
    const outcome = await host.call('tools.call', { serverId: 'protected', name: 'elicit-as-task', arguments: {} });
    assert.equal(outcome.type, 'result');
    const [block] = (outcome.type === 'result' ? outcome.result.content : []) as Array<{ text: string }>;
    ({ taskId } = JSON.parse(block!.text) as { taskId: string });
    // The section's link: the Tools screen may show "in the Inbox" links too, to a question it waits on.
    await page
      .locator('nav')
      .getByRole('link', { name: /^Inbox/ })
      .click();
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

  it('signs out: "Signed out", with Sign in, not a red "Disconnected"', async () => {
    await page.getByRole('link', { name: 'Servers' }).click();
    await card.getByRole('button', { name: 'Sign out of Protected' }).click();
    await card.getByRole('button', { name: 'Sign in to Protected' }).waitFor();
    assert.equal(await card.locator('.card-header .status').innerText(), 'Signed out');
    await card.getByText('Signed out of Protected.').waitFor();
    assert.equal(await focused(), 'Signed out of Protected.', 'the focus went from Sign out to what it did');
    // The authorization server was asked to end the sign-in too, and did (RFC 7009).
    await card.getByText(`The sign-in was revoked at ${servers.issuer} too.`).waitFor();
    await card
      .locator('.sign-in')
      .screenshot({ path: path.join(process.env.E2E_SHOTS ?? '/tmp', 'signed-out-revoked.png') });
    assert.equal(await card.getByText(/^Disconnected by/).count(), 0);
    assert.equal(await card.locator('.reason').count(), 0, 'nothing in red');
    await card.getByRole('button', { name: 'Connect Protected' }).waitFor();
    assert.deepEqual(pageErrors, []);
  });

  it('ends a sign-in denied in the browser at once, and says so on the card; Cancel stops waiting', async () => {
    let signInPage = await pressSignIn();
    await card.getByText(WAITING, { exact: true }).waitFor();
    assert.equal(await focused(), WAITING);
    await signInPage.getByRole('link', { name: 'Deny' }).click();
    await card
      .getByText(
        'Access was not granted: the sign-in was declined on the sign-in page (access_denied: The user denied the request). Sign in again to allow it.'
      )
      .waitFor({ timeout: 5000 });
    assert.equal(await card.getByText(/refused/).count(), 0, 'the person declined; the server refused nothing');
    assert.equal(await card.getByText('Finish the sign-in').count(), 0, 'no longer waiting');
    assert.equal(await focused(), 'Sign in to Protected', 'the focus went with the waiting line to Sign in again');
    await signInPage.close();

    signInPage = await pressSignIn();
    await card.getByRole('button', { name: 'Cancel the sign-in to Protected' }).click();
    await card.getByRole('button', { name: 'Sign in to Protected' }).waitFor();
    assert.equal(await focused(), 'Sign in to Protected', 'the focus went from Cancel to Sign in');
    assert.equal(await card.getByText('Finish the sign-in').count(), 0);
    // Allowed after all: the listener is closed, nothing comes back to Taskdesk.
    await signInPage.getByRole('link', { name: 'Allow' }).click();
    await signInPage.waitForLoadState().catch(() => undefined);
    await signInPage.close();
    assert.equal(await card.getByText(/Signed in as/).count(), 0);

    // Typing in the client form while a sign-in waits: its end elsewhere leaves the focus there.
    signInPage = await pressSignIn();
    await card.getByText(WAITING, { exact: true }).waitFor();
    await card.getByText('Use a client you registered').click();
    const clientId = card.getByLabel('Client ID');
    await clientId.fill('abc');
    await clientId.focus();
    await host.call('auth.cancelSignIn', { serverId: 'protected' });
    await card.getByText(WAITING, { exact: true }).waitFor({ state: 'detached' });
    await page.keyboard.type('def');
    assert.equal(await clientId.inputValue(), 'abcdef', 'the keys went on into the field');
    await clientId.fill('');
    await card.getByText('Use a client you registered').click();
    await signInPage.close();
  });

  it('signs in with a client the person registered by hand; a wrong one ends the sign-in at once', async () => {
    servers.registerClient({ clientId: 'by-hand', clientSecret: 'hand-secret' });
    await card.getByText('Use a client you registered').click();
    await card.getByLabel('Client ID').fill('by-hand');
    await card.getByLabel('Client secret (if it has one)').fill('wrong-secret');
    await card.getByRole('button', { name: 'Save client' }).click();
    await card.getByText('Signs in with the client you registered: by-hand').waitFor();
    assert.equal(await card.getByLabel('Client secret (if it has one)').inputValue(), '', 'the secret is not kept');

    // The authorization server takes the client id; its token endpoint refuses the secret.
    let signInPage = await pressSignIn();
    await signInPage.waitForURL(/client_id=/);
    assert.equal(new URL(signInPage.url()).searchParams.get('client_id'), 'by-hand');
    await signInPage.getByRole('link', { name: 'Allow' }).click();
    await card.getByText(/did not accept the client by-hand \(invalid_client/).waitFor({ timeout: 5000 });
    assert.equal(await card.getByText('Finish the sign-in').count(), 0, 'no longer waiting');
    await signInPage.close();

    // An id the authorization server does not know: it shows its error and never comes back.
    await card.getByLabel('Client ID').fill('unknown-id');
    await card.getByRole('button', { name: 'Save client' }).click();
    await card.getByText('Signs in with the client you registered: unknown-id').waitFor();
    signInPage = await pressSignIn();
    await signInPage.getByText(/invalid_client/).waitFor();
    await card.getByText(/If that page shows an error such as invalid_client/).waitFor();
    await card.getByRole('button', { name: 'Cancel the sign-in to Protected' }).click();
    await signInPage.close();

    await card.getByLabel('Client ID').fill('by-hand');
    await card.getByLabel('Client secret (if it has one)').fill('hand-secret');
    await card.getByRole('button', { name: 'Save client' }).click();
    await card.getByText('Signs in with the client you registered: by-hand').waitFor();
    signInPage = await pressSignIn();
    await signInPage.getByRole('link', { name: 'Allow' }).click();
    await signInPage.getByText('Signed in to Protected. You can close this tab.').waitFor();
    await signInPage.close();
    await card.getByText(`Signed in as alice at ${servers.issuer}`).waitFor();
    assert.equal((await page.content()).includes('hand-secret'), false, 'the secret is not on the page');
    await card.getByRole('button', { name: 'Sign out of Protected' }).click();
  });

  it('goes back to automatic registration', async () => {
    await card.getByRole('button', { name: 'Use automatic registration for Protected' }).click();
    await card.getByRole('button', { name: 'Sign in to Protected' }).waitFor();
    // The line goes with the server's next state (its card may show the button a render before):
    // waited for, not read at once (failed once so under the full suite's load).
    await card.getByText('Signs in with the client you registered').waitFor({ state: 'detached' });
    const signInPage = await pressSignIn();
    await signInPage.waitForURL(/client_id=/);
    const clientId = new URL(signInPage.url()).searchParams.get('client_id');
    assert.ok(clientId && clientId !== 'by-hand', `a registered client (${clientId})`);
    await signInPage.getByRole('link', { name: 'Allow' }).click();
    await signInPage.close();
    await card.getByText(`Signed in as alice at ${servers.issuer}`).waitFor();
    assert.deepEqual(pageErrors, []);
  });
});

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
