import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Locator, Page, Route } from 'playwright-core';
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

/** Whether a route is browser mode's call of `method` (`POST /api/call`). */
function calls(route: Route, method: string): boolean {
  try {
    return (route.request().postDataJSON() as { method?: string }).method === method;
  } catch {
    return false;
  }
}

/**
 * The page's next call of `method` is held until `release`, then refused with `refusal` (as
 * browser mode answers a refusal), or let on to the host when there is none.
 */
async function holdNext(page: Page, method: string, refusal?: string) {
  let arrived!: () => void;
  const held = new Promise<void>((resolve) => (arrived = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let taken = false;
  await page.route('**/api/call', async (route) => {
    if (taken || !calls(route, method)) return route.fallback();
    taken = true;
    arrived();
    await released;
    if (refusal === undefined) return route.fallback();
    return route.fulfill({ status: 200, json: { ok: false, error: { code: -32603, message: refusal } } });
  });
  return { held, release };
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
    const refetch = await holdNext(page, 'inbox.list');
    again = await startBrowserServer({
      host: d.fixture.host,
      rendererDir: built.dir,
      port: d.server.port,
      token: d.server.token
    });
    await page.getByText(LOST).waitFor({ state: 'hidden' });
    // In contact again, the lists being fetched: the count is not current yet, but not for want of contact.
    await refetch.held;
    await page.getByRole('link', { name: 'Inbox 1 waiting, as of the last update', exact: true }).waitFor();
    assert.equal(await page.title(), '(not up to date) Servers · Taskdesk');
    refetch.release();
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

  it('says a failed fetch of the lists while in contact as not up to date, not as no contact', async () => {
    await page.waitForFunction(() => document.title === '(2) Servers · Taskdesk');
    const refused = await holdNext(page, 'inbox.list', 'The inbox is busy.');
    // Contact lost and back; the lists fetched on reconnect do not come.
    await again!.close();
    await page.getByRole('alert').filter({ hasText: LOST }).waitFor();
    await page.waitForFunction(() => document.title === '(no contact) Servers · Taskdesk');
    void ask('Which depot last?');
    await inboxHolds(d.fixture.host, 3);
    again = await startBrowserServer({
      host: d.fixture.host,
      rendererDir: built.dir,
      port: d.server.port,
      token: d.server.token
    });
    await refused.held;
    refused.release();
    await page.getByRole('alert').filter({ hasText: 'Could not load from Taskdesk: The inbox is busy.' }).waitFor();
    // The count heard before is kept, and said to be as of the last update: the page hears Taskdesk.
    await page.getByRole('link', { name: 'Inbox 2 waiting, as of the last update', exact: true }).waitFor();
    assert.equal(await page.title(), '(not up to date) Servers · Taskdesk');
    assert.equal(await page.getByText(LOST).isVisible(), false);
    assert.equal(
      await page.locator('nav a[data-screen="inbox"] .badge').getAttribute('title'),
      'As of the last update'
    );
    assert.deepEqual(
      d.pageErrors.filter(
        (error) => !/net::ERR_(CONNECTION_REFUSED|SOCKET_NOT_CONNECTED|CONNECTION_RESET)\b/.test(error)
      ),
      []
    );
  });
});
