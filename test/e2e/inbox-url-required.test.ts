import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { createHost, type Host } from '../../app/host/host.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { buildRenderer, closeOpenedPages, openDesk, openToolForm } from './renderer-build.js';
import { passUndoWindow } from './undo-window.js';
import { urlRequiredServerConfig } from '../support/url-required-config.js';

/**
 * The Desk with a 2025-11-25 server that needs a link opened first (URL elicitation required,
 * −32042; test/support/url-required-server.ts): the call made on the Tools screen asks the link in
 * the Inbox; once the person agreed to open it the Inbox shows the call waiting for them, and when
 * the server says the sign-in is done (`notifications/elicitation/complete`) the wait goes by
 * itself and the call's result shows under the form it was made from. A declined link ends the
 * call, and the form says why in the server's words.
 */

const serverConfig = urlRequiredServerConfig;

describe('the Desk with a 2025-11-25 server that needs a link opened first', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  const data = tempDir();
  // Outside the data directory: the third party's sign-in is none of Taskdesk's.
  const signIns = tempDir('taskdesk-sign-ins-');
  const stateFile = `${signIns.dir}/signed-in.json`;
  let host: Host;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  let tools: Locator;
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
    host = createHost({ dataDir: data.dir, autoConnect: false });
    await host.call('servers.add', serverConfig(stateFile));
    const view = await host.connect('files');
    assert.equal(view.state.status, 'ready', view.state.reason);
    assert.equal(view.state.era, 'legacy');
    ({ server, browser, page } = await openDesk(host, built.dir, pageErrors, {
      viewport: { width: 1100, height: 1400 },
      // The page's clock installed: a Decline is sent when the test ends its undo window.
      beforeLoad: (opened) => opened.clock.install()
    }));
    tools = page.getByRole('region', { name: 'Tools' });
  });

  // Nobody is signed in at the third party when a test starts.
  beforeEach(() => fs.writeFileSync(stateFile, '[]'));

  after(async () => {
    await browser?.close();
    await server?.close();
    await host?.close();
    data.remove();
    signIns.remove();
    built?.remove();
  });

  const nav = (name: string) => page.locator('nav').getByRole('link', { name, exact: true });

  /** The call form of `list-files` on the Tools screen, opened if it is not open yet. */
  const listFilesForm = async (): Promise<Locator> => {
    await nav('Servers').click();
    await page.getByRole('button', { name: 'Tools of Files server' }).click();
    const item = tools.locator('li[data-tool="list-files"]');
    await item.waitFor();
    const form = item.getByRole('form', { name: 'Call list-files' });
    return (await form.isVisible()) ? form : await openToolForm(tools, 'list-files');
  };

  /** Calls `list-files` from its form, then goes to the Inbox and returns the link's card there. */
  const callAndOpenInbox = async (): Promise<{ form: Locator; card: Locator }> => {
    const form = await listFilesForm();
    const asked = nextEvent(host, 'inbox.added', ({ item }) => item.serverId === 'files');
    await form.getByRole('button', { name: 'Call tool' }).click();
    await asked;
    await nav('Inbox 1 waiting').click();
    const card = page.getByRole('article', { name: 'Sign in to Example files so that this server can read it.' });
    await card.waitFor();
    await card.getByText('files.example.com/connect?elicitation=files-link').waitFor();
    return { form, card };
  };

  /** The call of `list-files`'s end, as the host tells it. */
  const listFilesEnds = () =>
    nextEvent(host, 'call.changed', ({ call }) => call.toolName === 'list-files' && call.state !== 'running').then(
      ({ call }) => call.state
    );

  it('waits in the Inbox once the person opened the link, goes on by itself when the server says the sign-in is done, and shows the result under the form', async () => {
    // The third party's page is served by the test: the page opened proves the link was followed,
    // and nothing leaves the machine.
    const opened = new Promise<string>((resolve) => {
      void page.context().route('https://files.example.com/**', (route) => {
        resolve(route.request().url());
        void route.fulfill({ status: 200, contentType: 'text/plain', body: 'sign in here' });
      });
    });
    const { form, card } = await callAndOpenInbox();
    const waitingForYou = nextEvent(host, 'exchange.changed', ({ exchange }) => exchange?.state === 'waiting-for-you');
    await card.getByRole('button', { name: 'Open link…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Open this link?' });
    await dialog.getByText('Files server wants you to open a page on files.example.com.').waitFor();
    await dialog.getByRole('button', { name: 'Open link' }).click();
    assert.equal(await opened, 'https://files.example.com/connect?elicitation=files-link');
    await closeOpenedPages(page);
    await card.waitFor({ state: 'detached' });
    const { exchange } = await waitingForYou;
    assert.equal(exchange?.protocol, '2025-11-25');

    // Consent is not the sign-in: the call waits for the person, or for the server's word.
    const waiting = page.getByRole('article', { name: 'Finish in your browser, then continue' });
    await waiting.waitFor();
    assert.match(
      (await waiting.locator('.meta').textContent()) ?? '',
      /^From Files server · for tool list-files · since /
    );
    assert.equal(
      await waiting.locator('p:not(.meta)').first().textContent(),
      'You agreed to open a page on files.example.com. When you have finished there, continue: Taskdesk then ' +
        'asks Files server to run list-files again. If Files server tells Taskdesk you are done, it ' +
        'continues by itself.'
    );
    const continueButton = waiting.getByRole('button', { name: 'I’ve finished in the browser — continue' });
    await continueButton.waitFor();
    await waiting.getByRole('button', { name: 'Cancel the call' }).waitFor();
    // A page closed too soon opens again, after the same question, showing the whole link.
    await waiting.getByRole('link', { name: 'Open it again' }).click();
    const again = page.getByRole('dialog', { name: 'Open this link?' });
    assert.equal(
      await again.locator('code.url').textContent(),
      'https://files.example.com/connect?elicitation=files-link'
    );
    await again.getByRole('button', { name: 'Cancel' }).click();
    await again.waitFor({ state: 'hidden' });
    // The person is on the card when the server's word comes: their place is not lost with it.
    await continueButton.focus();
    assert.equal(await page.getByText('Nothing is waiting for you.').isVisible(), false);

    // What the third party's page does once the person signed in: the server tells Taskdesk.
    const ended = listFilesEnds();
    const signedIn = await host.call('tools.call', {
      serverId: 'files',
      name: 'finish-sign-in',
      arguments: { account: 'files', notify: true }
    });
    assert.equal(signedIn.type, 'result');
    await waiting.waitFor({ state: 'detached' });
    await page.getByText('Nothing is waiting for you.').waitFor();
    // The card went by itself: the Inbox says why, where it was.
    await page
      .locator('.inbox-answered')
      .getByText(
        'Files server says you have finished in the browser: Taskdesk asked Files server to run list-files again.'
      )
      .waitFor();
    assert.equal(
      await page.evaluate(() => document.activeElement?.id),
      'heading-inbox',
      'the focus goes to the heading'
    );
    assert.equal(await ended, 'completed');
    assert.deepEqual(await host.call('exchanges.list', {}), []);

    // The result shows where the call was made.
    await nav('Tools').click();
    await form.locator('.call-result .tool-result', { hasText: 'files: a.txt, b.txt' }).waitFor();
    assert.equal(await form.locator('.action-error').isVisible(), false);

    // History names the link by the call it was asked for.
    await nav('History').click();
    const row = page
      .getByRole('region', { name: 'History' })
      .locator('.history-list li')
      .filter({ hasText: 'Sign in to Example files' })
      .first();
    assert.match(
      (await row.locator('.meta').textContent()) ?? '',
      /^Question for tool list-files · from Files server · /
    );
  });

  it('ends the call when the person declines the link, and the form says why', async () => {
    const { form, card } = await callAndOpenInbox();
    const ended = listFilesEnds();
    await card.getByRole('button', { name: 'Decline' }).click();
    await passUndoWindow(page);
    await card.waitFor({ state: 'detached' });
    assert.equal(await ended, 'failed');
    // Nothing waits: a declined link is not waited on, and is not asked again.
    await page.getByText('Nothing is waiting for you.').waitFor();
    assert.equal(await page.getByRole('article', { name: 'Finish in your browser, then continue' }).count(), 0);
    assert.deepEqual(await host.call('exchanges.list', {}), []);

    await nav('Tools').click();
    const failure = form.getByRole('alert');
    // Turned down, the call never ran: not "failed", and what to do is to call it again, not to retry blindly.
    await failure.getByText('The call of list-files did not go on.').waitFor();
    assert.equal(
      await failure.locator('.action-error-next').textContent(),
      'Call it again when you are ready to open its link.'
    );
    const why = (await failure.textContent()) ?? '';
    assert.match(why, /its link \("Sign in to Example files so that this server can read it\."\); you declined it/);
    assert.match(why, /Tool "list-files" on "Files server" can go on only once you have opened its link/);
    assert.match(why, /Sign in to Example files/);
    assert.match(why, /you declined it/);
    assert.equal(await form.locator('.call-result .tool-result').count(), 0);
    assert.deepEqual(pageErrors, []);
  });

  it('continued before the sign-in (from the keys), the link asked again says so and takes the focus the waiting card held', async () => {
    await page
      .context()
      .route('https://files.example.com/**', (route) =>
        route.fulfill({ status: 200, contentType: 'text/plain', body: 'sign in here' })
      );
    const { card } = await callAndOpenInbox();
    await card.getByRole('button', { name: 'Open link…' }).click();
    await page.getByRole('dialog', { name: 'Open this link?' }).getByRole('button', { name: 'Open link' }).click();
    await card.waitFor({ state: 'detached' });
    await closeOpenedPages(page);
    const waiting = page.getByRole('article', { name: 'Finish in your browser, then continue' });
    await page
      .locator('.inbox-answered')
      .getByText('Opened the page on files.example.com. When you have finished there, continue here.')
      .waitFor();
    // The Inbox's keys reach the waiting card as any other: j from the heading, then a continues.
    await page.locator('#heading-inbox').focus();
    await page.keyboard.press('j');
    assert.equal(
      await page.evaluate(
        () =>
          document.activeElement?.getAttribute('aria-labelledby') !== null &&
          document.activeElement?.matches('[data-exchange-id]')
      ),
      true,
      'j goes to the waiting card'
    );
    // Not signed in: the server lists the link again, as a new question.
    const askedAgain = nextEvent(host, 'inbox.added', ({ item }) => item.serverId === 'files');
    await page.keyboard.press('a');
    const { item } = await askedAgain;
    assert.equal(item.askedAgain, true);
    await waiting.waitFor({ state: 'detached' });
    await page.locator('.inbox-answered').getByText('Taskdesk asked Files server to run list-files again.').waitFor();
    await page.waitForFunction(
      (id) => document.activeElement?.closest<HTMLElement>('[data-inbox-id]')?.dataset.inboxId === id,
      item.id
    );
    // The card says why the same link is back.
    await page
      .locator(`[data-inbox-id="${item.id}"]`)
      .getByText(
        'Asked again: Files server still needs this page, so the work there is not done yet. Open it, finish there, then continue.'
      )
      .waitFor();

    const ended = listFilesEnds();
    await page.keyboard.press('d');
    await passUndoWindow(page);
    assert.equal(await ended, 'failed');
  });
});
