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
 * Run: npm run bench:desk
 */
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { startBrowserServer } from '../../app/browser/browser-server.js';
import { buildRenderer } from '../e2e/renderer-build.js';
import { peerServer, startHostWith } from '../support/host-fixture.js';
import { launchTestBrowser } from '../support/test-browser.js';

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
} finally {
  await browser.close();
  built.remove();
}
const small = results.get(10)!;
const large = results.get(1000)!;
console.log(
  `RESULT render_1000_vs_10=${(large.render / small.render).toFixed(2)} answer_1000_vs_10=${(large.answer / small.answer).toFixed(2)}`
);
