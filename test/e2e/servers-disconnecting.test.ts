import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Browser, Locator, Page, Route } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { createHost, type Host } from '../../app/host/host.js';
import { everythingServer } from '../support/everything-server.js';
import { tempDir } from '../support/host-fixture.js';
import { buildRenderer, openDesk } from './renderer-build.js';

const methodOf = (route: Route) => (route.request().postDataJSON() as { method?: string } | null)?.method;

/** Holds the page's calls of `method` until `release`; then each goes on to the real core. */
async function hold(page: Page, method: string): Promise<{ held: Promise<void>; release: () => Promise<void> }> {
  const waiting: Route[] = [];
  let arrived!: () => void;
  const held = new Promise<void>((resolve) => (arrived = resolve));
  const handler = (route: Route) => {
    if (methodOf(route) !== method) return route.fallback();
    waiting.push(route);
    arrived();
  };
  await page.route('**/api/call', handler);
  let released = false;
  return {
    held,
    // Also called once more after a failed test, so that the next one does not meet a held call.
    release: async () => {
      if (released) return;
      released = true;
      await page.unroute('**/api/call', handler);
      await Promise.all(waiting.splice(0).map((route) => route.fallback()));
    }
  };
}

/**
 * A stdio server's card while its Disconnect is on its way (its process takes a few seconds to
 * stop): the card's other actions that start work on the server wait for it, and the focus is
 * not lost on the way.
 */
