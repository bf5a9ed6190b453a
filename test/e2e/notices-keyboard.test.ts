import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Locator, Page } from 'playwright-core';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { ManualClock } from '../support/manual-clock.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { recordSaid, said, saidTimes } from './live-region.js';

/**
 * The notices under the bar for a screen reader and the keyboard: each said once, through the
 * Desk's live region (the strip is no live region of its own); a Close hands the focus on to the
 * notice that comes up next, and to the screen's heading only once none is left, and that Close
 * is read with its notice's words; a withdrawn question cut short in its notice is shown whole with
 * a button, not only in a mouse's tooltip.
 */
describe('the notices under the bar, by keyboard and screen reader, in headless Chromium against the real core', () => {
  const clock = new ManualClock(Date.now());
  let desk: DeskFixture;
  let page: Page;
  let peer: PeerServer;

  before(async () => {
    peer = peerServer('desk');
    desk = await startDesk({ desk: peer }, { host: { clock }, viewport: { width: 800, height: 800 } });
    page = desk.page;
    await page.locator('nav').getByRole('link', { name: 'Inbox', exact: true }).click();
    await recordSaid(page);
  });

  after(async () => {
    await desk?.close();
  });

  // Each test starts with no notice: one a failed test left is closed.
  afterEach(async () => {
    const close = page.getByRole('button', { name: 'Close notice' });
    while ((await close.count()) > 0) await close.first().click();
  });

  /** Asks `message` as an ordinary question (with `typed` written in its card, if given), then withdraws it (its server gives up): its notice shows. */
  const withdrawn = async (message: string, typed?: string): Promise<Locator> => {
    const controller = new AbortController();
    const asked = peer.server
      .elicitInput(
        { mode: 'form', message, requestedSchema: { type: 'object', properties: { note: { type: 'string' } } } },
        { signal: controller.signal }
      )
      .catch((error: unknown) => error);
    await page
      .locator('.inbox-item')
      .filter({ hasText: message.slice(0, 30) })
      .waitFor();
    if (typed !== undefined)
      await page
        .locator('.inbox-item')
        .filter({ hasText: message.slice(0, 30) })
        .getByLabel('note')
        .fill(typed);
    controller.abort('the server gave up');
    assert.ok((await asked) instanceof Error, 'the server side saw its request end');
    const notice = page.locator('.notice-withdrawn').filter({ hasText: message.slice(0, 30) });
    await notice.waitFor({ state: 'attached' });
    return notice;
  };

  /** Whether `locator`'s element has the focus. */
  const focused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

  /** What a screen reader says after the focused element's name: the words of the elements its `aria-describedby` names. */
  const focusedDescription = () =>
    page.evaluate(() =>
      (document.activeElement?.getAttribute('aria-describedby') ?? '')
        .split(/\s+/)
        .filter((id) => id !== '')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ')
    );

  /** The live region or alert an element is in, if any (its tag and role): one there would say it again. */
  const liveAround = (locator: Locator) =>
    locator.evaluate((element) => {
      const live = element.closest('[role="status"], [role="alert"], [role="log"], [aria-live]');
      return live ? `${live.tagName} ${live.getAttribute('role')} ${live.className}` : null;
    });

  /** How many lines a notice's words take, its Show all with them: lines of text, told apart by their middles. */
  const lines = (notice: Locator) =>
    notice.locator('.notice-body').evaluate((element) => {
      const middles: number[] = [];
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        // Words for a screen reader only take no line.
        if (node.parentElement?.closest('.sr-only')) continue;
        range.selectNodeContents(node);
        for (const rect of Array.from(range.getClientRects()))
          if (rect.width > 0 && rect.height > 0) middles.push((rect.top + rect.bottom) / 2);
      }
      middles.sort((a, b) => a - b);
      return middles.filter((middle, index) => index === 0 || middle - middles[index - 1]! > 6).length;
    });

  it('says a withdrawn question once, through the live region, and the strip is no live region of its own', async () => {
    const notice = await withdrawn('Which archive should the March invoices go to?');
    await saidTimes(page, /withdrew its question “Which archive should the March invoices go to\?”/);
    assert.equal(await liveAround(notice), null, 'the notice is in a live region that says it again');
    assert.equal(
      (await said(page)).filter((text) => text.includes('Which archive should the March invoices go to?')).length,
      1
    );
    await notice.getByRole('button', { name: 'Close notice' }).click();
    await notice.waitFor({ state: 'detached' });
    assert.deepEqual(desk.pageErrors, []);
  });

  it('says a question that expired unanswered once, through the live region, as its notice comes', async () => {
    await peer.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Approve the refund for order 1042?',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
          task: { ttl: 60_000 }
        }
      },
      CreateTaskResultSchema
    );
    await page.locator('.inbox-item').filter({ hasText: 'Approve the refund for order 1042?' }).waitFor();
    await clock.advance(5 * 60_000);
    const notice = page.locator('.notice-unanswered');
    await notice.waitFor();
    const words = /“Approve the refund for order 1042\?” from Server desk expired unanswered\./;
    await page.waitForFunction(
      (source) => (window as unknown as { said: string[] }).said.some((text) => new RegExp(source).test(text)),
      words.source,
      { timeout: 10_000 }
    );
    assert.equal(await liveAround(notice), null, 'the notice is in a live region that says it again');
    assert.equal((await said(page)).filter((text) => words.test(text)).length, 1);
    await notice.getByRole('button', { name: 'Close notice' }).click();
    await notice.waitFor({ state: 'detached' });
    assert.deepEqual(desk.pageErrors, []);
  });

  it('hands the focus from a closed notice to the one that comes up next, and to the heading once none is left', async () => {
    const older = await withdrawn('Which printer should the monthly invoices go to?');
    const newer = await withdrawn('Which team should review the supplier contracts?');
    await page.getByRole('button', { name: 'and 1 more notice' }).waitFor();
    // The newest closed by keyboard: the older comes up from under "and 1 more notice", its Close focused.
    await newer.getByRole('button', { name: 'Close notice' }).focus();
    await page.keyboard.press('Enter');
    await newer.waitFor({ state: 'detached' });
    await older.waitFor();
    assert.equal(await focused(older.getByRole('button', { name: 'Close notice' })), true, 'the older notice’s Close');
    // Read with the words of the notice it closes, which nothing else says as the focus comes.
    assert.match(
      await focusedDescription(),
      /withdrew its question “Which printer should the monthly invoices go to\?” before you answered\./
    );

    // All shown, one in the middle closed: the next one down takes the focus; the last, the one above.
    await page.locator('#heading-inbox').focus();
    const first = await withdrawn('Which room should the quarterly review be held in?');
    const second = await withdrawn('Which supplier should the new desks come from?');
    await page.getByRole('button', { name: 'and 2 more notices' }).click();
    // Newest first: second, first, older.
    await first.getByRole('button', { name: 'Close notice' }).focus();
    await page.keyboard.press('Enter');
    await first.waitFor({ state: 'detached' });
    assert.equal(await focused(older.getByRole('button', { name: 'Close notice' })), true, 'the one below it');
    assert.match(await focusedDescription(), /Which printer should the monthly invoices go to\?/);
    await page.keyboard.press('Enter');
    await older.waitFor({ state: 'detached' });
    assert.equal(await focused(second.getByRole('button', { name: 'Close notice' })), true, 'the one above it');
    assert.match(await focusedDescription(), /Which supplier should the new desks come from\?/);
    assert.doesNotMatch(await focusedDescription(), /printer|room/, 'only its own notice’s words');

    // The last one closed: nothing is left to go to but the screen's heading.
    await page.keyboard.press('Enter');
    await second.waitFor({ state: 'detached' });
    assert.equal(await focused(page.locator('#heading-inbox')), true, 'the Inbox heading');
    assert.deepEqual(desk.pageErrors, []);
  });

  it('shows a withdrawn question cut short whole, by a button reached from the keyboard, in two lines at 800 px until then', async () => {
    const message =
      'Which quarter should the yearly report on open orders, returns and refunds cover, and for which regions?';
    const notice = await withdrawn(message);
    const text = notice.locator('p');
    assert.ok((await lines(notice)) <= 2, `the notice took ${await lines(notice)} lines at 800 px`);
    assert.doesNotMatch((await text.textContent()) ?? '', /for which regions\?/);

    // From its Close, one Tab back: the button that shows it all.
    await notice.getByRole('button', { name: 'Close notice' }).focus();
    await page.keyboard.press('Shift+Tab');
    const showAll = notice.getByRole('button', { name: 'Show all of the question' });
    assert.equal(await focused(showAll), true, 'Show all has the focus');
    // Its words say the state ("Show all", "Show less"): no aria-expanded to say it again.
    assert.equal(await showAll.getAttribute('aria-expanded'), null);
    // Cut short, the whole sentence is the words' tooltip.
    assert.match((await text.getAttribute('title')) ?? '', /and for which regions\?” before you answered\.$/);
    await page.keyboard.press('Enter');
    const showLess = notice.getByRole('button', { name: 'Show less of the question' });
    assert.equal(await showLess.getAttribute('aria-expanded'), null);
    assert.equal(await focused(showLess), true, 'the focus stays on the button');
    assert.match(
      (await text.textContent()) ?? '',
      /withdrew its question “Which quarter should the yearly report on open orders, returns and refunds cover, and for which regions\?” before you answered\./
    );
    // Shown whole, no tooltip repeats it.
    assert.equal(await text.getAttribute('title'), null);

    // And back to two lines, the tooltip with them.
    await page.keyboard.press('Enter');
    await showAll.waitFor();
    assert.ok((await lines(notice)) <= 2, `the notice took ${await lines(notice)} lines at 800 px`);
    assert.match((await text.getAttribute('title')) ?? '', /and for which regions\?” before you answered\.$/);
    await notice.getByRole('button', { name: 'Close notice' }).click();
    await notice.waitFor({ state: 'detached' });
    assert.deepEqual(desk.pageErrors, []);
  });

  it('shows a long withdrawn question whole with Show all, its last words in place, the button a word apart', async () => {
    const last = 'and which of its trade routes across the northern sea ran longest?';
    const message = `Research this for me: ${'the history of the old harbour town, its guilds, its markets, '.repeat(6)}${last}`;
    assert.ok(message.length > 400);
    const notice = await withdrawn(message);
    const body = notice.locator('.notice-body');
    await notice.getByRole('button', { name: 'Show all of the question' }).click();
    await notice.getByRole('button', { name: 'Show less of the question' }).waitFor();
    // Whole, as History keeps it: its last words, not cut short upstream.
    assert.match(
      (await notice.locator('p').textContent()) ?? '',
      new RegExp(`${last.replace('?', '\\?')}” before you answered\\.`)
    );
    // The words and the button a space apart, as they read: "… answered. Show less", not "answered.Show less".
    assert.match(await body.innerText(), /before you answered\. Show less/);
    await notice.getByRole('button', { name: 'Show less of the question' }).click();
    await notice.getByRole('button', { name: 'Show all of the question' }).waitFor();
    assert.match(await body.innerText(), /,…” before you answered\. Show all/);
    await notice.getByRole('button', { name: 'Close notice' }).click();
    await notice.waitFor({ state: 'detached' });
    assert.deepEqual(desk.pageErrors, []);
  });

  it('shows the stack opened with room for more than one notice, and a notice’s typed text whole in a small window', async () => {
    /** Whether `inner` lies within the strip's scroll box as it is (not scrolled to). */
    const inStrip = (inner: Locator) =>
      inner.evaluate((element) => {
        const box = element.closest('.notice-stack')!.getBoundingClientRect();
        const own = element.getBoundingClientRect();
        return own.height > 0 && own.top >= box.top && own.bottom <= box.bottom;
      });
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      const notices = [];
      for (const what of ['the spring catalogue', 'the summer prices', 'the autumn stock'])
        notices.push(await withdrawn(`Which shop should ${what} go out to first, and by which date?`));
      // The newest holds what the person had typed: the tallest a notice is.
      notices.push(await withdrawn('Which shop should the winter sale go out to first?', 'The one on Mill Street'));
      await page.getByRole('button', { name: 'and 3 more notices' }).click();
      await page.getByRole('button', { name: 'Show only the newest notice' }).waitFor();
      assert.equal(await page.locator('.notices .notice-stack').evaluate((element) => element.scrollTop), 0);
      // Newest first: the second shown is the third asked; its Close in sight without scrolling.
      const second = notices[2]!;
      assert.equal(
        await inStrip(second.getByRole('button', { name: 'Close notice' })),
        true,
        'the second notice’s Close'
      );
      // The Inbox still has room below the strip.
      const stripBottom = await page.locator('.notices').evaluate((element) => element.getBoundingClientRect().bottom);
      assert.ok(stripBottom <= 800 / 2, `the strip reaches ${stripBottom} px of 800`);
      const close = page.getByRole('button', { name: 'Close notice' });
      while ((await close.count()) > 0) await close.first().click();

      // A small window: the notice holds what was typed, and shows it (the reason it is kept).
      await page.setViewportSize({ width: 800, height: 600 });
      const kept = await withdrawn(
        'Which courier should take the signed contracts to the head office this week?',
        'The red one, before Thursday noon, by the back door of the head office, and ask at the front desk for the legal team’s signed copies'
      );
      const typed = kept.locator('.withdrawn-draft pre');
      await typed.waitFor();
      assert.equal(await inStrip(typed), true, 'what was typed is in sight in the strip');
      assert.equal(await inStrip(kept.getByRole('button', { name: 'Copy what you had written' })), true);
      assert.equal(await inStrip(kept.getByRole('button', { name: 'Close notice' })), true);
    } finally {
      await page.setViewportSize({ width: 800, height: 800 });
    }
    assert.deepEqual(desk.pageErrors, []);
  });

  it('hands the focus from a Close of several at once to the notice it keeps, read with its words', async () => {
    const kept = await withdrawn('Which carrier should the spare parts go with?', 'DHL, the cheaper one');
    const others = [
      await withdrawn('Which warehouse should the returned chairs go to?'),
      await withdrawn('Which colour should the new folders be?')
    ];
    const closeAll = page.getByRole('button', { name: 'Close 2 notices, not the one with what you wrote' });
    await closeAll.focus();
    await page.keyboard.press('Enter');
    for (const notice of others) await notice.waitFor({ state: 'detached' });
    // Still there, with what was written: its Close, not the heading, takes the focus.
    assert.equal(await focused(kept.getByRole('button', { name: 'Close notice' })), true, 'the kept notice’s Close');
    assert.match(await focusedDescription(), /Which carrier should the spare parts go with\?/);
    await page.keyboard.press('Enter');
    await kept.waitFor({ state: 'detached' });
    assert.equal(await focused(page.locator('#heading-inbox')), true, 'the Inbox heading');
    assert.deepEqual(desk.pageErrors, []);
  });

  it('hands the focus from a closed failed-run notice in the Inbox to the next one, read with its words', async () => {
    // What the core tells every window when a run a person approved (before a restart) failed.
    const failedRun = (id: string, message: string) =>
      desk.fixture.host.events.emit('sampling.approvedRunFailed', {
        id,
        serverId: 'desk',
        serverName: 'Server desk',
        message
      });
    failedRun('run-1', 'The model is overloaded');
    failedRun('run-2', 'The provider refused the key');
    failedRun('run-3', 'The model timed out');
    const notices = page.locator('.notice-failed-run');
    await page.waitForFunction(() => document.querySelectorAll('.notice-failed-run').length === 3);
    const close = (index: number) => notices.nth(index).getByRole('button', { name: 'Close notice' });

    // One in the middle closed: the next one down takes the focus, then the one above the last.
    await close(1).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('.notice-failed-run').length === 2);
    assert.equal(await focused(close(1)), true, 'the next one down');
    assert.match(
      await focusedDescription(),
      /^The model run you approved for Server desk failed: The model timed out\./
    );
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('.notice-failed-run').length === 1);
    assert.equal(await focused(close(0)), true, 'the one above it');
    assert.match(await focusedDescription(), /failed: The model is overloaded\./);

    // The last one closed: the Inbox heading.
    await page.keyboard.press('Enter');
    await notices.first().waitFor({ state: 'detached' });
    assert.equal(await focused(page.locator('#heading-inbox')), true, 'the Inbox heading');
    assert.deepEqual(desk.pageErrors, []);
  });

  it('reads a host warning’s Close with the warning’s words as the focus comes to it', async () => {
    // What the core tells every window of a file it could not read.
    desk.fixture.host.events.emit('store.warning', {
      id: 'warning-1',
      message: 'The task history could not be read and was moved aside.',
      movedTo: '/data/corrupt/history.jsonl'
    });
    desk.fixture.host.events.emit('store.warning', {
      id: 'warning-2',
      message: 'The saved drafts could not be read and were moved aside.'
    });
    const older = page.locator('.host-warning').filter({ hasText: 'task history' });
    const newer = page.locator('.host-warning').filter({ hasText: 'saved drafts' });
    await newer.waitFor();
    await newer.getByRole('button', { name: 'Close notice' }).focus();
    await page.keyboard.press('Enter');
    await newer.waitFor({ state: 'detached' });
    assert.equal(await focused(older.getByRole('button', { name: 'Close notice' })), true, 'the older warning’s Close');
    assert.match(
      await focusedDescription(),
      /^The task history could not be read and was moved aside\. The old file was kept at \/data\/corrupt\/history\.jsonl$/
    );
    await page.keyboard.press('Enter');
    await older.waitFor({ state: 'detached' });
    assert.deepEqual(desk.pageErrors, []);
  });
});
