import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  CreateTaskResultSchema
} from '@modelcontextprotocol/sdk/types.js';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { accessibleDescription } from './renderer-build.js';
import { passUndoWindow } from './undo-window.js';
import type { Locator, Page } from 'playwright-core';
import { WITHDRAWN_READ_MS } from '../../renderer/shell/withdrawn-moved-on.js';

/**
 * An ordinary (not task) request has no TTL: its server may cancel it, or stop waiting, at any
 * time. The card says how long it has waited, and a withdrawn question is told, not just gone.
 */
describe('an ordinary question its server withdraws', () => {
  let desk: DeskFixture;
  let peer: PeerServer;

  before(async () => {
    peer = peerServer('plain-peer');
    // Its one tool asks a question and cancels it (notifications/cancelled) when the call is cancelled.
    peer.server.registerCapabilities({ tools: {} });
    peer.server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: 'report', inputSchema: { type: 'object' } }]
    }));
    peer.server.setRequestHandler(CallToolRequestSchema, async (_request, extra) => {
      const answer = await peer.server.elicitInput(
        {
          mode: 'form',
          message: 'Which quarter should the report cover?',
          requestedSchema: { type: 'object', properties: {} }
        },
        { signal: extra.signal, relatedRequestId: extra.requestId }
      );
      return { content: [{ type: 'text', text: answer.action }] };
    });
    // The page's clock installed: a Decline or Dismiss is sent when the test ends its undo window.
    desk = await startDesk({ a: peer }, { beforeLoad: (page) => page.clock.install() });
  });

  after(async () => {
    await desk?.close();
  });

  /** An ordinary form question of one text field; resolves with its answer, or the error that ended it. */
  const ask = (message: string, signal?: AbortSignal) =>
    peer.server
      .elicitInput(
        { mode: 'form', message, requestedSchema: { type: 'object', properties: { note: { type: 'string' } } } },
        { signal }
      )
      .catch((error: unknown) => error);

  it('shows how long it has waited, and after the server cancels it, a notice with its words until dismissed', async () => {
    const { page } = desk;
    const controller = new AbortController();
    const asked = peer.server
      .elicitInput(
        {
          mode: 'form',
          message: 'Which region should the report cover?',
          requestedSchema: { type: 'object', properties: { region: { type: 'string' } } }
        },
        { signal: controller.signal }
      )
      .catch((error: unknown) => error);
    const card = page.locator('.inbox-item').filter({ hasText: 'Which region should the report cover?' });
    await card.waitFor();
    assert.match((await card.locator('.waiting-since').textContent()) ?? '', /^waiting for \d+ s$/);
    // An ordinary request: the server is the one waiting, on the person.
    assert.match((await card.locator('.meta').textContent()) ?? '', / · the server waits for your answer · /);

    controller.abort('the server gave up');
    assert.ok((await asked) instanceof Error, 'the server side saw its request end');
    await card.waitFor({ state: 'detached' });
    const notice = page.locator('.notice-withdrawn');
    await notice.waitFor();
    assert.match(
      (await notice.locator('p').textContent()) ?? '',
      /^Server a withdrew its question “Which region should the report cover\?” before you answered/
    );
    // Screen readers hear which request went, not "a question was withdrawn".
    await page
      .locator('.sr-only[aria-live="polite"]')
      .getByText('Server a withdrew its question “Which region should the report cover?”.')
      .waitFor();
    // "Close", not "Dismiss": beside a card, Dismiss answers the server.
    assert.equal(await notice.getByRole('button', { name: /Dismiss/ }).count(), 0);
    assert.equal(await notice.getByRole('button', { name: 'Close notice', exact: true }).textContent(), 'Close notice');
    await notice.getByRole('button', { name: 'Close notice' }).click();
    await notice.waitFor({ state: 'detached' });
    // Close goes with its notice: the focus goes to the screen's heading, not the page.
    await page.waitForFunction(() => document.activeElement?.id === 'heading-inbox');
    assert.deepEqual(desk.pageErrors, []);
  });

  it('shows the notice in sight when the page was scrolled down to the question, and scrolls a focused card out from under it', async () => {
    const { page } = desk;
    await page.setViewportSize({ width: 1000, height: 600 });
    const waiting = Array.from({ length: 6 }, (_, n) => ask(`Question number ${n + 1} of the pile?`));
    const controller = new AbortController();
    const last = ask('Which shelf holds the archive?', controller.signal);
    const card = page.locator('.inbox-item').filter({ hasText: 'Which shelf holds the archive?' });
    await card.waitFor();
    await card.scrollIntoViewIfNeeded();
    assert.ok((await page.evaluate(() => window.scrollY)) > 0, 'the page is scrolled down to the last card');

    controller.abort('the server gave up');
    await last;
    await card.waitFor({ state: 'detached' });
    const notice = page.locator('.notice-withdrawn').filter({ hasText: 'Which shelf holds the archive?' });
    await notice.waitFor();
    const box = await notice.boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= 600, `the notice is out of sight: ${JSON.stringify(box)}`);

    // A card taking the focus is scrolled below the bar and its notices, not under them.
    const first = page.locator('.inbox-item').filter({ hasText: 'Question number 1 of the pile?' });
    await first.focus();
    const top = await page.locator('.top-area').boundingBox();
    const firstBox = await first.boundingBox();
    assert.ok(
      top && firstBox && firstBox.y >= top.y + top.height,
      `the focused card is under the bar: ${firstBox?.y} < ${top?.y}+${top?.height}`
    );

    await notice.getByRole('button', { name: 'Close notice' }).click();
    for (let n = 1; n <= 6; n++) {
      await page
        .locator('.inbox-item')
        .filter({ hasText: `Question number ${n} of the pile?` })
        .getByRole('button', { name: 'Dismiss', exact: true })
        .click();
    }
    await passUndoWindow(page);
    await Promise.all(waiting);
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual(desk.pageErrors, []);
  });

  it('in a short window (200% zoom of a laptop’s), lets the bar scroll away and keeps only the notices in sight', async () => {
    const { page } = desk;
    await page.setViewportSize({ width: 640, height: 400 });
    const waiting = Array.from({ length: 4 }, (_, n) => ask(`Short window question ${n + 1}?`));
    const controller = new AbortController();
    const last = ask('Which drawer holds the keys?', controller.signal);
    const card = page.locator('.inbox-item').filter({ hasText: 'Which drawer holds the keys?' });
    await card.waitFor();
    await card.scrollIntoViewIfNeeded();
    const bar = page.locator('.topbar');
    const barBox = await bar.boundingBox();
    assert.ok(barBox && barBox.y + barBox.height <= 0, `the bar still holds the top: ${JSON.stringify(barBox)}`);

    controller.abort('the server gave up');
    await last;
    const notice = page.locator('.notice-withdrawn').filter({ hasText: 'Which drawer holds the keys?' });
    await notice.waitFor();
    const box = await notice.boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= 400, `the notice is out of sight: ${JSON.stringify(box)}`);
    // A card taking the focus is scrolled below the notices, not under them.
    const first = page.locator('.inbox-item').filter({ hasText: 'Short window question 1?' });
    // The Inbox may have put the focus there already (a focused element is not scrolled again).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await first.focus();
    const firstBox = await first.boundingBox();
    assert.ok(firstBox && box && firstBox.y >= box.y + box.height, `the focused card is under the notice`);

    // Back to a tall window: the bar holds the top again.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForFunction(() => (document.querySelector('.topbar')?.getBoundingClientRect().top ?? -1) === 0);
    await notice.getByRole('button', { name: 'Close notice' }).click();
    for (let n = 1; n <= 4; n++) {
      await page
        .locator('.inbox-item')
        .filter({ hasText: `Short window question ${n}?` })
        .getByRole('button', { name: 'Dismiss', exact: true })
        .click();
    }
    await passUndoWindow(page);
    await Promise.all(waiting);
    assert.deepEqual(desk.pageErrors, []);
  });

  it('answers Decline as no and Dismiss as no choice, each button saying so, not "Cancel"', async () => {
    const { page } = desk;
    const ask = (message: string) =>
      peer.server.elicitInput({
        mode: 'form',
        message,
        requestedSchema: { type: 'object', properties: { region: { type: 'string' } } }
      });
    const asked = ask('Which team should be told?');
    const card = page.locator('.inbox-item').filter({ hasText: 'Which team should be told?' });
    const dismiss = card.getByRole('button', { name: 'Dismiss', exact: true });
    await dismiss.waitFor();
    assert.equal(await card.getByRole('button', { name: 'Cancel' }).count(), 0);
    // What sets the two apart is on the card, in sight (not in a tooltip keyboard and touch users
    // never see), and each button is described by its own line of it.
    for (const [name, words] of [
      ['Decline', 'Decline tells the server no.'],
      ['Dismiss', 'Dismiss tells the server you made no choice; it may ask again.']
    ] as const) {
      const button = card.getByRole('button', { name, exact: true });
      assert.equal(await accessibleDescription(button), words);
      const line = card.locator(`[id="${await button.getAttribute('aria-describedby')}"]`);
      assert.equal(await line.textContent(), words);
      assert.equal(await line.isVisible(), true, `${name}'s description is shown`);
    }
    await dismiss.click();
    await passUndoWindow(page);
    assert.equal((await asked).action, 'cancel');
    // The line names the question, as the line of an answer does.
    await page
      .locator('.inbox-answered')
      .getByText('Dismissed Server a’s question “Which team should be told?”.', { exact: true })
      .waitFor();

    const declined = ask('Which office should be told?');
    await page
      .locator('.inbox-item')
      .filter({ hasText: 'Which office should be told?' })
      .getByRole('button', { name: 'Decline', exact: true })
      .click();
    await passUndoWindow(page);
    assert.equal((await declined).action, 'decline');
    // A second question of the same server: its line reads apart from the first one's.
    await page
      .locator('.inbox-answered')
      .getByText('Declined Server a’s question “Which office should be told?”.', { exact: true })
      .waitFor();
    assert.deepEqual(desk.pageErrors, []);
  });

  it('drops the line of the last answer once another question is withdrawn: it would read as news of that', async () => {
    const { page } = desk;
    const controller = new AbortController();
    const withdrawn = ask('Which week should be summed up?', controller.signal);
    const answered = peer.server.elicitInput({
      mode: 'form',
      message: 'Which day should be summed up?',
      requestedSchema: { type: 'object', properties: { day: { type: 'string' } } }
    });
    const other = page.locator('.inbox-item').filter({ hasText: 'Which week should be summed up?' });
    await other.waitFor();
    await page
      .locator('.inbox-item')
      .filter({ hasText: 'Which day should be summed up?' })
      .getByRole('button', { name: 'Dismiss', exact: true })
      .click();
    await passUndoWindow(page);
    assert.equal((await answered).action, 'cancel');
    const line = page.locator('.inbox-answered');
    await line.getByText('Dismissed Server a’s question “Which day should be summed up?”.', { exact: true }).waitFor();
    // Above the card left, the line is what the person did last: it stays.
    await other.waitFor();
    assert.equal(await line.isVisible(), true);

    controller.abort('the server gave up');
    assert.ok((await withdrawn) instanceof Error, 'the server side saw its request end');
    const notice = page.locator('.notice-withdrawn').filter({ hasText: 'Which week should be summed up?' });
    await notice.waitFor();
    await line.waitFor({ state: 'detached' });
    await notice.getByRole('button', { name: 'Close notice' }).click();
    await notice.waitFor({ state: 'detached' });
    assert.deepEqual(desk.pageErrors, []);
  });

  it('says a question ended after the person stopped the call it was asked during, not that its server withdrew it', async () => {
    const { page, fixture } = desk;
    const call = fixture.host.call('tools.call', { serverId: 'a', name: 'report' }).catch((error: unknown) => error);
    const card = page.locator('.inbox-item').filter({ hasText: 'Which quarter should the report cover?' });
    await card.waitFor();
    await page.locator('nav').getByRole('link', { name: 'Tools', exact: true }).click();
    await page
      .getByRole('region', { name: 'Running calls' })
      .getByRole('button', { name: /^Cancel report on .+, in Running calls$/ })
      .click();
    assert.ok((await call) instanceof Error, 'the call ended, cancelled');
    // Its server cancelled the question as the call ended: told in that order, blaming neither.
    const notice = page.locator('.notice-withdrawn').filter({ hasText: 'Which quarter should the report cover?' });
    await notice.waitFor();
    assert.equal(
      await notice.locator('p').textContent(),
      'Server a’s question “Which quarter should the report cover?” ended after you stopped the call of report, which was running when it was asked.'
    );
    await notice.getByRole('button', { name: 'Close notice' }).click();
    await notice.waitFor({ state: 'detached' });
    await page.locator('nav').getByRole('link', { name: 'Inbox', exact: true }).click();
    assert.deepEqual(desk.pageErrors, []);
  });
});

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
      // Lines of text (its Show all with them), told apart by their middles: words for a screen
      // reader only take no line, nor does the button's box apart from its words.
      const middles: number[] = [];
      const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentElement?.closest('.sr-only')) continue;
        range.selectNodeContents(node);
        for (const rect of Array.from(range.getClientRects()))
          if (rect.width > 0 && rect.height > 0) middles.push((rect.top + rect.bottom) / 2);
      }
      middles.sort((a, b) => a - b);
      return middles.filter((middle, index) => index === 0 || middle - middles[index - 1]! > 6).length;
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