describe('the Servers screen while a server disconnects, in headless Chromium against the real core', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let data: ReturnType<typeof tempDir>;
  let host: Host;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  /** The host API methods the page called, in order. */
  const called: string[] = [];

  before(async () => {
    built = await buildRenderer();
    data = tempDir();
    host = createHost({ dataDir: data.dir, autoConnect: false, loginEnv: async () => ({ ...process.env }) });
    // Saved from the Desk (not given by the host's config), so that Edit… and Remove are offered.
    await host.call('servers.add', { ...everythingServer, autoConnect: false });
    const ready = await host.call('servers.connect', { serverId: 'everything' });
    assert.equal(ready.state.status, 'ready', ready.state.reason);
    ({ server, browser, page } = await openDesk(host, built.dir, pageErrors, {
      viewport: { width: 1100, height: 1400 }
    }));
    page.on('request', (request) => {
      if (!request.url().endsWith('/api/call')) return;
      const method = (request.postDataJSON() as { method?: string } | null)?.method;
      if (method) called.push(method);
    });
    await page.locator('nav').getByRole('link', { name: 'Servers', exact: true }).click();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await host?.close();
    data?.remove();
    built?.remove();
  });

  const card = () => page.locator('li[data-server-id="everything"]');
  const focused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

  /** The held Disconnects, released after each test whatever its outcome. */
  const releases: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const release of releases.splice(0)) await release();
    // Whatever a failed test left on its way, the next one starts from a Disconnect that ended.
    await page.locator('nav').getByRole('link', { name: 'Servers', exact: true }).click();
    await card()
      .getByRole('button', { name: /^(Connect|Disconnect) Everything$/ })
      .waitFor();
  });

  it('makes Tools…, Edit… and Remove unavailable until the Disconnect ends, each keeping the focus when pressed', async () => {
    await card().locator('[data-status="ready"]').waitFor();
    const tools = card().getByRole('button', { name: 'Tools of Everything' });
    const edit = card().getByRole('button', { name: 'Edit Everything' });
    const remove = card().getByRole('button', { name: 'Remove Everything', exact: true });
    for (const button of [tools, edit, remove]) assert.equal(await button.getAttribute('aria-disabled'), null);

    // Nothing under way: Disconnect asks nothing, and it is held on its way to the core.
    const disconnecting = await hold(page, 'servers.disconnect');
    releases.push(disconnecting.release);
    await card().getByRole('button', { name: 'Disconnect Everything' }).click();
    await disconnecting.held;
    await card().getByRole('button', { name: 'Disconnecting Everything' }).waitFor();
    assert.equal(await card().locator('.card-header .status').textContent(), 'Disconnecting');

    for (const [name, button] of [
      ['Tools…', tools],
      ['Edit…', edit],
      ['Remove', remove]
    ] as const) {
      assert.equal(await button.getAttribute('aria-disabled'), 'true', `${name} is unavailable`);
      // Pressed from the keyboard: nothing happens, and the focus stays on it.
      await button.focus();
      await page.keyboard.press('Enter');
      await page.keyboard.press(' ');
      assert.ok(await focused(button), `${name} keeps the focus`);
    }
    // Tools… did not open the Tools screen of a server on its way out, Edit… no form, Remove no dialog.
    assert.ok(await page.getByRole('region', { name: 'Servers' }).isVisible());
    assert.equal(await page.getByRole('region', { name: 'Tools' }).isVisible(), false);
    assert.equal(await card().getByRole('form', { name: 'Edit Everything' }).count(), 0);
    assert.equal(await edit.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.getByRole('dialog', { name: 'Remove Everything?' }).isVisible(), false);

    // Tools… has the focus as the Disconnect ends and Tools… goes: the focus goes to Connect, not to the page.
    await tools.focus();
    await disconnecting.release();
    await card().locator('[data-status="closed"]').waitFor();
    const connect = card().getByRole('button', { name: 'Connect Everything' });
    await connect.waitFor();
    assert.equal(await tools.count(), 0);
    assert.ok(await focused(connect), 'the focus is on Connect');
    // Disconnected, Edit… and Remove are offered again.
    for (const button of [edit, remove]) assert.equal(await button.getAttribute('aria-disabled'), null);
    assert.equal(host.connection('everything')?.state.status ?? 'closed', 'closed');
    assert.deepEqual(
      (await host.call('servers.list', {})).map((listed) => listed.id),
      ['everything'],
      'not removed'
    );
    assert.deepEqual(pageErrors, []);
  });

  it('makes an open Edit… form’s Save unavailable until the Disconnect ends: nothing is saved meanwhile', async () => {
    if (host.connection('everything')?.state.status !== 'ready') {
      const connected = await host.call('servers.connect', { serverId: 'everything' });
      assert.equal(connected.state.status, 'ready', connected.state.reason);
    }
    await card().locator('[data-status="ready"]').waitFor();
    await card().getByRole('button', { name: 'Edit Everything' }).click();
    const form = card().getByRole('form', { name: 'Edit Everything' });
    const args = form.getByRole('textbox', { name: 'Arguments', exact: true });
    await args.fill(`${(await args.inputValue()).trimEnd()}\n--debug`);
    const save = form.getByRole('button', { name: 'Save', exact: true });
    assert.equal(await save.getAttribute('aria-disabled'), null);

    const disconnecting = await hold(page, 'servers.disconnect');
    releases.push(disconnecting.release);
    await card().getByRole('button', { name: 'Disconnect Everything' }).click();
    await disconnecting.held;
    await card().getByRole('button', { name: 'Disconnecting Everything' }).waitFor();
    assert.equal(await save.getAttribute('aria-disabled'), 'true');
    // Only opening a form waits for the Disconnect: the open one can still be closed.
    assert.equal(await card().getByRole('button', { name: 'Edit Everything' }).getAttribute('aria-disabled'), null);
    await save.focus();
    await page.keyboard.press('Enter');
    // Enter in a field submits the form as Save does: refused the same.
    await form.getByRole('textbox', { name: 'Name', exact: true }).press('Enter');
    assert.ok(await form.isVisible(), 'the form stays open');

    await disconnecting.release();
    await card().locator('[data-status="closed"]').waitFor();
    await card().getByRole('button', { name: 'Connect Everything' }).waitFor();
    assert.equal(await save.getAttribute('aria-disabled'), null);
    assert.ok(!called.includes('servers.update'), `no save was sent: ${called.join(', ')}`);
    const saved = await host.call('servers.get', { serverId: 'everything' });
    assert.ok(saved.transport.type === 'stdio');
    assert.deepEqual(saved.transport.args, everythingServer.transport.args, 'nothing saved');
    assert.equal(
      await args.inputValue(),
      `${everythingServer.transport.args.join('\n')}\n--debug`,
      'the draft is kept'
    );
    assert.deepEqual(pageErrors, []);
  });
});
