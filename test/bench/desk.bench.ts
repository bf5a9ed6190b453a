/**
 * Desk benchmark: the built renderer in headless Chromium, over browser mode, against a host
 * with N pending inbox items and N finished tasks, for N = 10 and N = 1,000.
 *
 * - render: from navigation to the first Inbox card on screen (the page loads, the store
 *   fetches its snapshot, the Inbox renders), median of a few loads;
 * - answer: from answering the focused item (Decline) to focus on the next item's first
 *   control, median of a few answers.
 *
 * The Inbox shows a page of cards whatever N is, and the Tasks table is virtualized, so both
 * ratios should stay near 1. Bars: render ≤ 3, answer ≤ 2.
 *
 * History, with H = 100 and H = 10,000 finished tasks in it:
 * - history: from going to the History screen to its first page of entries on screen;
 * - search: from typing a word that one entry holds to that one entry alone on screen.
 * The host pages and filters (`history.list`, 50 a page), so the ratio 10,000 vs 100 measures
 * the host's filtering and the page's one page of rows.
 *
 * Run: npm run bench:desk
 */
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { startBrowserServer } from '../../app/browser/browser-server.js';
import { setHostHeapGrowth } from '../../app/host/heap-growth.js';
import { buildRenderer } from '../e2e/renderer-build.js';
import { peerServer, startHostWith } from '../support/host-fixture.js';
import { launchTestBrowser } from '../support/test-browser.js';

// The heap growth main/main.ts and browser mode set before they create the host.
setHostHeapGrowth();

const SIZES = [10, 1000] as const;
const LOADS = 5;
const ANSWERS = 7;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function question(i: number) {
  return {
    method: 'elicitation/create' as const,
    params: {
      mode: 'form',
      message: `Question ${i}`,
      requestedSchema: { type: 'object', properties: { answer: { type: 'string', title: 'Answer' } } },
      task: { ttl: 3_600_000 }
    }
  };
}

/**
 * The time from answering the focused card to focus inside the next one, measured in the page.
 * A string, not a function: tsx would wrap a function with helpers the page does not have.
 */
const ANSWER_IN_PAGE = `new Promise((resolve, reject) => {
  const cards = document.querySelectorAll('[data-inbox-id]');
  const [current, next] = [cards[0], cards[1]];
  if (!current || !next) return reject(new Error('fewer than two cards'));
  const decline = [...current.querySelectorAll('button')].find((b) => b.textContent === 'Decline');
  if (!decline) return reject(new Error('no Decline button'));
  const nextId = next.dataset.inboxId;
  decline.focus();
  const onFocus = (event) => {
    if (event.target.closest('[data-inbox-id]')?.dataset.inboxId !== nextId) return;
    document.removeEventListener('focusin', onFocus);
    resolve(performance.now() - start);
  };
  document.addEventListener('focusin', onFocus);
  const start = performance.now();
  decline.click();
})`;

const answerOnce = (page: Page): Promise<number> => page.evaluate<number>(ANSWER_IN_PAGE);

const built = await buildRenderer();
const browser = await launchTestBrowser();
const results = new Map<number, { render: number; answer: number }>();
const HISTORY_SIZES = [100, 10_000] as const;
const historyResults = new Map<number, { list: number; search: number }>();

