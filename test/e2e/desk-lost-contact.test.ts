import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Locator, Page } from 'playwright-core';
import { startBrowserServer, type BrowserServer } from '../../app/browser/browser-server.js';
import { inboxHolds, peerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { buildRenderer } from './renderer-build.js';

const LOST =
  'Lost contact with Taskdesk. Reconnecting… If Taskdesk was started again, it may be at a new address: open the one it printed.';

/** Where an element lies in the window, and the window's height. */
function placeOf(locator: Locator): Promise<{ top: number; bottom: number; height: number }> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return { top: box.top, bottom: box.bottom, height: window.innerHeight };
  });
}

/** Scrolls the page to its foot and returns how far down it is. */
function scrollToFoot(page: Page): Promise<number> {
  return page.evaluate(() => {
    window.scrollTo(0, document.documentElement.scrollHeight);
    return window.scrollY;
  });
}

describe('lost contact with Taskdesk is told in sight, and the badges do not pass for current', () => {
  const desk = peerServer('lost-contact-peer');
  const asked = new AbortController();
  let d: DeskFixture;
  let page: Page;
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let again: BrowserServer | undefined;

  before(async () => {
    d = await startDesk({ desk }, { viewport: { width: 800, height: 600 } });
    page = d.page;
    built = await buildRenderer();
  });

  after(async () => {
    asked.abort('the test is over');
    await again?.close();
    await d?.close();
    built?.remove();
  });

  const ask = (message: string) =>
    desk.server
      .request(
        {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message,
            requestedSchema: { type: 'object', properties: { depot: { type: 'string', title: 'Depot' } } }
          }
        },
        ElicitResultSchema,
        { signal: asked.signal }
      )
      .catch(() => undefined);

  it('shows the notice under the bar on a page scrolled down, marks the badge stale, and brings both back on reconnect', async () => {
    const inboxLink = page.locator('nav').locator('a[data-screen="inbox"]');
    void ask('Which depot first?');
    await page.getByRole('link', { name: 'Inbox 1 waiting', exact: true }).waitFor();

    await page.locator('nav').getByRole('link', { name: 'Servers', exact: true }).click();
    await page.getByRole('heading', { name: 'Servers', level: 2 }).waitFor();
    assert.ok((await scrollToFoot(page)) > 200, 'the Servers screen is scrolled well down');

    // Browser mode stops: the page's event stream and calls find nobody.
    await d.server.close();
    const notice = page.getByRole('alert').filter({ hasText: LOST });
    await notice.waitFor();
    const place = await placeOf(notice);
    assert.ok(place.top >= 0 && place.bottom <= place.height, `the notice is out of sight: ${JSON.stringify(place)}`);
    // Said once: one alert with the words, and not inside another live region that would say it again.
    assert.equal(await page.getByText(LOST).count(), 1);
    assert.equal(
      await notice.evaluate((element) =>
        element.parentElement?.closest('[role="alert"], [role="status"], [aria-live]')
      ),
      null
    );
    // The badge's count is the one from before contact was lost, and says so.
    await page.getByRole('link', { name: 'Inbox 1 waiting, as of when contact was lost', exact: true }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Inbox 1 waiting', exact: true }).count(), 0);
    // So does the tab's title, which counted it too.
    await page.waitForFunction(() => document.title === '(no contact) Servers · Taskdesk');

    // A short window (SHORT_WINDOW): the bar scrolls away, the notice stays in sight.
    await page.setViewportSize({ width: 800, height: 450 });
    await scrollToFoot(page);
    await page.waitForFunction(() => document.querySelector('.topbar')!.getBoundingClientRect().bottom <= 0);
    const short = await placeOf(notice);
    assert.ok(short.top >= 0 && short.bottom <= short.height, `the notice is out of sight: ${JSON.stringify(short)}`);
    await page.setViewportSize({ width: 800, height: 600 });

    // Meanwhile another question arrives; the tab cannot hear of it.
    void ask('Which depot next?');
    await inboxHolds(d.fixture.host, 2);

    // Taskdesk back at its address with the same token: the tab reconnects by itself.
    again = await startBrowserServer({
      host: d.fixture.host,
      rendererDir: built.dir,
      port: d.server.port,
      token: d.server.token
    });
    await page.getByText(LOST).waitFor({ state: 'hidden' });
    await page.getByRole('link', { name: 'Inbox 2 waiting', exact: true }).waitFor();
    assert.equal(await inboxLink.locator('.badge').textContent(), '2');
    await page.waitForFunction(() => document.title === '(2) Servers · Taskdesk');

    // The browser logs the refused connections itself; nothing else went wrong on the page.
    assert.deepEqual(
      d.pageErrors.filter(
        (error) => !/net::ERR_(CONNECTION_REFUSED|SOCKET_NOT_CONNECTED|CONNECTION_RESET)\b/.test(error)
      ),
      []
    );
  });
});
