import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { launchTestBrowser } from '../support/test-browser.js';
import { startBrowserServer, type BrowserServer } from '../../app/browser/browser-server.js';
import type { Host } from '../../app/host/host.js';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Where `npm test` builds the renderer once for every e2e test file (see `prepare-e2e.ts`). */
export const PREPARED_RENDERER = path.join(root, 'build/e2e/renderer');
const PREPARED_STAMP = path.join(root, 'build/e2e/renderer.stamp');

/** A fingerprint of the renderer's sources and of the contract it is compiled against. */
function rendererSourcesHash(): string {
  const hash = createHash('sha256');
  for (const dir of ['renderer', 'app/contract']) {
    for (const file of fs.readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).sort()) {
      const full = path.join(root, dir, file);
      if (!fs.statSync(full).isFile()) continue;
      hash.update(`${dir}/${file}\0`).update(fs.readFileSync(full)).update('\0');
    }
  }
  // The config shapes the bundle too.
  hash.update('vite.config.ts\0').update(fs.readFileSync(path.join(root, 'vite.config.ts')));
  return hash.digest('hex');
}

/**
 * Bundles the renderer with Vite's JS API (the project's vite.config.ts, as `npm run build`
 * does) into `outDir/renderer`, and returns that directory.
 */
async function compileRenderer(outDir: string): Promise<string> {
  const dir = path.join(outDir, 'renderer');
  // Imported here, not at the top: most e2e files use the build `npm test` prepared, and Vite's
  // import cost each of their processes about a quarter of a second.
  const { build } = await import('vite');
  try {
    await build({
      configFile: path.join(root, 'vite.config.ts'),
      root: path.join(root, 'renderer'),
      logLevel: 'error',
      build: { outDir: dir, emptyOutDir: true }
    });
  } catch (error) {
    throw new Error(`The renderer does not build: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error
    });
  }
  return dir;
}

/**
 * Builds the renderer into {@link PREPARED_RENDERER} with a stamp of its sources: run once by
 * `npm test` before the e2e files, which then share the one build.
 */
export async function prepareRenderer(): Promise<string> {
  const out = path.dirname(PREPARED_RENDERER);
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const built = await compileRenderer(fs.mkdtempSync(path.join(out, 'vite-')));
  fs.renameSync(built, PREPARED_RENDERER);
  fs.writeFileSync(PREPARED_STAMP, rendererSourcesHash());
  return PREPARED_RENDERER;
}

/**
 * The built renderer for one e2e test file: the build `npm test` prepared when its stamp still
 * matches the sources, otherwise a fresh build in a temp directory (a test file run on its own
 * after an edit), removed by `remove`.
 */
export async function buildRenderer(): Promise<{ dir: string; remove: () => void }> {
  try {
    if (fs.readFileSync(PREPARED_STAMP, 'utf8') === rendererSourcesHash()) {
      return { dir: PREPARED_RENDERER, remove: () => {} };
    }
  } catch {
    // Not prepared: build below.
  }
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'taskdesk-renderer-'));
  try {
    return { dir: await compileRenderer(out), remove: () => fs.rmSync(out, { recursive: true, force: true }) };
  } catch (error) {
    fs.rmSync(out, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Opens the desk in headless Chromium over browser mode, against `host`, and waits until it is
 * ready (the event stream is open and the first lists are in: no event can be missed). Page
 * errors and console errors, and with `failedResponses` HTTP errors too, go to `errors`.
 */
export async function openDesk(
  host: Host,
  rendererDir: string,
  errors: string[],
  options: {
    viewport?: { width: number; height: number };
    failedResponses?: boolean;
    /** Of the page's browser context, e.g. `permissions: ['notifications']`. */
    context?: BrowserContextOptions;
    /** Runs before the page loads: init scripts, `page.clock.install`. */
    beforeLoad?: (page: Page) => Promise<void>;
  } = {}
): Promise<{ server: BrowserServer; browser: Browser; page: Page }> {
  const server = await startBrowserServer({ host, rendererDir, port: 0 });
  const browser = await launchTestBrowser();
  // A context of its own (not `browser.newPage`): a test may open another tab in it.
  const context = await browser.newContext({
    ...options.context,
    ...(options.viewport && { viewport: options.viewport })
  });
  const page = await context.newPage();
  // A tab a link opened, once closed, gives the front back to the Desk (see closeOpenedPages).
  context.on('page', (opened) => opened.once('close', () => void page.bringToFront().catch(() => undefined)));
  await options.beforeLoad?.(page);
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  if (options.failedResponses) {
    page.on('response', (response) => {
      if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
    });
  }
  await page.goto(server.url);
  await page.locator('#app[data-ready="true"]').waitFor();
  return { server, browser, page };
}

/**
 * Opens a tool's call form on the Tools screen and returns it.
 *
 * The screen keeps each server's forms while another server is shown: a form opened before on
 * the server shown is open still, and is returned as it is.
 */
export async function openToolForm(tools: Locator, name: string): Promise<Locator> {
  // The shown server's card: the lists of the servers shown before are kept, hidden.
  const item = tools.locator(`li[data-tool="${name}"]`).filter({ visible: true });
  const quoted = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const toggle = item.getByRole('button', { name: new RegExp(`^(Call ${quoted}…|Close form for ${quoted})$`) });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  const form = item.getByRole('form', { name: `Call ${name}` });
  await form.waitFor();
  return form;
}

/** The card of the newest tool call of a tool in the tool-call list. */
export function toolCallCard(calls: Locator, toolName: string): Locator {
  return calls
    .locator('li[data-outbound-id]')
    .filter({ has: calls.page().locator('h3 code', { hasText: new RegExp(`^${toolName}$`) }) })
    .first();
}

/**
 * The row action buttons (Details, Cancel) of the table in `wrap` (its scroll box) that lie
 * outside it, by their labels: buttons a person would have to scroll sideways to reach.
 */
export function actionsOutOfSight(wrap: Locator): Promise<Array<string | null>> {
  // No function declared inside the page function: tsx would name it with a helper the page lacks.
  return wrap.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return Array.from(element.querySelectorAll('td.row-actions button'))
      .filter((button) => {
        const rect = button.getBoundingClientRect();
        return rect.left < box.left || rect.right > box.right;
      })
      .map((button) => button.getAttribute('aria-label'));
  });
}

/**
 * The room between a box's border and what shows inside it, above the first child and below the
 * last (children with no size, such as hidden ones, left out): a card's two gaps are to match.
 */
export function edgeGaps(box: Locator): Promise<{ top: number; bottom: number }> {
  // No function declared inside the page function: tsx would name it with a helper the page lacks.
  return box.evaluate((element) => {
    const outer = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    const shown = Array.from(element.children)
      .map((child) => child.getBoundingClientRect())
      .filter((rect) => rect.height > 0);
    return {
      top: Math.min(...shown.map((rect) => rect.top)) - outer.top - parseFloat(style.borderTopWidth),
      bottom: outer.bottom - parseFloat(style.borderBottomWidth) - Math.max(...shown.map((rect) => rect.bottom))
    };
  });
}

/** The accessible description Chromium computes for the element (as a screen reader gets it). */
export async function accessibleDescription(locator: Locator): Promise<string | undefined> {
  const page = locator.page();
  const cdp = await page.context().newCDPSession(page);
  try {
    await locator.evaluate((element) => element.setAttribute('data-description-probe', ''));
    const { root: document } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', {
      nodeId: document.nodeId,
      selector: '[data-description-probe]'
    });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    return nodes[0]?.description?.value as string | undefined;
  } finally {
    await locator.evaluate((element) => element.removeAttribute('data-description-probe'));
    await cdp.detach();
  }
}

/**
 * Closes the pages a link opened from `page` and brings `page` to the front again, before the
 * test goes on. A page left behind another gets no animation frames in headless Chromium, so
 * every later action on it waited about 2 s for its element to be "stable" (Playwright checks it
 * over two frames): 48 s of desk.test.ts's 58.
 */
export async function closeOpenedPages(page: Page): Promise<void> {
  for (const other of page.context().pages()) if (other !== page) await other.close();
  await page.bringToFront();
}