/** H finished questions in the history; the median times to show its first page and one search hit. */
async function measureHistory(h: number): Promise<{ list: number; search: number }> {
  const peer = peerServer(`history-${h}`);
  const fixture = await startHostWith(
    { bench: peer },
    { policy: { maxActiveTasksPerServer: 100_000, operationsPerSecond: 1_000_000, operationsBurst: 1_000_000 } }
  );
  // In batches: 10,000 requests at once would only measure the in-memory transport's queue.
  for (let from = 0; from < h; from += 1000) {
    const count = Math.min(1000, h - from);
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        peer.server.request(
          { ...question(from + i), params: { ...question(from + i).params, message: `Question q${from + i}z` } },
          CreateTaskResultSchema
        )
      )
    );
    await Promise.all(
      fixture.host.inbox
        .list()
        .map((item) => fixture.host.call('inbox.answer', { id: item.id, answer: { action: 'decline' } }))
    );
  }
  const total = (await fixture.host.call('history.list', { limit: 1 })).total;
  const server = await startBrowserServer({ host: fixture.host, rendererDir: built.dir, port: 0 });
  const page = await browser.newPage({ viewport: { width: 1100, height: 1000 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const lists: number[] = [];
  const searches: number[] = [];
  const target = `q${Math.floor(h / 2)}z`;
  for (let i = 0; i < LOADS; i++) {
    await page.goto(server.url);
    await page.locator('#app[data-ready="true"]').waitFor();
    const history = page.locator('#screen-history');
    let start = performance.now();
    await page.getByRole('link', { name: 'History' }).click();
    await history.locator('.history-list li').nth(49).waitFor();
    lists.push(performance.now() - start);
    start = performance.now();
    await history.getByLabel('Search').fill(target);
    await history.getByText('1 entry', { exact: true }).waitFor();
    searches.push(performance.now() - start);
  }
  if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
  const list = median(lists);
  const search = median(searches);
  console.log(
    `H=${h}: ${total} history entries; first History page ${list.toFixed(0)} ms (${lists.map((r) => r.toFixed(0)).join(', ')}), ` +
      `search to one hit ${search.toFixed(0)} ms (${searches.map((r) => r.toFixed(0)).join(', ')})`
  );
  await page.close();
  await server.close();
  await fixture.dispose();
  return { list, search };
}
try {
  for (const n of SIZES) {
    const peer = peerServer(`bench-${n}`);
    const fixture = await startHostWith(
      { bench: peer },
      { policy: { maxActiveTasksPerServer: 100_000, operationsPerSecond: 1_000_000, operationsBurst: 1_000_000 } }
    );
    // N finished tasks: asked, then declined.
    await Promise.all(Array.from({ length: n }, (_, i) => peer.server.request(question(i), CreateTaskResultSchema)));
    await Promise.all(
      fixture.host.inbox
        .list()
        .map((item) => fixture.host.call('inbox.answer', { id: item.id, answer: { action: 'decline' } }))
    );
    // N + the answers the benchmark gives, pending.
    await Promise.all(
      Array.from({ length: n + ANSWERS }, (_, i) => peer.server.request(question(n + i), CreateTaskResultSchema))
    );
    const tasks = (await fixture.host.call('tasks.list', {})).length;
    const server = await startBrowserServer({ host: fixture.host, rendererDir: built.dir, port: 0 });
    const page = await browser.newPage({ viewport: { width: 1100, height: 1000 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    const renders: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const start = performance.now();
      await page.goto(server.url);
      await page.locator('[data-inbox-id]').first().waitFor();
      renders.push(performance.now() - start);
    }
    const answers: number[] = [];
    for (let i = 0; i < ANSWERS; i++) answers.push(await answerOnce(page));
    if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
    const render = median(renders);
    const answer = median(answers);
    results.set(n, { render, answer });
    console.log(
      `N=${n}: ${fixture.host.inbox.list().length} pending, ${tasks} tasks; first Inbox render ${render.toFixed(0)} ms ` +
        `(${renders.map((r) => r.toFixed(0)).join(', ')}), answer to next focus ${answer.toFixed(1)} ms ` +
        `(${answers.map((a) => a.toFixed(1)).join(', ')})`
    );
    await page.close();
    await server.close();
    await fixture.dispose();
  }
  for (const h of HISTORY_SIZES) historyResults.set(h, await measureHistory(h));
} finally {
  await browser.close();
  built.remove();
}
const small = results.get(10)!;
const large = results.get(1000)!;
const fewHistory = historyResults.get(100)!;
const manyHistory = historyResults.get(10_000)!;
console.log(
  `history list 10000 vs 100: ${(manyHistory.list / fewHistory.list).toFixed(2)}, search ${(manyHistory.search / fewHistory.search).toFixed(2)}`
);
// One RESULT line: the figures before, and the History ratio (the slower of list and search) last.
console.log(
  `RESULT render_1000_vs_10=${(large.render / small.render).toFixed(2)} answer_1000_vs_10=${(large.answer / small.answer).toFixed(2)} ` +
    `history_10000_vs_100=${Math.max(manyHistory.list / fewHistory.list, manyHistory.search / fewHistory.search).toFixed(2)}`
);
