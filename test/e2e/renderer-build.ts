import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { startBrowserServer, type BrowserServer } from '../../app/browser/browser-server.js';
import type { Host } from '../../app/host/host.js';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { copyRendererAssets } from '../../app/cli/renderer-assets.js';

/** The repository root. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Chromium flags for a quiet headless run in a container. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync'
];

/**
 * Compiles the renderer with its own tsconfig into a fresh temp directory and copies its
 * static files beside it: the same layout as build/renderer, without touching build/.
 */
export async function buildRenderer(): Promise<{ dir: string; remove: () => void }> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'taskdesk-renderer-'));
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
  try {
    await promisify(execFile)(
      process.execPath,
      [
        tsc,
        '-p',
        path.join(root, 'renderer/tsconfig.json'),
        '--outDir',
        out,
        '--tsBuildInfoFile',
        path.join(out, 'renderer.tsbuildinfo')
      ],
      { cwd: root }
    );
  } catch (error) {
    fs.rmSync(out, { recursive: true, force: true });
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`The renderer does not compile:\n${stdout}${stderr}`);
  }
  const dir = path.join(out, 'renderer');
  copyRendererAssets(path.join(root, 'renderer'), dir);
  return { dir, remove: () => fs.rmSync(out, { recursive: true, force: true }) };
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
  options: { viewport?: { width: number; height: number }; failedResponses?: boolean } = {}
): Promise<{ server: BrowserServer; browser: Browser; page: Page }> {
  const server = await startBrowserServer({ host, rendererDir, port: 0 });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const page = await browser.newPage(options.viewport ? { viewport: options.viewport } : {});
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

/** Opens a tool's call form on the Tools screen and returns it. */
export async function openToolForm(tools: Locator, name: string): Promise<Locator> {
  const item = tools.locator(`li[data-tool="${name}"]`);
  await item.getByRole('button', { name: `Call ${name}…` }).click();
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
