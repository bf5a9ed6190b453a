import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Locator, Page } from 'playwright-core';
import { systemClock } from '../../app/core/clock.js';
import { peerServer } from '../support/host-fixture.js';
import { ClockedTaskStore } from '../support/requestor-task-store.js';
import { createTaskToolPeer } from '../support/task-tool-server.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { question, scrollTo } from './detail-return.js';

/** Questions asked first (the foot of the list, newest first), then tool calls (its head). */
const QUESTIONS = 25;
const TOOL_CALLS = 30;

/**
 * A long Tasks list, virtualized: the rows drawn change as the page scrolls. Its columns stay
 * where its headers put them whichever rows are drawn, and a detail opened from a row far down
 * gives the person their place back as it closes.
 */
describe('a long Tasks list, in headless Chromium against the real core', () => {
  const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 50 });
  const { peer: work } = createTaskToolPeer({ clock: systemClock, store });
  const asker = peerServer('asker');
  let d: DeskFixture;
  let page: Page;
  let tasks: Locator;

  before(async () => {
    d = await startDesk({ asker, work }, { viewport: { width: 1280, height: 800 } });
    page = d.page;
    tasks = page.getByRole('region', { name: 'Tasks' });
    // Rows unlike each other: questions waiting for the person (a wide badge, "Cancel question…"),
    // then tool calls that failed, finished or run on (a long outcome, or "Pending").
    for (let i = 0; i < QUESTIONS; i++)
      await asker.server.request(
        question(
          i % 4 === 0
            ? `Which of the regional offices should summary ${i} of open orders and returns go to?`
            : `Which shelf for 'Ivanhoe' ${i}?`
        ),
        CreateTaskResultSchema
      );
    const tools = ['fail-rpc', 'work-required', 'fail-tool', 'report'] as const;
    const names = Array.from({ length: TOOL_CALLS }, (_, i) => tools[i % tools.length]!);
    let ending = names.filter((name) => name !== 'work-required').length;
    const allEnded = new Promise<void>((resolve) => {
      const off = d.fixture.host.on('outbound.ended', () => {
        if (--ending > 0) return;
        off();
        resolve();
      });
    });
    for (const [i, name] of names.entries()) {
      await d.fixture.host.call('tools.call', {
        serverId: 'work',
        name,
        arguments: { durationMs: name === 'work-required' ? 600_000 : 10, label: `index shard ${i}` }
      });
    }
    await allEnded;
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    await tasks
      .locator('.tasks-count')
      .getByText(`${QUESTIONS + TOOL_CALLS} tasks`)
      .waitFor();
  });

  after(async () => {
    await d?.close();
    store.close();
  });

  /** Scrolls the page to `y` (or as far as it goes) and waits until the list has drawn the rows there. */
  const scrollRowsTo = async (y: number) => {
    const bottom = await page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
    const to = Math.min(y, bottom);
    // A scroll to where the page is already fires no scroll event to wait for.
    const at = Math.abs((await page.evaluate(() => scrollY)) - to) < 1 ? to : await scrollTo(page, to);
    // A row drawn at the window's middle, or where the list begins below it.
    await page.waitForFunction(() => {
      const list = document.querySelector('table.tasks tbody')!.getBoundingClientRect();
      const probe = Math.min(Math.max(innerHeight / 2, list.top + 1), list.bottom - 1);
      return Array.from(document.querySelectorAll('table.tasks tr[data-task-key]')).some((row) => {
        const { top, bottom } = row.getBoundingClientRect();
        return top <= probe && bottom >= probe;
      });
    });
    return at;
  };

  it('keeps each column where its header puts it as the rows drawn change, at 1280 and at 900 px, with no sideways scrolling', async () => {
    for (const width of [1280, 900]) {
      await page.setViewportSize({ width, height: 800 });
      const seen = new Map<string, number[]>();
      const bottom = await page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
      for (let y = 0; ; y = Math.min(bottom, y + 1200)) {
        const at = await scrollRowsTo(y);
        const place = await tasks.evaluate((screen) => {
          const wrap = screen.querySelector('.table-wrap')!;
          return {
            columns: Array.from(screen.querySelectorAll('table.tasks thead th'))
              .filter((th) => th.getBoundingClientRect().width > 0)
              .map((th) => `${th.textContent}@${Math.round(th.getBoundingClientRect().left)}`)
              .join(' '),
            sideways: wrap.scrollWidth - wrap.clientWidth,
            page: document.documentElement.scrollWidth - document.documentElement.clientWidth
          };
        });
        seen.set(place.columns, [...(seen.get(place.columns) ?? []), at]);
        assert.ok(
          place.sideways <= 0,
          `at ${width} px, scrolled to ${at}: the table scrolls ${place.sideways} px sideways`
        );
        assert.equal(place.page, 0, `at ${width} px, scrolled to ${at}: the page scrolls sideways`);
        if (y >= bottom) break;
      }
      assert.equal(seen.size, 1, `at ${width} px the columns moved: ${JSON.stringify([...seen])}`);
      assert.ok([...seen.values()][0]!.length >= 4, `at ${width} px: scrolled through the list`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual(d.pageErrors, []);
  });

  /** The row far down the list whose top is between a quarter and half of the window, and that top. */
  const rowFarDown = async () => {
    await scrollRowsTo(3000);
    return page.evaluate(() => {
      const row = Array.from(document.querySelectorAll('table.tasks tr[data-task-key]')).find((candidate) => {
        const { top } = candidate.getBoundingClientRect();
        return top > innerHeight / 4 && top < innerHeight / 2;
      })!;
      return { key: row.getAttribute('data-task-key')!, top: row.getBoundingClientRect().top, scrollY };
    });
  };

  for (const [how, closes] of [
    ['Close', (detail: Locator) => detail.getByRole('button', { name: 'Close' }).click()],
    ['Escape', () => page.keyboard.press('Escape')],
    ['the browser’s Back', () => page.goBack()]
  ] as const)
    it(`puts a row far down back where it was after its Details and ${how}, the focus on its Details`, async () => {
      const far = await rowFarDown();
      assert.ok(far.scrollY >= 2000, `scrolled to ${far.scrollY}`);
      const row = tasks.locator(`tr[data-task-key="${far.key}"]`);
      await row.getByRole('button', { name: /^Details of / }).click();
      const detail = tasks.locator(`.task-detail[data-task-key="${far.key}"]`);
      await detail.waitFor();
      await page.waitForFunction(() => document.activeElement?.id === 'task-detail-title');
      // The detail opens at the top of the screen.
      assert.ok((await page.evaluate(() => scrollY)) < 1000, 'the detail in sight');

      await closes(detail);
      await detail.waitFor({ state: 'detached' });
      await page
        .waitForFunction(
          (key) =>
            document.activeElement?.closest('tr')?.getAttribute('data-task-key') === key &&
            document.activeElement.getAttribute('aria-label')?.startsWith('Details of '),
          far.key,
          { timeout: 5_000 }
        )
        .catch(async () =>
          assert.fail(
            `the focus is on “${await page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent)}”, the page at ${await page.evaluate(() => scrollY)}`
          )
        );
      // Where it was in the window, the page scrolled back down to it.
      await page.waitForFunction(({ key, top }) => {
        const found = document.querySelector(`tr[data-task-key="${CSS.escape(key)}"]`);
        return found !== null && Math.abs(found.getBoundingClientRect().top - top) <= 2;
      }, far);
      // (The page's own place may differ by rows above it measured meanwhile: the row's is what the person sees.)
      assert.ok((await page.evaluate(() => scrollY)) >= 1500, 'the page scrolled down to the row');
      assert.equal(await page.evaluate(() => location.hash), '#tasks');
      assert.deepEqual(d.pageErrors, []);
    });

  it('still gives the focus back to a row in sight at the top of the list, the page at its top', async () => {
    await scrollRowsTo(0);
    const first = tasks.locator('tr[data-task-key]').first();
    const key = await first.getAttribute('data-task-key');
    await first.getByRole('button', { name: /^Details of / }).click();
    await tasks.locator(`.task-detail[data-task-key="${key}"]`).waitFor();
    await tasks.locator('.task-detail').getByRole('button', { name: 'Close' }).click();
    await page.waitForFunction(
      (wanted) => document.activeElement?.closest('tr')?.getAttribute('data-task-key') === wanted,
      key
    );
    assert.equal(await page.evaluate(() => scrollY), 0);
    assert.deepEqual(d.pageErrors, []);
  });
});
