import type { Page } from 'playwright-core';
import { startHostWith, tempDir, type InMemoryHostFixture, type PeerServer } from '../support/host-fixture.js';
import { buildRenderer, openDesk } from './renderer-build.js';

/**
 * For an e2e test that stops and starts Taskdesk again on one data directory: `build` in
 * `before`, `close` in `after`. `host` starts a host over the directory (a test stops the ones
 * it is done with; `close` disposes of the last), `open` opens the Desk on one in Chromium (its
 * `beforeLoad` runs on the page before the Desk loads, as openDesk's does).
 */
export function restartFixture() {
  const temp = tempDir();
  const pageErrors: string[] = [];
  const closers: Array<() => Promise<unknown>> = [];
  let built: Awaited<ReturnType<typeof buildRenderer>> | undefined;
  let last: InMemoryHostFixture | undefined;
  const host = async (peers: Record<string, PeerServer>): Promise<InMemoryHostFixture> =>
    (last = await startHostWith(peers, { dir: temp.dir }));
  const open = async (
    fixture: InMemoryHostFixture,
    options: { beforeLoad?: (page: Page) => Promise<void> } = {}
  ): Promise<Page> => {
    const { server, browser, page } = await openDesk(fixture.host, built!.dir, pageErrors, options);
    closers.push(
      () => browser.close(),
      () => server.close()
    );
    return page;
  };
  return {
    dir: temp.dir,
    /** Page errors and console errors seen so far. */
    pageErrors,
    build: async () => {
      built = await buildRenderer();
    },
    host,
    open,
    /**
     * Taskdesk closes (its page first) and starts again on the same data directory with `peers`,
     * and the Desk is opened on it: what a person sees after a restart.
     */
    again: async (
      page: Page,
      previous: InMemoryHostFixture,
      peers: Record<string, PeerServer>
    ): Promise<{ fixture: InMemoryHostFixture; page: Page }> => {
      await page.close();
      await previous.stop();
      const fixture = await host(peers);
      return { fixture, page: await open(fixture) };
    },
    close: async () => {
      for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
      await last?.dispose();
      temp.remove();
      built?.remove();
    }
  };
}

/** Resolves once the page has told the host to keep `values` as a draft, and the host kept it. */
export function draftKept(page: Page, values: Record<string, unknown>): Promise<unknown> {
  return page.waitForResponse(async (response) => {
    if (!response.url().endsWith('/api/call')) return false;
    const body = response.request().postDataJSON() as { method?: string; params?: { values?: unknown } };
    if (body.method !== 'inbox.keepDraft' || JSON.stringify(body.params?.values) !== JSON.stringify(values))
      return false;
    const reply = (await response.json()) as { ok: boolean; result?: { kept?: boolean } };
    return reply.ok && reply.result?.kept === true;
  });
}
