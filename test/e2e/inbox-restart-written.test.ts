import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Browser, Page } from 'playwright-core';
import { startBrowserServer, type BrowserServer } from '../../app/browser/browser-server.js';
import { inboxHolds, peerServer, startHostWith, tempDir, type InMemoryHostFixture } from '../support/host-fixture.js';
import { buildRenderer, openDesk } from './renderer-build.js';

const QUESTION = 'Which region should the quarterly report cover?';

/**
 * Browser mode stopped (as a SIGTERM stops it: its server first, then the host) and started again
 * on the same data directory, address and token, while a question without a task waited in the
 * Inbox with an answer typed into it. Taskdesk's close cancelled the question; the page, which
 * reconnects by itself, finds it gone and says why in one notice, in Taskdesk's words (as History
 * keeps them), keeping what was typed: not also that it went while the page was not connected.
 */
describe('a question being answered when Taskdesk restarted, in headless Chromium against the real core', () => {
  const temp = tempDir();
  const pageErrors: string[] = [];
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let first: InMemoryHostFixture | undefined;
  let second: InMemoryHostFixture | undefined;
  let server: BrowserServer | undefined;
  let again: BrowserServer | undefined;
  let browser: Browser | undefined;
  let page: Page;

  before(async () => {
    built = await buildRenderer();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await again?.close();
    await first?.stop();
    await second?.stop();
    temp.remove();
    built?.remove();
  });

  it('tells the question Taskdesk cancelled once, saying so, with what was typed', async () => {
    const peer = peerServer('desk-peer');
    first = await startHostWith({ desk: peer }, { dir: temp.dir });
    ({ server, browser, page } = await openDesk(first.host, built.dir, pageErrors, {
      viewport: { width: 800, height: 600 }
    }));
    const asked = peer.server
      .request(
        {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: QUESTION,
            requestedSchema: {
              type: 'object',
              properties: { region: { type: 'string', title: 'Region' } },
              required: ['region']
            }
          }
        },
        ElicitResultSchema
      )
      .then(
        () => 'answered',
        () => 'not answered'
      );
    await inboxHolds(first.host, 1);
    await page.locator('a[data-screen="inbox"]').click();
    const card = page.getByRole('article', { name: QUESTION });
    await card.getByLabel('Region').fill('North and the islands');

    // Stopped as a SIGTERM stops browser mode: its server first, then the host.
    const { port, token } = server;
    await server.close();
    server = undefined;
    await first.stop();
    first = undefined;
    assert.equal(await asked, 'not answered');
    await page.getByRole('alert').filter({ hasText: 'Lost contact with Taskdesk.' }).waitFor();

    // Started again on the same directory, address and token: the page reconnects by itself.
    second = await startHostWith({ desk: peerServer('desk-peer') }, { dir: temp.dir });
    again = await startBrowserServer({ host: second.host, rendererDir: built.dir, port, token });

    const notices = page.locator('.notice-withdrawn');
    await notices.first().waitFor();
    await card.waitFor({ state: 'detached' });
    assert.deepEqual(await notices.locator('p').allTextContents(), [
      `Taskdesk withdrew Server desk’s question “${QUESTION}”: Taskdesk stopped before it was answered; the server was not answered`
    ]);
    // What was typed is kept in it, to copy.
    assert.equal(await notices.locator('.withdrawn-draft pre').textContent(), 'Region: North and the islands');
    // Not also said to have gone while the page was not connected: nowhere on any screen.
    for (const screen of ['inbox', 'tasks', 'history']) {
      await page.locator(`a[data-screen="${screen}"]`).click();
      await page.locator(`#heading-${screen}`).waitFor();
      assert.equal(await page.getByText('while this page was not connected').count(), 0, `on ${screen}`);
      assert.equal(await page.locator('.notice-withdrawn').count(), 1, `one notice of it on ${screen}`);
    }
    // The browser logs the refused connections itself; nothing else went wrong on the page.
    assert.deepEqual(
      pageErrors.filter(
        (error) => !/net::ERR_(CONNECTION_REFUSED|SOCKET_NOT_CONNECTED|CONNECTION_RESET)\b/.test(error)
      ),
      []
    );
  });
});
