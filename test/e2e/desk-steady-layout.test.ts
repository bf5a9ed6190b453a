import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { systemClock } from '../../app/core/clock.js';
import { createTaskToolPeer } from '../support/task-tool-server.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { openToolForm, toolCallCard } from './renderer-build.js';
import { launchTestBrowser } from '../support/test-browser.js';

/**
 * The Desk of `d` in a browser of its own that shows scrollbars, as a person's does: headless
 * Chromium hides them unless told otherwise, and a scrollbar that takes width on some screens
 * only is what moved the bar and the content.
 */
async function openWithScrollbars(
  d: DeskFixture,
  viewport: { width: number; height: number }
): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchTestBrowser({ ignoreDefaultArgs: ['--hide-scrollbars'] });
  const page = await (await browser.newContext({ viewport })).newPage();
  page.on('pageerror', (error) => d.pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') d.pageErrors.push(message.text());
  });
  await page.goto(d.server.url);
  await page.locator('#app[data-ready="true"]').waitFor();
  return { browser, page };
}

/** Where the bar and the screen shown are: what must not move as the person goes from screen to screen. */
interface Frame {
  /** The bar's height. */
  bar: number;
  /** The vertical middle of the name "Taskdesk" and of the Inbox tab's label. */
  brandMiddle: number;
  tabMiddle: number;
  /** The left edge of the screen's heading. */
  contentLeft: number;
  /** The width of main, the screen's content and its padding. */
  mainWidth: number;
  /** Whether the page scrolls (so that the comparison is between one that does and one that does not). */
  scrolls: boolean;
}

/** Goes to a screen by its tab and measures the bar and the screen's heading. */
async function frameOf(page: Page, screen: string): Promise<Frame> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: screen, exact: true }).click();
  await page.getByRole('heading', { level: 2, name: screen, exact: true }).waitFor();
  // No function declared inside the page function: tsx would name it with a helper the page lacks.
  return page.evaluate(() => {
    const [brand, tab] = [
      document.querySelector('.topbar h1')!,
      document.querySelector('.sections a[data-screen="inbox"]')!.firstChild!
    ].map((node) => {
      const range = document.createRange();
      range.selectNodeContents(node);
      return range.getBoundingClientRect();
    }) as [DOMRect, DOMRect];
    const page = document.documentElement;
    return {
      bar: document.querySelector('.topbar')!.getBoundingClientRect().height,
      brandMiddle: brand.top + brand.height / 2,
      tabMiddle: tab.top + tab.height / 2,
      contentLeft: document.querySelector('.screen:not([hidden]) h2')!.getBoundingClientRect().left,
      mainWidth: document.querySelector('main')!.getBoundingClientRect().width,
      scrolls: page.scrollHeight > page.clientHeight
    };
  });
}

