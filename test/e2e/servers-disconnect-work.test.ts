import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Browser, Locator, Page, Route } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { createHost, type Host } from '../../app/host/host.js';
import { everythingServer } from '../support/everything-server.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { startOAuthTestServers, type OAuthTestServers } from '../support/oauth-test-servers.js';
import { openEverythingDesk } from './everything-desk.js';
import { recordSaid, said, saidTimes } from './live-region.js';
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

const QUESTION =
  'The research query "tides" could have multiple interpretations. Please clarify what you\'re looking for:';

/**
 * The Servers screen's Disconnect of a stdio server (server-everything) with work under way: a
 * tool task the person started whose question waits in the Inbox (outside a task), and a plain
 * call whose server gave Taskdesk a task-augmented question.
 */
describe('Disconnect with work under way, in headless Chromium against the real core', () => {
  const pageErrors: string[] = [];
  let desk: Awaited<ReturnType<typeof openEverythingDesk>> | undefined;

  before(async () => {
    desk = await openEverythingDesk(pageErrors, { viewport: { width: 1200, height: 1000 } });
  });
  after(async () => {
    await desk?.close();
  });

  it('asks first, naming what ends; Cancel keeps it connected; Disconnect says it is under way, and the person is said to have ended the question', async () => {
    const { host, page } = desk!;
    // A tool task the person started: it asks a question outside a task, for the task.
    const question = nextEvent(host, 'inbox.added', ({ item }) => item.taskId === undefined);
    const started = await host.call('tools.call', {
      serverId: 'everything',
      name: 'simulate-research-query',
      arguments: { topic: 'tides', ambiguous: true },
      asTask: true
    });
    assert.equal(started.type, 'task');
    const { item } = await question;
    // A plain call whose server hands Taskdesk a task-augmented question.
    const received = nextEvent(host, 'inbox.added', ({ item: asked }) => asked.taskId !== undefined);
    const call = host
      .call('tools.call', { serverId: 'everything', name: 'trigger-elicitation-request-async', arguments: {} })
      .catch((error: unknown) => error);
    const { item: receivedItem } = await received;

    // Something chosen in the question: its notice keeps it when the question goes.
    const nav = page.getByRole('navigation', { name: 'Sections' });
    await nav.locator('a[href="#inbox"]').click();
    const card = page.getByRole('article', { name: QUESTION });
    await card.waitFor();
    await card.getByLabel('Clarification').selectOption({ index: 1 });

    await nav.locator('a[href="#servers"]').click();
    const server = page.locator('li[data-server-id="everything"]');
    await server.locator('[data-status="ready"]').waitFor();
    const dialog = page.getByRole('dialog', { name: 'Disconnect Everything?' });
    await server.getByRole('button', { name: 'Disconnect Everything' }).click();
    await dialog.waitFor();
    // The received task's question is a question too: its task ends with the process that asked it.
    assert.deepEqual(await dialog.locator('.dialog-body p').allTextContents(), [
      '2 questions waiting in the Inbox will be withdrawn, 1 running call will stop and 1 running task will be lost.',
      'Taskdesk stops Everything’s process, and the one it starts when you connect again does not have its tasks.'
    ]);

    // Cancel: nothing happens; the server stays connected, its work with it.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(host.connection('everything')?.state.status, 'ready');
    assert.equal(await server.locator('.status').textContent(), 'Ready');
    assert.equal(host.inbox.size, 2);
    await server.getByRole('button', { name: 'Disconnect Everything' }).waitFor();

    // Disconnect: under way, its button says so until the core answers.
    await recordSaid(page);
    const ended = nextEvent(
      host,
      'history.changed',
      ({ entry }) => entry.title === QUESTION && entry.status === 'cancelled'
    );
    const disconnecting = await hold(page, 'servers.disconnect');
    await server.getByRole('button', { name: 'Disconnect Everything' }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Disconnect', exact: true }).click();
    await disconnecting.held;
    const busy = server.getByRole('button', { name: 'Disconnecting Everything' });
    await busy.waitFor();
    assert.equal(await busy.textContent(), 'Disconnecting…');
    assert.equal(await busy.getAttribute('aria-busy'), 'true');
    // Still connected while it waits, but no longer ready: its badge says so.
    const badge = server.locator('.card-header .status');
    assert.equal(await badge.textContent(), 'Disconnecting');
    assert.equal(await badge.getAttribute('data-status'), 'ready');
    await disconnecting.release();
    await server.locator('[data-status="closed"]').waitFor();
    await server.getByRole('button', { name: 'Connect Everything' }).waitFor();
    assert.equal(await server.locator('.reason').textContent(), 'Disconnected by you');
    // The call the Disconnect broke off: stopped by the person, in their act's words, not failed.
    const stopped = (await call) as { message: string; data?: unknown };
    assert.equal(stopped.message, 'You disconnected Everything');
    assert.deepEqual(stopped.data, { cancelledBy: 'you', yourAct: 'You disconnected Everything' });

    // The question went: said as the person's doing, its notice keeping what they chose. The
    // received task's question went with it (said together, in one message of the live region).
    await saidTimes(
      page,
      /Taskdesk withdrew Everything’s question “The research query "tides" [^”]*”: You disconnected Everything\. What you had written is kept in its notice\./
    );
    await saidTimes(
      page,
      /Taskdesk withdrew Everything’s question “Please provide inputs for the following fields[^”]*”: You disconnected Everything\./
    );
    const notice = page.locator(`.notice-withdrawn[data-inbox-id="${item.id}"]`);
    await notice.waitFor();
    // Its words (what its Close is described by), without the Show all that may follow them.
    const wordsId = await notice.getByRole('button', { name: 'Close notice' }).getAttribute('aria-describedby');
    const noticeText = (await page.locator(`[id="${wordsId}"]`).textContent()) ?? '';
    assert.match(noticeText, /: You disconnected Everything\.$/);
    assert.doesNotMatch(noticeText, /Everything withdrew|cancelled the request|stopped waiting/);
    await notice.getByRole('group', { name: 'What you had written (not sent):' }).waitFor();
    // The received task's question went too: the process that asked it is gone, and its task
    // is ended, by the person, in the words of their act.
    assert.equal(host.inbox.size, 0);
    await nav.locator('a[href="#inbox"]').click();
    await page.getByRole('article', { name: QUESTION }).waitFor({ state: 'detached' });
    assert.equal(
      await page
        .getByRole('article', { name: 'Please provide inputs for the following fields (async task demo):' })
        .count(),
      0
    );
    const receivedTask = await host.call('tasks.get', { taskId: receivedItem.taskId! });
    assert.equal(receivedTask.task.status, 'cancelled');
    assert.equal(receivedTask.task.statusMessage, 'You disconnected Everything before it was answered');

    // History: cancelled by the person, who disconnected the server; not by the server.
    const { entry } = await ended;
    await nav.locator('a[href="#history"]').click();
    const history = page.getByRole('region', { name: 'History' });
    const row = history.locator(`li[data-history-id="${entry.id}"]`);
    await row.locator('.meta [data-status="cancelled"]', { hasText: 'Cancelled by you' }).waitFor();
    assert.doesNotMatch((await row.textContent()) ?? '', /by the server/);
    await row.locator('.history-title').click();
    const detail = history.locator('.history-detail');
    await detail.and(page.locator(`[data-history-id="${entry.id}"]`)).waitFor();
    const meta = detail.locator('.meta').first();
    await meta.filter({ hasText: 'You disconnected Everything' }).waitFor();
    assert.match(
      (await meta.textContent()) ?? '',
      /Cancelled by you · You disconnected Everything before it was answered$/
    );
    assert.doesNotMatch((await detail.textContent()) ?? '', /server cancelled|by the server/);
    await detail.getByRole('button', { name: 'Close' }).click();

    // Connected again, nothing of it is under way (its task is lost with the old process, the
    // received task ended with it): Disconnect asks nothing.
    assert.equal(started.type, 'task');
    const outboundId = started.type === 'task' ? started.task.outboundId : '';
    await nav.locator('a[href="#servers"]').click();
    await server.getByRole('button', { name: 'Connect Everything' }).click();
    await server.locator('[data-status="ready"]').waitFor();
    await nav.locator('a[href="#tasks"]').click();
    await page.locator(`[data-task-key="requested:${outboundId}"] [data-status="lost"]`).first().waitFor();
    await nav.locator('a[href="#servers"]').click();
    await server.getByRole('button', { name: 'Disconnect Everything' }).click();
    await server.locator('[data-status="closed"]').waitFor();
    assert.equal(await dialog.isVisible(), false);
    assert.deepEqual(pageErrors, []);
  });
});

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

  it('sends a Decline held in its undo window before a Save restarts the server, not counting its question as withdrawn', async () => {
    if (host.connection('everything')?.state.status !== 'ready') {
      const connected = await host.call('servers.connect', { serverId: 'everything' });
      assert.equal(connected.state.status, 'ready', connected.state.reason);
    }
    // The page's clock is the test's, and stands still: the Decline's window never ends by itself.
    await page.clock.install();
    await page.reload();
    await page.clock.pauseAt(Date.now() + 1_000);
    const asked = nextEvent(host, 'inbox.added', ({ item }) => item.serverId === 'everything');
    const call = host
      .call('tools.call', { serverId: 'everything', name: 'trigger-elicitation-request', arguments: {} })
      .catch((error: unknown) => error);
    const { item } = await asked;
    const nav = page.locator('nav');
    await nav.locator('a[href="#inbox"]').click();
    await page.locator(`article[data-inbox-id="${item.id}"]`).getByRole('button', { name: 'Decline' }).click();
    await page.locator(`.inbox-held[data-held-id="${item.id}"]`).waitFor();

    await nav.getByRole('link', { name: 'Servers', exact: true }).click();
    await card().getByRole('button', { name: 'Edit Everything' }).click();
    const form = card().getByRole('form', { name: 'Edit Everything' });
    const args = form.getByRole('textbox', { name: 'Arguments', exact: true });
    await args.fill(`${(await args.inputValue()).trimEnd()}\n--debug`);
    // The question was answered: only the call waiting on it is said to stop.
    const note = form.getByText(/^Saving restarts/);
    await note.waitFor();
    assert.equal(await note.textContent(), 'Saving restarts Everything: 1 running call will stop.');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save and restart Everything?' });
    await dialog.waitFor();
    assert.deepEqual(await dialog.locator('.dialog-body p').allTextContents(), ['1 running call will stop.']);
    await dialog.getByRole('button', { name: 'Save and restart', exact: true }).click();
    // The Decline went before the restart: the server had it, and its call ended with it.
    const ended = await call;
    assert.ok(!(ended instanceof Error), `the call was not stopped: ${String(ended)}`);
    assert.match(JSON.stringify(ended), /decline/i);
    await form.waitFor({ state: 'detached' });
    await card().locator('[data-status="ready"]').waitFor();
    assert.equal(host.inbox.size, 0);
    await page.clock.resume();
    assert.deepEqual(pageErrors, []);
  });

  it('says at once that a Remove is under way, makes the card’s actions wait for it, and says its outcome once', async () => {
    if (host.connection('everything')?.state.status !== 'ready') {
      const connected = await host.call('servers.connect', { serverId: 'everything' });
      assert.equal(connected.state.status, 'ready', connected.state.reason);
    }
    await card().locator('[data-status="ready"]').waitFor();
    // Its settings open, a folder in them and another one typed: each of them is offered.
    // Folders that exist, as the host checks: its data directory, and this one.
    const kept = data.dir;
    const added = process.cwd();
    await host.call('roots.set', { serverId: 'everything', folders: [kept] });
    await page.reload();
    await page.locator('nav').getByRole('link', { name: 'Servers', exact: true }).click();
    const settings = card().locator('details.server-settings');
    await settings.locator('summary').click();
    const ask = settings.getByRole('radio', { name: 'Ask me first' });
    const auto = settings.getByRole('radio', { name: 'Run without asking' });
    const review = settings.getByRole('checkbox', { name: 'Review answers before they go back' });
    const removeFolder = settings.getByRole('button', { name: `Remove the folder ${kept} from Everything` });
    const folderPath = settings.getByRole('textbox', { name: 'Folder path' });
    const addFolder = settings.getByRole('button', { name: 'Add folder', exact: true });
    await removeFolder.waitFor();
    await folderPath.fill(added);
    assert.ok(await ask.isChecked());
    assert.ok(await review.isChecked());
    for (const control of [ask, auto, review, removeFolder, addFolder])
      assert.equal(await control.getAttribute('aria-disabled'), null);
    await recordSaid(page);
    called.length = 0;
    // Held on its way to the core, as a stdio server that outlives its closed stdin holds it (seconds).
    const removing = await hold(page, 'servers.remove');
    releases.push(removing.release);
    await card().getByRole('button', { name: 'Remove Everything', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Remove Everything?' })
      .getByRole('button', { name: 'Remove', exact: true })
      .click();
    await removing.held;
    const remove = card().getByRole('button', { name: 'Removing Everything', exact: true });
    await remove.waitFor();
    assert.equal(await remove.textContent(), 'Removing…');
    assert.equal(await card().locator('.card-header .status').textContent(), 'Removing');
    const tools = card().getByRole('button', { name: 'Tools of Everything' });
    const edit = card().getByRole('button', { name: 'Edit Everything' });
    const disconnect = card().getByRole('button', { name: 'Disconnect Everything' });
    for (const [name, button] of [
      ['Tools…', tools],
      ['Edit…', edit],
      ['Disconnect', disconnect],
      ['Remove', remove]
    ] as const) {
      assert.equal(await button.getAttribute('aria-disabled'), 'true', `${name} is unavailable`);
      // Pressed from the keyboard: nothing happens, and the focus stays on it.
      await button.focus();
      await page.keyboard.press('Enter');
      assert.ok(await focused(button), `${name} keeps the focus`);
    }
    assert.equal(await page.getByRole('dialog', { name: 'Remove Everything?' }).isVisible(), false, 'not asked again');
    assert.equal(await page.getByRole('region', { name: 'Tools' }).isVisible(), false);
    assert.equal(await card().getByRole('form', { name: 'Edit Everything' }).count(), 0);
    // Its settings wait too: a sampling policy chosen, a folder removed or added would be saved for
    // a server on its way out (and a save of its folders tells a connected server of them).
    for (const [name, control] of [
      ['Run without asking', auto],
      ['Review answers', review],
      ['the folder’s Remove', removeFolder],
      ['Add folder', addFolder]
    ] as const) {
      assert.equal(await control.getAttribute('aria-disabled'), 'true', `${name} is unavailable`);
      await control.focus();
      await page.keyboard.press(' ');
      await page.keyboard.press('Enter');
      assert.ok(await focused(control), `${name} keeps the focus`);
    }
    // Clicked too (forced: Playwright takes aria-disabled for disabled and would not click).
    await auto.click({ force: true });
    await review.click({ force: true });
    await folderPath.press('Enter');
    // From the choice that is checked, an arrow key neither moves to another nor checks it.
    await ask.focus();
    await page.keyboard.press('ArrowDown');
    assert.ok(await focused(ask), 'the arrow keys leave the focus on Ask me first');
    assert.ok(await ask.isChecked(), 'the policy is still Ask me first');
    assert.ok(await review.isChecked(), 'answers are still reviewed');
    assert.equal(await removeFolder.count(), 1, 'the folder is still there');
    assert.equal(await folderPath.inputValue(), added);
    // Leaving the choices does not save one either.
    await page.keyboard.press('Tab');

    await removing.release();
    await card().waitFor({ state: 'detached' });
    await saidTimes(page, /^Removed Everything\.$/);
    await page.locator('#heading-servers:focus').waitFor();
    // Said once, and nothing of the close it made on the way ("… is disconnected.").
    assert.deepEqual(await said(page), ['Removed Everything.']);
    assert.deepEqual(
      called.filter((method) => method.startsWith('servers.')),
      ['servers.remove'],
      'one Remove, and no Disconnect'
    );
    assert.deepEqual(
      called.filter((method) => method === 'sampling.setPolicy' || method === 'roots.set'),
      [],
      'no policy nor folders saved'
    );
    assert.deepEqual(pageErrors, []);
    // Back, for the checks after each test.
    await host.call('servers.add', { ...everythingServer, autoConnect: false });
  });
});

/**
 * An OAuth-protected server's card while its Remove is on its way: Sign in waits as the card's
 * other actions do, so that a sign-in does not start a connection to a server being removed.
 */
describe('the Servers screen while a server that asks to sign in is removed, in headless Chromium against the real core', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let servers: OAuthTestServers;
  let data: ReturnType<typeof tempDir>;
  let host: Host;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  /** The host API methods the page called, in order. */
  const called: string[] = [];
  const releases: Array<() => Promise<void>> = [];

  before(async () => {
    built = await buildRenderer();
    servers = await startOAuthTestServers({ consent: 'page' });
    data = tempDir();
    host = createHost({ dataDir: data.dir, autoConnect: false });
    // Saved from the Desk (not given by the host's config), so that Remove is offered.
    await host.call('servers.add', {
      id: 'protected',
      name: 'Protected',
      transport: { type: 'http', url: servers.mcpUrl },
      autoConnect: false
    });
    await host.call('servers.connect', { serverId: 'protected' });
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
    for (const release of releases.splice(0)) await release();
    await browser?.close();
    await server?.close();
    await host?.close();
    await servers?.close();
    data?.remove();
    built?.remove();
  });

  it('makes Sign in unavailable until the Remove ends: no sign-in starts, and the focus stays on it', async () => {
    const card = page.locator('li[data-server-id="protected"]');
    const signIn = card.getByRole('button', { name: 'Sign in to Protected' });
    await signIn.waitFor();
    assert.equal(await signIn.getAttribute('aria-disabled'), null);
    called.length = 0;
    const removing = await hold(page, 'servers.remove');
    releases.push(removing.release);
    await card.getByRole('button', { name: 'Remove Protected', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Remove Protected?' })
      .getByRole('button', { name: 'Remove', exact: true })
      .click();
    await removing.held;
    await card.getByRole('button', { name: 'Removing Protected', exact: true }).waitFor();
    assert.equal(await signIn.getAttribute('aria-disabled'), 'true', 'Sign in is unavailable');
    await signIn.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press(' ');
    assert.ok(await signIn.evaluate((element) => element === document.activeElement), 'Sign in keeps the focus');
    // Clicked too (forced: Playwright takes aria-disabled for disabled and would not click).
    await signIn.click({ force: true });

    await removing.release();
    await card.waitFor({ state: 'detached' });
    assert.deepEqual(called, ['servers.remove'], 'no sign-in was started');
    assert.equal(page.context().pages().length, 1, 'no sign-in page opened');
    assert.equal(host.connection('protected'), undefined);
    assert.deepEqual(pageErrors, []);
  });
});
