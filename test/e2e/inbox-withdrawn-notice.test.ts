import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Locator, Page } from 'playwright-core';
import { WITHDRAWN_READ_MS } from '../../renderer/shell/withdrawn-moved-on.js';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

/**
 * A withdrawn question's notice in an 800 px window: two lines at most, never over a task's
 * Details as they open, and gone once the person has moved on after having had it in sight (not
 * hidden in the stack), unless it holds what they had written.
 */
describe('a withdrawn question’s notice at 800 px, in headless Chromium against the real core', () => {
  let desk: DeskFixture;
  let page: Page;
  let peer: PeerServer;

  before(async () => {
    peer = peerServer('desk');
    desk = await startDesk(
      { desk: peer },
      { viewport: { width: 800, height: 800 }, beforeLoad: (p) => p.clock.install() }
    );
    page = desk.page;
    // The page's clock moves only as the tests move it: however slow the machine, no real quarter
    // of a minute passes on it (install alone lets it run on with real time).
    await page.clock.pauseAt(Date.now() + 1_000);
  });

  after(async () => {
    await desk?.close();
  });

  /** An ordinary question of one text field; resolves with its answer, or the error that ended it. */
  const ask = (message: string, signal: AbortSignal) =>
    peer.server
      .elicitInput(
        { mode: 'form', message, requestedSchema: { type: 'object', properties: { note: { type: 'string' } } } },
        { signal }
      )
      .catch((error: unknown) => error);

  /** Asks `message`, then withdraws it (the server cancels its request): its notice shows. */
  const withdrawn = async (message: string, typed?: string): Promise<Locator> => {
    const controller = new AbortController();
    const asked = ask(message, controller.signal);
    const card = page.locator('.inbox-item').filter({ hasText: message.slice(0, 30) });
    await card.waitFor();
    if (typed !== undefined) await card.getByLabel('note').fill(typed);
    controller.abort('the server gave up');
    assert.ok((await asked) instanceof Error, 'the server side saw its request end');
    const notice = page.locator('.notice-withdrawn').filter({ hasText: message.slice(0, 30) });
    await notice.waitFor();
    return notice;
  };

  /** How many lines the notice's words take. */
  const lines = (notice: Locator) =>
    notice.locator('p').evaluate((p) => {
      const tops = new Set<number>();
      const range = document.createRange();
      range.selectNodeContents(p);
      for (const rect of Array.from(range.getClientRects())) if (rect.width > 0) tops.add(Math.round(rect.top));
      return tops.size;
    });

  /** To another screen by its tab (the Inbox's name has its count in it: found by its screen). */
  const go = async (screen: string) => {
    await page.locator(`nav a[data-screen="${screen}"]`).click();
    await page.waitForFunction((name) => location.hash === `#${name}`, screen);
  };

  it('keeps to two lines, and a task’s Details open below it, not under it', async () => {
    for (let n = 1; n <= 8; n++)
      await peer.server.request(
        {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: `Which of the regional offices should summary ${n} go to?`,
            requestedSchema: { type: 'object', properties: { region: { type: 'string' } } },
            task: { ttl: 600_000 }
          }
        },
        CreateTaskResultSchema
      );
    const message = 'Which quarter should the yearly report on open orders, returns and refunds cover?';
    const notice = await withdrawn(message);
    const noticeLines = await lines(notice);
    const title = await notice.locator('p').getAttribute('title');

    // Straight on to Tasks (it has been in sight for moments): the notice stays.
    await go('tasks');
    const rows = page.locator('table.tasks tbody tr');
    await rows.nth(7).waitFor();
    await rows
      .nth(6)
      .getByRole('button', { name: /^Details of / })
      .click();
    const detail = page.locator('.task-detail');
    await page.waitForFunction(() => document.activeElement?.id === 'task-detail-title');
    assert.ok(await notice.isVisible(), 'the notice is still shown');
    assert.ok((await page.evaluate(() => window.scrollY)) > 0, 'the page scrolled to the Details');
    const strip = await page.locator('.notices').boundingBox();
    const card = await detail.boundingBox();
    assert.ok(strip && card, 'both are shown');
    assert.ok(
      card.y >= strip.y + strip.height,
      `the notices (to ${strip.y + strip.height} px) lie over the Details (from ${card.y} px)`
    );
    assert.ok(noticeLines <= 2, `the notice took ${noticeLines} lines at 800 px`);
    // Its whole sentence is still there, as its tooltip.
    assert.match(title ?? '', /refunds cover\?” before you answered\.$/);
    assert.deepEqual(desk.pageErrors, []);
  });

  it('goes at the next move to another screen or detail once it has been in sight a while, not before', async () => {
    const notice = page.locator('.notice-withdrawn');
    assert.equal(await notice.count(), 1, 'the notice of the first test is still shown');
    // No timer takes it away: a long while with no move, and it is still there.
    await page.clock.fastForward(WITHDRAWN_READ_MS * 4);
    assert.ok(await notice.isVisible(), 'the notice stays while the person stays');

    // A move (the Details closed): it goes.
    await page.locator('.task-detail').getByRole('button', { name: 'Close', exact: true }).click();
    await notice.waitFor({ state: 'detached' });
    assert.deepEqual(desk.pageErrors, []);
  });

  it('keeps one holding what the person had written until they close it', async () => {
    await go('inbox');
    const kept = await withdrawn('Which shelf holds the winter archive?', 'The top one');
    await page.clock.fastForward(WITHDRAWN_READ_MS * 2);
    const plain = await withdrawn('Which drawer holds the spare keys?');
    await page.clock.fastForward(WITHDRAWN_READ_MS + 1_000);
    await go('history');
    await plain.waitFor({ state: 'detached' });
    // The stack shows the newest; the one with what was typed is the one left.
    assert.ok(await kept.isVisible(), 'the notice with what was written stays');
    assert.equal(
      await kept.getByRole('group', { name: 'What you had written (not sent):' }).textContent(),
      'note: The top one'
    );
    await go('tasks');
    assert.ok(await kept.isVisible());
    await kept.getByRole('button', { name: 'Close notice' }).click();
    await kept.waitFor({ state: 'detached' });
    assert.deepEqual(desk.pageErrors, []);
  });

  it('leaves one the stack keeps hidden, which counts its time in sight from when it shows', async () => {
    await go('inbox');
    assert.equal(await page.locator('.notice-withdrawn').count(), 0, 'no notice is left from before');
    // Two withdrawn back to back: the newest shows, the older is behind "and 1 more notice".
    const older = await withdrawn('Which printer should the monthly invoices go to?');
    const newer = await withdrawn('Which team should review the supplier contracts?');
    await page.getByRole('button', { name: 'and 1 more notice' }).waitFor();
    assert.ok(await older.isHidden(), 'the older notice is hidden in the stack');

    // The person reads the newest a while and moves on: it goes; the older one, never in sight, stays.
    await page.clock.fastForward(WITHDRAWN_READ_MS + 1_000);
    await go('history');
    await newer.waitFor({ state: 'detached' });
    assert.ok(await older.isVisible(), 'the older notice stays, and shows now');

    // In sight from then: a move soon after leaves it, one after a while takes it.
    await page.clock.fastForward(WITHDRAWN_READ_MS - 5_000);
    await go('tasks');
    assert.ok(await older.isVisible(), 'the older notice stays, in sight for 10 s only');
    await page.clock.fastForward(6_000);
    await go('inbox');
    await older.waitFor({ state: 'detached' });
    assert.deepEqual(desk.pageErrors, []);
  });

  it('counts an older notice in sight from when the stack is opened', async () => {
    await go('inbox');
    assert.equal(await page.locator('.notice-withdrawn').count(), 0, 'no notice is left from before');
    const older = await withdrawn('Which room should the quarterly review be held in?');
    const newer = await withdrawn('Which supplier should the new desks come from?');
    await page.clock.fastForward(WITHDRAWN_READ_MS + 1_000);
    await page.getByRole('button', { name: 'and 1 more notice' }).click();
    await older.waitFor();
    await page.clock.fastForward(5_000);
    await go('history');
    await newer.waitFor({ state: 'detached' });
    assert.ok(await older.isVisible(), 'the older notice stays, in sight for 5 s only');

    await page.clock.fastForward(WITHDRAWN_READ_MS);
    await go('tasks');
    await older.waitFor({ state: 'detached' });
    assert.deepEqual(desk.pageErrors, []);
  });
});
