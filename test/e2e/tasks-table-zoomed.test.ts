import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import { peerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

/** Chromium's 110 % zoom: a window 1649 px wide is 1499.09 CSS px, between 1499 and 1500. */
const ZOOM = 1.1;

/**
 * The Tasks table in a window whose width in CSS pixels is not a whole number, as browser zoom (or
 * Electron's) makes it: at 1499.09 px a `max-width: 1499px` and a `min-width: 1500px` both fail,
 * and the table showed its eight columns in the screen's narrow column, scrolling sideways.
 *
 * A viewport's width is whole CSS pixels in Playwright (its deviceScaleFactor leaves them whole);
 * a zoomed frame is not: the Desk is shown in an iframe with CSS `zoom`, which Chromium passes on
 * to the framed page as its zoom, as the browser's own zoom does. The Desk refuses to be framed,
 * so this test lets its own page (same origin) frame it.
 */
describe('the Tasks table at a zoomed, fractional window width, in headless Chromium against the real core', () => {
  const asker = peerServer('asker');
  let d: DeskFixture;
  let zoomed: Page;
  let desk: FrameLocator;
  let framed: Frame;
  const errors: string[] = [];

  before(async () => {
    d = await startDesk({ asker }, { viewport: { width: 1800, height: 1000 } });
    const context = d.page.context();
    const { origin, search } = new URL(d.server.url);
    await context.route(
      (url) => url.origin === origin && url.pathname === '/',
      async (route) => {
        const response = await route.fetch();
        const headers = { ...response.headers() };
        delete headers['x-frame-options'];
        headers['content-security-policy'] = (headers['content-security-policy'] ?? '').replace(
          "frame-ancestors 'none'",
          "frame-ancestors 'self'"
        );
        await route.fulfill({ response, headers });
      }
    );
    await context.route(`${origin}/zoomed-window.html`, (route) =>
      route.fulfill({
        contentType: 'text/html; charset=utf-8',
        body: `<!doctype html><title>Zoomed</title><style>body { margin: 0 } iframe { border: 0; zoom: ${ZOOM}; height: 800px }</style><iframe title="Taskdesk" src="/${search}"></iframe>`
      })
    );
    zoomed = await context.newPage();
    zoomed.on('pageerror', (error) => errors.push(error.message));
    zoomed.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await zoomed.goto(`${origin}/zoomed-window.html`);
    desk = zoomed.frameLocator('iframe');
    await desk.locator('#app[data-ready="true"]').waitFor();
    framed = (await (await zoomed.locator('iframe').elementHandle()).contentFrame())!;
  });

  after(async () => {
    await zoomed?.close();
    await d?.close();
  });

  /** Makes the framed Desk `width` of its own (zoomed) CSS px wide, and waits until it is laid out so. */
  const frameWidth = async (width: number) => {
    await zoomed.locator('iframe').evaluate((frame: HTMLIFrameElement, w) => (frame.style.width = `${w}px`), width);
    await framed.waitForFunction((w) => Math.abs(innerWidth - w) < 1, width);
  };

  it('shows the five columns that fit the screen’s column at 1499.09 px, and eight from 1500 px', async () => {
    const question = 'Which of the regional offices should the quarterly summary of open orders and returns go to?';
    const asked = await asker.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: question,
          requestedSchema: { type: 'object', properties: { region: { type: 'string' } } },
          task: { ttl: 600_000 }
        }
      },
      CreateTaskResultSchema
    );
    await desk.getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = desk.getByRole('region', { name: 'Tasks', exact: true });
    const row = tasks.locator(`tr[data-task-key="received:${asked.task.taskId}"]`);
    await row.waitFor();

    for (const [width, columns] of [
      [1499.09, 5],
      [1500.91, 8]
    ] as const) {
      await frameWidth(width);
      const at = `at ${width} px`;
      const between = await framed.evaluate(
        (w) => matchMedia(`(${Math.floor(w)}px < width < ${Math.floor(w) + 1}px)`).matches,
        width
      );
      assert.ok(between, `${at}: the framed Desk's width is not between whole pixels`);
      const seen = await tasks.evaluate((screen) => {
        const wrap = screen.querySelector('.table-wrap')!;
        return {
          columns: Array.from(screen.querySelectorAll('table.tasks thead th')).filter(
            (th) => th.getBoundingClientRect().width > 0
          ).length,
          sideways: wrap.scrollWidth - wrap.clientWidth
        };
      });
      assert.equal(seen.columns, columns, `${at}: ${seen.columns} columns`);
      assert.ok(seen.sideways <= 0, `${at}: the table scrolls ${seen.sideways} px sideways in its frame`);
      // Below 1500 px the server's name is said under the title, the Server column left out.
      assert.equal(
        await row.locator('.task-meta', { hasText: 'Received from Server asker' }).isVisible(),
        columns === 5,
        `${at}: the name under the title`
      );
      assert.equal(await row.locator('td.server').isVisible(), columns === 8, `${at}: the Server column`);
    }
    assert.deepEqual([...d.pageErrors, ...errors], []);
  });
});
