import type { Browser, Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { createHost, type Host } from '../../app/host/host.js';
import { InMemoryKeyStore, type KeyStore } from '../../app/sampling/key-store.js';
import { tempDir } from '../support/host-fixture.js';
import { buildRenderer, openDesk } from './renderer-build.js';

/** A host whose apps' configs are read from a home of its own, and the Desk open on its Servers screen. */
export interface ImportDesk {
  host: Host;
  server: BrowserServer;
  browser: Browser;
  page: Page;
  /** Page errors and console errors seen so far: a test ends by asserting there were none. */
  pageErrors: string[];
  /** The home the Import panel looks in (Claude Desktop's, Cursor's and VS Code's places under it). */
  home: string;
  close(): Promise<void>;
}

/**
 * The setup the Import panel's e2e files share: the renderer build, a host with no server and a
 * home of its own (`writeHome` puts the apps' configs there first, if any), and the Desk open on
 * the Servers screen with the Import panel in sight. Call in `before`, and `close` in `after`.
 */
export async function openImportDesk(options: {
  viewport: { width: number; height: number };
  writeHome?: (home: string) => void;
  /** Where the host keeps secrets (an imported server's secret env vars); by default one in memory. */
  keyStore?: KeyStore;
}): Promise<ImportDesk> {
  const built = await buildRenderer();
  const data = tempDir();
  const home = tempDir('taskdesk-import-home-');
  const closers: Array<() => Promise<unknown> | void> = [
    () => built.remove(),
    () => data.remove(),
    () => home.remove()
  ];
  const close = async () => {
    for (const step of closers.splice(0).reverse()) await Promise.resolve(step()).catch(() => undefined);
  };
  try {
    options.writeHome?.(home.dir);
    const host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      keyStore: options.keyStore ?? new InMemoryKeyStore(),
      loginEnv: async () => ({ ...process.env }),
      importPlaces: { home: home.dir, platform: 'linux' }
    });
    closers.push(() => host.close());
    const pageErrors: string[] = [];
    const { server, browser, page } = await openDesk(host, built.dir, pageErrors, { viewport: options.viewport });
    closers.push(
      () => server.close(),
      () => browser.close()
    );
    await page.locator('nav').getByRole('link', { name: 'Servers', exact: true }).click();
    await page.getByRole('region', { name: 'Import from other apps' }).waitFor();
    return { host, server, browser, page, pageErrors, home: home.dir, close };
  } catch (error) {
    await close();
    throw error;
  }
}