describe('the Desk’s frame stays still from screen to screen, and what it scrolls to shows below its bar', () => {
  const { peer } = createTaskToolPeer({ clock: systemClock });
  let d: DeskFixture;
  let browser: Browser | undefined;
  let page: Page;
  let tools: Locator;

  before(async () => {
    d = await startDesk({ queue: peer }, { viewport: { width: 800, height: 600 } });
    ({ browser, page } = await openWithScrollbars(d, { width: 800, height: 600 }));
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tools', exact: true }).click();
    tools = page.getByRole('region', { name: 'Tools' });
    await tools.getByLabel('Server', { exact: true }).selectOption('queue');
    await tools.locator('li[data-tool="slow"]').waitFor();
  });

  after(async () => {
    await browser?.close();
    await d?.close();
  });

  it('keeps the bar’s height, the name level with the tabs, and the content’s left edge and width, on Inbox (no scrolling) and Tools (scrolling)', async () => {
    for (const [width, height] of [
      [800, 600],
      [1110, 800],
      [1280, 800]
    ] as const) {
      await page.setViewportSize({ width, height });
      const inbox = await frameOf(page, 'Inbox');
      const toolsFrame = await frameOf(page, 'Tools');
      const at = `at ${width} × ${height}`;
      assert.equal(inbox.scrolls, false, `${at}: the Inbox does not scroll`);
      assert.equal(toolsFrame.scrolls, true, `${at}: the Tools screen scrolls`);
      assert.equal(toolsFrame.bar, inbox.bar, `${at}: the bar's height on Tools and on Inbox`);
      assert.equal(toolsFrame.contentLeft, inbox.contentLeft, `${at}: the content's left edge on Tools and on Inbox`);
      // Else right-aligned controls moved and the text wrapped anew from screen to screen.
      assert.equal(toolsFrame.mainWidth, inbox.mainWidth, `${at}: main's width on Tools and on Inbox`);
      for (const [screen, frame] of [
        ['Inbox', inbox],
        ['Tools', toolsFrame]
      ] as const) {
        assert.ok(
          Math.abs(frame.brandMiddle - frame.tabMiddle) <= 2,
          `${at} on ${screen}: the name's middle at ${frame.brandMiddle}, the tabs' at ${frame.tabMiddle}`
        );
      }
    }
    assert.deepEqual(d.pageErrors, []);
  });

  it('brings a tool call’s card, outline and all, below the sticky bar when “Show it under Tool calls” takes the person there', async () => {
    for (const [width, height] of [
      [1280, 800],
      [800, 600]
    ] as const) {
      await page.setViewportSize({ width, height });
      await page
        .getByRole('navigation', { name: 'Sections' })
        .getByRole('link', { name: 'Tools', exact: true })
        .click();
      const form = await openToolForm(tools, 'slow');
      await form.getByLabel('durationMs').fill('600000');
      await form.getByRole('button', { name: 'Call tool' }).click();
      const started = form.locator('.started-task');
      await started.locator('[data-status="working"]').waitFor();
      await started.getByRole('button', { name: 'Show it under Tool calls' }).click();
      const card = toolCallCard(page.getByRole('region', { name: 'Tool calls' }), 'slow');
      const seen = await card.evaluate((li) => {
        const style = getComputedStyle(li);
        const ring = parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
        return {
          focused: li === document.activeElement,
          ringTop: li.getBoundingClientRect().top - ring,
          barBottom: document.querySelector('.top-area')!.getBoundingClientRect().bottom
        };
      });
      assert.ok(seen.focused, `at ${width}: the card takes the focus`);
      assert.ok(
        seen.ringTop >= seen.barBottom,
        `at ${width}: the card's focus ring begins at ${seen.ringTop} px, the bar ends at ${seen.barBottom} px`
      );
    }
    assert.deepEqual(d.pageErrors, []);
  });

  it('leaves room under the “Keep history” heading, and none to spare under a task detail’s title', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'History', exact: true })
      .click();
    const retention = page.getByRole('form', { name: 'Retention' });
    await retention.getByLabel('Days').and(page.locator('[value="30"]')).waitFor();
    const heading = (await retention.getByRole('heading', { name: 'Keep history' }).boundingBox())!;
    const label = (await retention.locator('label').first().boundingBox())!;
    const underHeading = label.y - (heading.y + heading.height);
    assert.ok(underHeading >= 8, `${underHeading} px between the heading and the Days label`);

    const { outboundId } = d.fixture.host.requestor.list().find((task) => task.toolName === 'slow')!;
    await page.evaluate((key) => (location.hash = `#tasks/${encodeURIComponent(key)}`), `requested:${outboundId}`);
    const detail = page.locator('section.task-detail');
    await detail.locator('.meta', { hasText: 'requested of' }).waitFor();
    const seen = await detail.evaluate((section) => ({
      title: section.querySelector('#task-detail-title')!.getBoundingClientRect().bottom,
      meta: section.querySelector(':scope > .meta')!.getBoundingClientRect().top
    }));
    const underTitle = seen.meta - seen.title;
    assert.ok(underTitle <= 20, `${underTitle} px between the title and the line under it`);
    assert.deepEqual(d.pageErrors, []);
  });
});

describe('the first Tab on a freshly loaded Desk', () => {
  let d: DeskFixture;
  let browser: Browser | undefined;
  let page: Page;

  before(async () => {
    d = await startDesk({}, { viewport: { width: 1280, height: 800 } });
    ({ browser, page } = await openWithScrollbars(d, { width: 1280, height: 800 }));
  });

  after(async () => {
    await browser?.close();
    await d?.close();
  });

  it('goes to “Skip to content”, then the sections; a screen reached by its tab still puts the focus on its heading', async () => {
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-screen')), 'assistant');
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'History', exact: true })
      .click();
    await page.waitForFunction(() => document.activeElement?.id === 'heading-history');
    assert.deepEqual(d.pageErrors, []);
  });
});

