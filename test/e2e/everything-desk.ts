import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { Clock } from '../../app/core/clock.js';
import { createHost, type Host } from '../../app/host/host.js';
import { everythingServer } from '../support/everything-server.js';
import { tempDir } from '../support/host-fixture.js';
import { buildRenderer, openDesk } from './renderer-build.js';

/**
 * A real host with server-everything over stdio, connected, and the Desk on it in headless
 * Chromium; `close` ends them all and removes the data and the renderer build. A setup that
 * fails part way ends what it had made.
 */
export async function openEverythingDesk(
  pageErrors: string[],
  options: { viewport: { width: number; height: number }; clock?: Clock; beforeLoad?: (page: Page) => Promise<void> }
): Promise<{ host: Host; page: Page; close: () => Promise<void> }> {
  const data = tempDir();
  const steps: Array<() => Promise<unknown> | void> = [() => data.remove()];
  const close = async () => {
    for (const step of steps.splice(0).reverse()) await Promise.resolve(step()).catch(() => undefined);
  };
  try {
    const built = await buildRenderer();
    steps.push(() => built.remove());
    const host = createHost({
      dataDir: data.dir,
      ...(options.clock && { clock: options.clock }),
      autoConnect: false,
      servers: [everythingServer]
    });
    steps.push(() => host.close());
    const view = await host.connect('everything');
    assert.equal(view.state.status, 'ready', view.state.reason);
    const { server, browser, page } = await openDesk(host, built.dir, pageErrors, {
      viewport: options.viewport,
      ...(options.beforeLoad && { beforeLoad: options.beforeLoad })
    });
    steps.push(
      () => server.close(),
      () => browser.close()
    );
    return { host, page, close };
  } catch (error) {
    await close();
    throw error;
  }
}
