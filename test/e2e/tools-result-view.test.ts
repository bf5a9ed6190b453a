import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { Host } from '../../app/host/host.js';
import { nextEvent } from '../support/host-fixture.js';
import { openToolForm, toolCallCard } from './renderer-build.js';
import { openEverythingDesk } from './everything-desk.js';

/** The levels of the headings inside `result`, in order (a screen reader's outline of it). */
function headingLevels(result: Locator): Promise<number[]> {
  return result
    .locator('h1, h2, h3, h4, h5, h6')
    .evaluateAll((headings) => headings.map((heading) => Number(heading.tagName.slice(1))));
}

/** Its rendered font size, in pixels. */
function fontSize(element: Locator): Promise<number> {
  return element.evaluate((node) => parseFloat(getComputedStyle(node).fontSize));
}

/** Its box: how tall it shows, how tall its content is, and where it ends on the page. */
function extent(box: Locator): Promise<{ shown: number; whole: number; bottom: number }> {
  return box.evaluate((node) => ({
    shown: node.getBoundingClientRect().height,
    whole: node.scrollHeight,
    bottom: node.getBoundingClientRect().bottom
  }));
}

/** Where an element's box ends on the page. */
function bottomOf(element: Locator): Promise<number> {
  return element.evaluate((node) => node.getBoundingClientRect().bottom);
}

describe('a Markdown report (server-everything’s simulate-research-query) as a result on the Tools screen', () => {
  let host: Host;
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let form: Locator;
  let card: Locator;
  const pageErrors: string[] = [];

  before(async () => {
    // The width the newcomer's walk found the Tool calls list thousands of pixels long at.
    ({ host, page, close } = await openEverythingDesk(pageErrors, { viewport: { width: 800, height: 900 } }));
    await page.locator('nav').getByRole('link', { name: 'Tools', exact: true }).click();
    const tools = page.getByRole('region', { name: 'Tools' });
    form = await openToolForm(tools, 'simulate-research-query');
    await form.getByLabel('topic').fill('tides');
    const finished = nextEvent(
      host,
      'outbound.changed',
      (event) => event.type === 'changed' && event.task.toolName === 'simulate-research-query' && !!event.task.outcome
    );
    await form.getByRole('button', { name: 'Call tool' }).click();
    await finished;
    card = toolCallCard(page.getByRole('region', { name: 'Tool calls' }), 'simulate-research-query');
    await card.locator('.tool-result').getByText('Research Report: tides').waitFor();
  });

  after(async () => {
    await close?.();
  });

  it('ranks the report’s headings below the card’s title, and no larger', async () => {
    const result = card.locator('.tool-result');
    const levels = await headingLevels(result);
    assert.ok(levels.length >= 3, `the report's headings are headings still (${levels.join(', ')})`);
    assert.deepEqual(
      levels.filter((level) => level <= 3),
      [],
      'no h1, h2 or h3 inside a result on a card (its title is an h3)'
    );
    await result.getByRole('heading', { name: 'Research Report: tides', level: 4 }).waitFor();
    await result.getByRole('heading', { name: 'Synthesis', level: 5 }).waitFor({ state: 'attached' });
    const title = await fontSize(card.locator('.card-header h3'));
    const sizes = await result
      .locator('h4, h5, h6')
      .evaluateAll((headings) => headings.map((heading) => parseFloat(getComputedStyle(heading).fontSize)));
    assert.ok(
      sizes.every((size) => size <= title),
      `the result's headings (${sizes.join(', ')} px) are no larger than the card's title (${title} px)`
    );
  });

  it('shows the report whole under the form it was called from, its headings ranked the same', async () => {
    const result = form.locator('.tool-result');
    await result.getByRole('heading', { name: 'Research Report: tides', level: 4 }).waitFor();
    assert.deepEqual(
      (await headingLevels(result)).filter((level) => level <= 3),
      [],
      'no h1, h2 or h3 under the form either'
    );
    assert.equal(await form.locator('.result-fold').count(), 0, 'not folded: it is what the person is looking at');
    assert.equal(await form.getByRole('button', { name: /^Show whole result/ }).count(), 0);
  });

  it('folds the long report on its card, and a button shows the rest and folds it again', async () => {
    const box = card.locator('.result-fold-box');
    // 14rem at the page's 15px, and a pixel for rounding.
    const bound = 14 * 15 + 1;
    const folded = await extent(box);
    assert.ok(folded.shown <= bound, `folded, the result shows ${folded.shown} px (at most ${bound})`);
    assert.ok(folded.whole > folded.shown, 'the report is longer than the fold');
    const last = box.getByRole('heading', { name: 'About This Demo (SEP-1686: Tasks)' });
    assert.ok((await bottomOf(last)) > folded.bottom, 'the report’s last heading is folded away');

    const toggle = card.getByRole('button', { name: 'Show whole result of simulate-research-query task' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await toggle.getAttribute('aria-controls'), await box.getAttribute('id'));
    // By keyboard: it is a real button.
    await toggle.focus();
    await page.keyboard.press('Enter');
    const shrink = card.getByRole('button', { name: 'Show less of simulate-research-query task' });
    await shrink.waitFor();
    assert.equal(await shrink.getAttribute('aria-expanded'), 'true');
    assert.ok(await shrink.evaluate((button) => button === document.activeElement), 'the focus stays on the button');
    const unfolded = await extent(box);
    assert.ok(unfolded.shown > bound, `unfolded, the result shows ${unfolded.shown} px`);
    assert.ok(unfolded.shown >= unfolded.whole - 1, 'all of it');
    assert.ok((await bottomOf(last)) <= unfolded.bottom, 'its last heading shows');

    await page.keyboard.press('Space');
    await toggle.waitFor();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.ok((await extent(box)).shown <= bound, 'folded again');
    assert.deepEqual(pageErrors, []);
  });

  it('ranks the result’s headings below the Tasks detail’s “Result” heading there', async () => {
    await form.getByRole('link', { name: 'its detail on Tasks' }).click();
    const detail = page.getByRole('region', { name: 'Tasks' }).locator('.task-detail');
    const result = detail.locator('.tool-result');
    await result.getByRole('heading', { name: 'Research Report: tides', level: 5 }).waitFor();
    assert.deepEqual(
      (await headingLevels(result)).filter((level) => level <= 4),
      [],
      'the detail’s "Result" is an h4: nothing in the result outranks it'
    );
    assert.equal(await detail.locator('.result-fold').count(), 0, 'the detail shows the result whole');
    assert.deepEqual(pageErrors, []);
  });
});