/** Where the bar, the name "Taskdesk" and each tab's label are, across the window. */
interface BarLine {
  /** The window's width, scrollbar included; the page's, beside the scrollbar; whether it scrolls. */
  window: number;
  scrollport: number;
  scrolls: boolean;
  /** The bar's left and right edges. */
  barLeft: number;
  barRight: number;
  /** The right edge of the name "Taskdesk". */
  brandRight: number;
  /** Each tab's label: its left and right edges. */
  labels: { left: number; right: number }[];
}

/** Measures the bar of the screen shown. */
function barLine(page: Page): Promise<BarLine> {
  // No function declared inside the page function: tsx would name it with a helper the page lacks.
  return page.evaluate(() => {
    const [brand, ...labels] = [
      document.querySelector('.topbar h1')!,
      ...Array.from(document.querySelectorAll('.sections a'), (a) => a.firstChild!)
    ].map((node) => {
      const range = document.createRange();
      range.selectNodeContents(node);
      const box = range.getBoundingClientRect();
      return { left: box.left, right: box.right };
    });
    const bar = document.querySelector('.topbar')!.getBoundingClientRect();
    const root = document.documentElement;
    return {
      window: innerWidth,
      scrollport: root.clientWidth,
      scrolls: root.scrollHeight > root.clientHeight,
      barLeft: bar.left,
      barRight: bar.right,
      brandRight: brand!.right,
      labels
    };
  });
}

describe('the bar of a Desk where nothing waits, in a window that shows scrollbars', () => {
  let d: DeskFixture;
  let browser: Browser | undefined;
  let page: Page;

  before(async () => {
    d = await startDesk({}, { viewport: { width: 1280, height: 800 } });
    ({ browser, page } = await openWithScrollbars(d, { width: 1280, height: 800 }));
  });

  after(async () => {
    await browser?.close();
    await d?.close();
  });

  it('names each tab by its label alone (no “0” read out), with even gaps between the tabs and a wider one after the name', async () => {
    const nav = page.getByRole('navigation', { name: 'Sections' });
    for (const name of ['Assistant', 'Inbox']) {
      const tab = nav.getByRole('link', { name, exact: true });
      assert.equal(await tab.textContent(), name, `the ${name} tab's text`);
      assert.equal(await tab.locator('.badge').count(), 0, `no badge on ${name} while nothing waits`);
    }
    assert.match(await nav.ariaSnapshot(), /link "Assistant"/);
    assert.doesNotMatch(await nav.ariaSnapshot(), /\b0\b/, 'no zero count in the accessibility tree');

    for (const width of [800, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await nav.getByRole('link', { name: 'Inbox', exact: true }).click();
      await page.getByRole('heading', { level: 2, name: 'Inbox', exact: true }).waitFor();
      const line = await barLine(page);
      const gaps = line.labels.slice(1).map((label, i) => label.left - line.labels[i]!.right);
      const [least, most] = [Math.min(...gaps), Math.max(...gaps)];
      assert.ok(
        most - least <= 1,
        `at ${width}: the gaps between the tabs' labels are ${gaps.map(Math.round).join(', ')} px`
      );
      const afterName = line.labels[0]!.left - line.brandRight;
      assert.ok(
        afterName >= least + 8,
        `at ${width}: ${Math.round(afterName)} px between “Taskdesk” and “Assistant”, ${Math.round(least)} px between tabs`
      );
    }
    assert.deepEqual(d.pageErrors, []);
  });

  it('runs the bar from the window’s left edge to the scrollbar’s track on a screen that does not scroll, at 800 and 1280 px', async () => {
    for (const width of [800, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await page
        .getByRole('navigation', { name: 'Sections' })
        .getByRole('link', { name: 'Inbox', exact: true })
        .click();
      await page.getByRole('heading', { level: 2, name: 'Inbox', exact: true }).waitFor();
      const line = await barLine(page);
      assert.equal(line.scrolls, false, `at ${width}: the Inbox does not scroll`);
      assert.equal(line.barLeft, 0, `at ${width}: the bar's left edge`);
      // The track is always there (classic scrollbars), so the bar ends where it begins, as on a screen that scrolls.
      assert.ok(line.scrollport < line.window, `at ${width}: the page is ${line.scrollport} px of ${line.window}`);
      assert.equal(
        line.barRight,
        line.scrollport,
        `at ${width}: the bar ends at ${line.barRight} px, the page at ${line.scrollport}`
      );
    }
    assert.deepEqual(d.pageErrors, []);
  });
});
