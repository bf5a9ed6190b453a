import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { Host } from '../../app/host/host.js';
import { nextEvent } from '../support/host-fixture.js';
import { openEverythingDesk } from './everything-desk.js';
import { openToolForm } from './renderer-build.js';

/**
 * Where a card taller than the window shows its heading, at the top of the view below the bar,
 * and the line above it: `line` true also asks whether the Inbox's line of the last answer shows.
 */
function inSight(page: Page, id: string) {
  return page.evaluate((cardId) => {
    const card = document.querySelector<HTMLElement>(`[data-inbox-id="${CSS.escape(cardId)}"]`);
    const heading = card?.querySelector('h3')?.getBoundingClientRect();
    const bar = document.querySelector('.topbar')?.getBoundingClientRect().bottom ?? 0;
    const line = document.querySelector('.inbox-answered')?.getBoundingClientRect();
    return {
      bar,
      cardTop: card?.getBoundingClientRect().top ?? NaN,
      cardHeight: card?.getBoundingClientRect().height ?? NaN,
      headingTop: heading?.top ?? NaN,
      headingBottom: heading?.bottom ?? NaN,
      lineTop: line?.top,
      lineBottom: line?.bottom,
      height: window.innerHeight
    };
  }, id);
}

/** The heading of the card shows just under the bar: nothing of the card above it is out of sight. */
function assertAtTop(seen: Awaited<ReturnType<typeof inSight>>, what: string): void {
  assert.ok(seen.cardHeight > seen.height, `${what}: the card is taller than the window (${JSON.stringify(seen)})`);
  assert.ok(seen.cardTop >= seen.bar - 1, `${what}: the card’s top is not under the bar (${JSON.stringify(seen)})`);
  assert.ok(
    seen.headingBottom <= seen.bar + seen.height / 4,
    `${what}: the heading is at the top of the view (${JSON.stringify(seen)})`
  );
}

describe('the Inbox shows a card taller than the window from its heading', () => {
  let host: Host;
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  const pageErrors: string[] = [];

  before(async () => {
    ({ host, page, close } = await openEverythingDesk(pageErrors, { viewport: { width: 800, height: 600 } }));
  });

  after(async () => {
    await close?.();
  });

  it('a link to the card (“in the Inbox” under a running call) lands on its heading, and so does the next card after `a`', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tools', exact: true }).click();
    const tools = page.getByRole('region', { name: 'Tools' });
    const form = await openToolForm(tools, 'trigger-elicitation-request');
    const asked = nextEvent(host, 'inbox.added');
    await form.getByRole('button', { name: 'Call tool' }).click();
    const first = (await asked).item;
    // A second question of the same form, from a call of the host's own: the card that follows.
    const askedAgain = nextEvent(host, 'inbox.added');
    const second = host.call('tools.call', { serverId: 'everything', name: 'trigger-elicitation-request' });
    second.catch(() => undefined);
    const next = (await askedAgain).item;

    const running = page.getByRole('region', { name: 'Running calls' });
    await running.getByRole('link', { name: 'in the Inbox' }).first().click();
    await page.waitForFunction(
      (id) => (document.activeElement as HTMLElement | null)?.dataset.inboxId === id,
      first.id
    );
    assertAtTop(await inSight(page, first.id), 'the card the link names');

    // Answered from the keyboard: its one required field, then back to the card, then `a`.
    const card = page.locator(`[data-inbox-id="${first.id}"]`);
    await card
      .getByRole('textbox', { name: /^String/, exact: false })
      .first()
      .waitFor();
    await card.getByRole('textbox', { name: 'String', exact: true }).fill('Ada');
    await page.keyboard.press('Escape');
    // Where a person is who read the form down to its buttons.
    await card.getByRole('button', { name: 'Submit' }).evaluate((button) => button.scrollIntoView({ block: 'end' }));
    await page.keyboard.press('a');
    await page.waitForFunction((id) => (document.activeElement as HTMLElement | null)?.dataset.inboxId === id, next.id);
    const seen = await inSight(page, next.id);
    assertAtTop(seen, 'the next card after an answer');
    // The line saying what the answer did is in sight too, above the card.
    assert.ok(
      seen.lineTop !== undefined && seen.lineTop >= seen.bar - 1 && (seen.lineBottom ?? Infinity) <= seen.headingTop,
      `the line of the answer shows above the next card (${JSON.stringify(seen)})`
    );

    await host.call('inbox.answer', { id: next.id, answer: { action: 'decline' } });
    await second;
    assert.deepEqual(pageErrors, []);
  });
});
