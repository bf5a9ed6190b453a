import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Locator, Page } from 'playwright-core';
import { createHost, type Host } from '../../app/host/host.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { peerServer, tempDir } from '../support/host-fixture.js';
import { buildRenderer, openDesk } from './renderer-build.js';

const STAYS = 'It stays disconnected until you press Connect, even after Taskdesk restarts.';

/**
 * The Servers screen's Disconnect of a server set to connect when Taskdesk starts: the card says
 * the Disconnect holds over a restart, and after one the server is still disconnected, saying
 * so, until the person presses Connect.
 */
describe('Disconnect over a restart of Taskdesk, in headless Chromium against the real core', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  const data = tempDir();
  const pageErrors: string[] = [];
  const closers: Array<() => Promise<unknown>> = [];

  /** Taskdesk starting over the one data directory, connecting its servers as their settings say. */
  const start = (): Host => {
    const host = createHost({
      dataDir: data.dir,
      keyStore: new InMemoryKeyStore(),
      transportFactory: () => {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        void peerServer('echo').server.connect(serverSide);
        return clientSide;
      }
    });
    host.start();
    return host;
  };
  /** The Desk open on `host`, on the Servers screen; `close` closes it and Taskdesk. */
  const open = async (host: Host): Promise<{ page: Page; close: () => Promise<void> }> => {
    const { server, browser, page } = await openDesk(host, built.dir, pageErrors, {
      viewport: { width: 1200, height: 1000 }
    });
    const close = async () => {
      await browser.close();
      await server.close();
      await host.close();
    };
    closers.push(close);
    await page.locator('nav').getByRole('link', { name: 'Servers', exact: true }).click();
    return { page, close };
  };
  const text = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
  /** How a card's reason is shown: its classes and its colour as drawn. */
  const shown = (reason: Locator) =>
    reason.evaluate((element) => ({ className: element.className, color: getComputedStyle(element).color }));
  /** The colour the page gives a reason said in red (a failure's). */
  const danger = (page: Page) =>
    page.evaluate(() => {
      const probe = document.body.appendChild(document.createElement('p'));
      probe.className = 'reason';
      const color = getComputedStyle(probe).color;
      probe.remove();
      return color;
    });

  before(async () => {
    built = await buildRenderer();
  });
  after(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    data.remove();
    built?.remove();
  });

  it('says the Disconnect holds over a restart, keeps it so after one, until Connect', async () => {
    const first = start();
    await first.call('servers.add', {
      id: 'echo',
      name: 'Echo',
      transport: { type: 'stdio', command: 'in-memory-echo' },
      autoConnect: true
    });
    assert.equal((await first.call('servers.connect', { serverId: 'echo' })).state.status, 'ready');
    const before = await open(first);
    const firstCard = before.page.locator('li[data-server-id="echo"]');
    await firstCard.locator('[data-status="ready"]').waitFor();
    assert.equal(await firstCard.getByText(STAYS).count(), 0, 'connected: nothing to say');
    await firstCard.getByRole('button', { name: 'Disconnect Echo' }).click();
    await firstCard.locator('[data-status="closed"]').waitFor();
    assert.equal(await text(firstCard.locator('.reason')), 'Disconnected by you');
    // A Disconnect is no failure: said in the muted colour, not in red.
    const muted = await shown(firstCard.locator('.reason'));
    assert.equal(muted.className, 'reason reason-closed');
    assert.notEqual(muted.color, await danger(before.page));
    assert.deepEqual(await firstCard.locator('.reason-next').allTextContents(), [STAYS]);
    await before.close();

    // Taskdesk starts again: the server is still disconnected, and its card says so, and why.
    const { page } = await open(start());
    const echo = page.locator('li[data-server-id="echo"]');
    // Not connecting either: nothing was started (an idle card does not change by itself).
    await echo.waitFor();
    assert.equal(await echo.locator('.card-header [data-status]').getAttribute('data-status'), 'idle');
    assert.equal(await text(echo.locator('.reason')), 'Disconnected by you');
    // Still no failure after a restart: shown as before it, beside "Not connected", not in red.
    assert.deepEqual(await shown(echo.locator('.reason')), muted);
    assert.deepEqual(await echo.locator('.reason-next').allTextContents(), [STAYS]);
    // Its setting is as the person left it: the Disconnect did not change it.
    await echo.getByRole('button', { name: 'Edit Echo' }).click();
    assert.equal(
      await echo
        .getByRole('form', { name: 'Edit Echo' })
        .getByRole('checkbox', { name: 'Connect when Taskdesk starts' })
        .isChecked(),
      true
    );
    await echo.getByRole('button', { name: 'Edit Echo' }).click();

    await echo.getByRole('button', { name: 'Connect Echo' }).click();
    await echo.locator('[data-status="ready"]').waitFor();
    assert.equal(await echo.locator('.reason, .reason-next').count(), 0);
    assert.deepEqual(pageErrors, []);
  });
});
