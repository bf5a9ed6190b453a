import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import type { HostConfig } from '../../app/host/host.js';
import { startHostWith, type InMemoryHostFixture, type PeerServer } from '../support/host-fixture.js';
import { buildRenderer, openDesk } from './renderer-build.js';

/** A real core joined to in-memory peers, and the Desk open on it in headless Chromium. */
export interface DeskFixture {
  fixture: InMemoryHostFixture;
  server: BrowserServer;
  browser: Browser;
  page: Page;
  /** Page errors and console errors seen so far: a test ends by asserting there were none. */
  pageErrors: string[];
  /** Closes the browser, browser mode and the host, and removes the data directory and any build of its own. */
  close(): Promise<void>;
}

/** Options of {@link startDesk}: the host's (a clock, a data directory…) and the page's. */
export interface DeskFixtureOptions {
  host?: Partial<HostConfig> & { dir?: string };
  viewport?: { width: number; height: number };
  context?: BrowserContextOptions;
  beforeLoad?: (page: Page) => Promise<void>;
}

/**
 * The setup most Desk e2e files share: the renderer build, a host with `peers` connected, and
 * the Desk open and ready on it. Call in `before`, and `close` in `after`.
 */
export async function startDesk(
  peers: Record<string, PeerServer>,
  options: DeskFixtureOptions = {}
): Promise<DeskFixture> {
  const built = await buildRenderer();
  const closers: Array<() => Promise<unknown> | void> = [() => built.remove()];
  const close = async () => {
    for (const step of closers.splice(0).reverse()) await Promise.resolve(step()).catch(() => undefined);
  };
  try {
    const fixture = await startHostWith(peers, options.host ?? {});
    closers.push(() => fixture.dispose());
    const pageErrors: string[] = [];
    const { server, browser, page } = await openDesk(fixture.host, built.dir, pageErrors, {
      ...(options.viewport && { viewport: options.viewport }),
      ...(options.context && { context: options.context }),
      ...(options.beforeLoad && { beforeLoad: options.beforeLoad })
    });
    closers.push(
      () => server.close(),
      () => browser.close()
    );
    return { fixture, server, browser, page, pageErrors, close };
  } catch (error) {
    await close();
    throw error;
  }
}
