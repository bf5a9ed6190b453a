import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateTaskResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Locator, Page, Route } from 'playwright-core';
import { systemClock } from '../../app/core/clock.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { peerServer } from '../support/host-fixture.js';
import { ClockedTaskStore } from '../support/requestor-task-store.js';
import { createTaskToolPeer } from '../support/task-tool-server.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { openToolForm } from './renderer-build.js';
import { openServerSettings } from './server-settings.js';
import { passUndoWindow } from './undo-window.js';

/** The host API call a route sees: browser mode's `POST /api/call` body. */
function methodOf(route: Route): string | undefined {
  try {
    return (route.request().postDataJSON() as { method?: string }).method;
  } catch {
    return undefined;
  }
}

/**
 * The host refuses the next call of `method` with `message`, as browser mode answers a refusal
 * (HTTP 200, `ok: false`); every other call, and the ones after, reach the real core.
 */
async function refuseOnce(page: Page, method: string, message: string, code = -32603): Promise<void> {
  let refused = false;
  await page.route('**/api/call', async (route) => {
    if (refused || methodOf(route) !== method) return route.fallback();
    refused = true;
    await route.fulfill({ status: 200, json: { ok: false, error: { code, message } } });
  });
}

/** Holds every call of `method` until `release` is called; then each goes on to the real core. */
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
  return {
    held,
    release: async () => {
      await page.unroute('**/api/call', handler);
      await Promise.all(waiting.splice(0).map((route) => route.fallback()));
    }
  };
}

const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

describe('failed actions are shown by the action, in words, until dismissed or tried again; busy buttons wait alone', () => {
  const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 50 });
  const { peer: work } = createTaskToolPeer({ clock: systemClock, store });
  const desk = peerServer('failures-peer');
  let d: DeskFixture;
  let page: Page;

  before(async () => {
    d = await startDesk(
      { work, desk },
      {
        host: { keyStore: new InMemoryKeyStore() },
        viewport: { width: 1200, height: 1400 },
        // The page's clock installed: a Decline is sent when the test ends its undo window.
        beforeLoad: (page) => page.clock.install()
      }
    );
    page = d.page;
  });

  after(async () => {
    await d?.close();
    store.close();
  });

  /** The visible failure box inside `place`. */
  const failureIn = (place: Locator) => place.locator('.action-error:not([hidden])');

  it('Servers: a folder the host refuses says what failed, why and what to do, stays, and Hide message hands the focus on', async () => {
    await page.getByRole('link', { name: 'Servers', exact: true }).click();
    const card = page.locator('li[data-server-id="work"]');
    await openServerSettings(card);
    const folders = card.getByRole('group', { name: /^Folders/ });
    await folders.getByLabel('Folder path').fill('/no/such/folder/here');
    await folders.getByRole('button', { name: 'Add folder' }).click();
    const box = failureIn(folders);
    await box.waitFor();
    assert.equal(await box.getAttribute('role'), 'alert');
    assert.equal(
      await box.locator('.action-error-what').textContent(),
      'The folders of Server work were not saved. The folder /no/such/folder/here does not exist.'
    );
    assert.match((await box.locator('.action-error-next').textContent()) ?? '', /^Check the path/);
    // It stays while the person goes on: typing in the field does not take it away.
    await folders.getByLabel('Folder path').fill('/no/such/folder/there');
    assert.equal(await box.isVisible(), true);
    await box.getByRole('button', { name: 'Hide message' }).click();
    await box.waitFor({ state: 'hidden' });
    // The focus goes to the place's next control, not to the page.
    assert.equal(await page.evaluate(() => document.activeElement === document.body), false);
    assert.ok(await folders.evaluate((group) => group.contains(document.activeElement)));

    // Disconnect refused: the card says so by its buttons (it was only announced before).
    await refuseOnce(page, 'servers.disconnect', 'The server is busy.');
    await card.getByRole('button', { name: 'Disconnect Server work' }).click();
    const cardBox = card.locator(':scope > .action-error:not([hidden])');
    await cardBox.waitFor();
    assert.equal(
      await cardBox.locator('.action-error-what').textContent(),
      'Could not disconnect Server work. The server is busy.'
    );
    assert.ok((await cardBox.locator('.action-error-next').textContent())?.startsWith('Try again'));
    // The next attempt clears it.
    await page.unrouteAll({ behavior: 'wait' });
    await card.getByRole('button', { name: 'Disconnect Server work' }).click();
    await cardBox.waitFor({ state: 'hidden' });
    await card.getByRole('button', { name: 'Connect Server work' }).click();
    await card.locator('[data-status="ready"]').waitFor();
  });

  it('Servers: a connect refused after Add server is said on the server’s card until dismissed or tried again', async () => {
    await page.getByRole('link', { name: 'Servers', exact: true }).click();
    const add = async (id: string, name: string) => {
      const form = page.getByRole('form', { name: 'Add a server' });
      await form.getByLabel('Id').fill(id);
      await form.getByLabel('Name').fill(name);
      await form.getByLabel('Streamable HTTP').check();
      // Nothing listens on port 9: a connect that reaches the core fails at once, with its reason.
      await form.getByLabel('URL').fill(`http://127.0.0.1:9/${id}`);
      await refuseOnce(page, 'servers.connect', 'Its sign-in could not start.');
      await form.getByRole('button', { name: 'Add server' }).click();
      const card = page.locator(`li[data-server-id="${id}"]`);
      const box = failureIn(card);
      await box.waitFor();
      assert.equal(
        await box.locator('.action-error-what').textContent(),
        `Could not connect ${name}. Its sign-in could not start.`
      );
      assert.equal(
        await box.locator('.action-error-next').textContent(),
        'Check its URL and headers with Edit…, then press Connect again.'
      );
      return { card, box };
    };
    const first = await add('refused-one', 'Refused one');
    // It stays while other things change on the page.
    await page.getByRole('link', { name: 'Inbox' }).click();
    await page.getByRole('link', { name: 'Servers', exact: true }).click();
    await first.box.waitFor();
    await first.box.getByRole('button', { name: 'Hide message' }).click();
    await first.box.waitFor({ state: 'hidden' });

    const second = await add('refused-two', 'Refused two');
    await second.card.getByRole('button', { name: 'Connect Refused two' }).click();
    await second.card.locator('[data-status="failed"]').waitFor();
    await second.box.waitFor({ state: 'hidden' });
    await page.unrouteAll({ behavior: 'wait' });
    for (const id of ['refused-one', 'refused-two']) await d.fixture.host.call('servers.remove', { serverId: id });
  });

  it('Inbox: a refused answer stays on its card while other questions arrive; the next Submit clears it', async () => {
    const first = desk.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Which region?',
          requestedSchema: { type: 'object', properties: { region: { type: 'string', title: 'Region' } } }
        }
      },
      ElicitResultSchema
    );
    await page.getByRole('link', { name: /^Inbox/ }).click();
    const card = page.locator('article.inbox-item').filter({ hasText: 'Which region?' });
    await card.getByLabel('Region').fill('north');
    await refuseOnce(page, 'inbox.answer', 'The answer could not be stored.');
    await card.getByRole('button', { name: 'Submit' }).click();
    const box = failureIn(card);
    await box.waitFor();
    assert.equal(
      await box.locator('.action-error-what').textContent(),
      'Your answer was not sent to Server desk. The answer could not be stored.'
    );
    // The button pressed keeps the focus (aria-disabled while it waited, not disabled).
    assert.equal(await focusedText(page), 'Submit');
    // Another question arriving changes the Inbox; the failure stays where it was.
    const second = desk.server.request(
      {
        method: 'elicitation/create',
        params: { mode: 'form', message: 'And the year?', requestedSchema: { type: 'object', properties: {} } }
      },
      ElicitResultSchema
    );
    await page.locator('article.inbox-item').filter({ hasText: 'And the year?' }).waitFor();
    assert.equal(await box.isVisible(), true);
    await page.unrouteAll({ behavior: 'wait' });
    await card.getByRole('button', { name: 'Submit' }).click();
    assert.deepEqual((await first).content, { region: 'north' });
    await page
      .locator('article.inbox-item')
      .filter({ hasText: 'And the year?' })
      .getByRole('button', { name: 'Decline' })
      .click();
    await passUndoWindow(page);
    assert.equal((await second).action, 'decline');
  });

  it('Tools: a call whose connection ends while it is under way says it may have been done and to look in History, not that nothing was sent', async () => {
    await page.getByRole('link', { name: 'Tools', exact: true }).click();
    const tools = page.getByRole('region', { name: 'Tools' });
    const form = await openToolForm(tools, 'not-a-task-tool');
    // The call goes out, and browser mode stops before it answers: the connection is dropped
    // once the call has been under way longer than a refused connection takes to fail.
    await page.route('**/api/call', async (route) => {
      if (methodOf(route) !== 'tools.call') return route.fallback();
      const since = await page.evaluate(() => performance.now());
      await page.waitForFunction((start) => performance.now() - start >= 600, since);
      await route.abort('connectionreset');
    });
    await form.getByRole('button', { name: 'Call tool' }).click();
    const box = failureIn(form);
    await box.waitFor();
    assert.equal(
      await box.locator('.action-error-what').textContent(),
      'Taskdesk did not answer. The connection to Taskdesk ended while this was under way, so it may have been done.'
    );
    // The page is still in contact with Taskdesk (its event stream is up): not to wait for it.
    assert.equal(
      await box.locator('.action-error-next').textContent(),
      'Taskdesk answers again: check whether it was done before you try again, on Tasks or in History (the tool calls and answers it had under way).'
    );
    await page.unrouteAll({ behavior: 'wait' });
    // The browser logs the dropped connection itself; nothing else went wrong on the page.
    d.pageErrors.splice(
      0,
      d.pageErrors.length,
      ...d.pageErrors.filter((error) => !/net::ERR_CONNECTION_RESET\b/.test(error))
    );
    assert.deepEqual(d.pageErrors, []);
  });

  it('Tools: a failed call says so in the form; Providers: a refused save and a refused remove say so where they were pressed', async () => {
    await page.getByRole('link', { name: 'Tools', exact: true }).click();
    const tools = page.getByRole('region', { name: 'Tools' });
    await tools.locator('li[data-tool="not-a-task-tool"]').waitFor();
    const form = await openToolForm(tools, 'not-a-task-tool');
    await refuseOnce(page, 'tools.call', 'Server "work" is not connected.', -32600);
    await form.getByRole('button', { name: 'Call tool' }).click();
    const box = failureIn(form);
    await box.waitFor();
    assert.equal(
      await box.locator('.action-error-what').textContent(),
      'The call of not-a-task-tool failed. Server "work" is not connected.'
    );
    await page.unrouteAll({ behavior: 'wait' });
    await form.getByRole('button', { name: 'Call tool' }).click();
    await box.waitFor({ state: 'hidden' });
    await form.getByText('Result:').waitFor();

    await page.getByRole('link', { name: 'LLM providers' }).click();
    const screen = page.getByRole('region', { name: 'LLM providers' });
    const add = screen.getByRole('form', { name: 'Add a provider' });
    await add.getByRole('textbox', { name: 'Id', exact: true }).fill('local');
    await add.getByRole('textbox', { name: 'Name', exact: true }).fill('Local LLM');
    await add.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
    await refuseOnce(page, 'providers.save', 'The key store is locked.');
    await add.getByRole('button', { name: 'Add provider' }).click();
    const saveBox = failureIn(add);
    await saveBox.waitFor();
    assert.equal(
      await saveBox.locator('.action-error-what').textContent(),
      'The provider was not added. The key store is locked.'
    );
    await page.unrouteAll({ behavior: 'wait' });
    await add.getByRole('button', { name: 'Add provider' }).click();
    const card = screen.locator('li[data-provider-id="local"]');
    await card.waitFor();

    await refuseOnce(page, 'providers.remove', 'The key store is locked.');
    await card.getByRole('button', { name: 'Remove Local LLM' }).click();
    await page.getByRole('dialog', { name: 'Remove Local LLM?' }).getByRole('button', { name: 'Remove' }).click();
    const removeBox = failureIn(card);
    await removeBox.waitFor();
    assert.equal(
      await removeBox.locator('.action-error-what').textContent(),
      'Could not remove Local LLM. The key store is locked.'
    );
    await page.unrouteAll({ behavior: 'wait' });
  });

  it('Tasks: a refused cancel is said in the task’s row and its detail', async () => {
    const asked = await desk.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'A task to cancel',
          requestedSchema: { type: 'object', properties: {} },
          task: { ttl: 600_000 }
        }
      },
      CreateTaskResultSchema
    );
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    const row = page.locator(`tr[data-task-key="received:${asked.task.taskId}"]`);
    await refuseOnce(page, 'tasks.cancel', 'The task store is closing.');
    await row.getByRole('button', { name: /^Cancel Question / }).click();
    const agree = page.getByRole('dialog').getByRole('button', { name: 'Cancel question', exact: true });
    await agree.click();
    const box = failureIn(row);
    await box.waitFor();
    assert.equal(
      await box.locator('.action-error-what').textContent(),
      'The question task was not cancelled. The task store is closing.'
    );
    // It wraps within its cell: the row's words do not run off the table.
    const [boxRight, tableRight] = await Promise.all([
      box.evaluate((element) => element.getBoundingClientRect().right),
      page.locator('#screen-tasks .table-wrap').evaluate((element) => element.getBoundingClientRect().right)
    ]);
    assert.ok(boxRight <= tableRight, `the failure ends at ${boxRight}px, the table at ${tableRight}px`);
    await row.getByRole('button', { name: /^Details of Question / }).click();
    const detail = page.locator('.task-detail');
    await failureIn(detail).waitFor();
    await failureIn(detail).getByRole('button', { name: 'Hide message' }).click();
    await box.waitFor({ state: 'hidden' });
    await page.unrouteAll({ behavior: 'wait' });
    await detail.getByRole('button', { name: 'Cancel question…' }).click();
    await agree.click();
    await row.locator('[data-status="cancelled"]').waitFor();
    await detail.getByRole('button', { name: 'Close' }).click();
  });

  it('a task’s detail shows nothing of the task before it when the next one’s History entry cannot be read', async () => {
    const ask = (message: string) =>
      desk.server.request(
        {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message,
            requestedSchema: { type: 'object', properties: {} },
            task: { ttl: 600_000 }
          }
        },
        CreateTaskResultSchema
      );
    const first = await ask('The first of two tasks');
    const second = await ask('The second of two tasks');
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    const row = (taskId: string) => page.locator(`tr[data-task-key="received:${taskId}"]`);
    await row(first.task.taskId)
      .getByRole('button', { name: /^Details of Question / })
      .click();
    const detail = page.locator('.task-detail');
    await detail.locator('ol.timeline').waitFor();
    await refuseOnce(page, 'history.get', 'History cannot be read just now.');
    await row(second.task.taskId)
      .getByRole('button', { name: /^Details of Question / })
      .click();
    const box = failureIn(detail);
    await box.waitFor();
    assert.equal(await detail.getAttribute('data-task-key'), `received:${second.task.taskId}`);
    assert.equal(await detail.locator('ol.timeline').count(), 0, 'no timeline of the first task under the second');
    assert.equal(await box.getByRole('button', { name: 'Hide message' }).count(), 0);
    await box.getByRole('button', { name: 'Retry' }).click();
    await detail.locator('ol.timeline').waitFor();
    await detail.getByRole('button', { name: 'Close' }).click();
    await page.unrouteAll({ behavior: 'wait' });
  });

  it('History: a failed read is said in words with Retry — in a task’s detail, the History list and an entry — not as “no entry”', async () => {
    const asked = await desk.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'A task whose history fails',
          requestedSchema: { type: 'object', properties: {} },
          task: { ttl: 600_000 }
        }
      },
      CreateTaskResultSchema
    );
    const key = `received:${asked.task.taskId}`;
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    const row = page.locator(`tr[data-task-key="${key}"]`);
    await refuseOnce(page, 'history.get', 'History cannot be read just now.');
    await row.getByRole('button', { name: /^Details of Question / }).click();
    const detail = page.locator('.task-detail');
    const box = failureIn(detail);
    await box.waitFor();
    assert.equal(
      await box.locator('.action-error-what').textContent(),
      'Could not read this task’s History entry. History cannot be read just now.'
    );
    assert.equal(await detail.getByText('No status change recorded yet.').count(), 0);
    // Nothing to dismiss it to: without the message the timeline would read as still loading.
    assert.equal(await box.getByRole('button', { name: 'Hide message' }).count(), 0);
    await box.getByRole('button', { name: 'Retry' }).click();
    // The button went with the message: the focus is on the detail's title, not on the page.
    await page.waitForFunction(() => document.activeElement?.id === 'task-detail-title');
    await detail.locator('ol.timeline').waitFor();
    await box.waitFor({ state: 'hidden' });
    await detail.getByRole('button', { name: 'Close' }).click();

    await refuseOnce(page, 'history.list', 'History cannot be read just now.');
    await page.getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    const listBox = history.locator('.action-error:not([hidden])').first();
    await listBox.waitFor();
    assert.equal(
      await listBox.locator('.action-error-what').textContent(),
      'Could not load the history. History cannot be read just now.'
    );
    assert.equal(
      await history.locator('.history-count').textContent(),
      'No entries to show: the list could not be read.'
    );
    assert.equal(await listBox.getByRole('button', { name: 'Hide message' }).count(), 0);
    await listBox.getByRole('button', { name: 'Retry' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'heading-history');
    const entry = history.locator(`li[data-history-id="${key}"]`);
    await entry.waitFor();
    assert.match((await history.locator('.history-count').textContent()) ?? '', /^\d+ entr(y|ies)/);

    await refuseOnce(page, 'history.get', 'History cannot be read just now.');
    await entry.locator('.history-title').click();
    const entryDetail = history.locator('.history-detail');
    const entryBox = failureIn(entryDetail);
    await entryBox.waitFor();
    assert.equal(
      await entryBox.locator('.action-error-what').textContent(),
      'Could not load this entry. History cannot be read just now.'
    );
    assert.equal(await entryBox.getByRole('button', { name: 'Hide message' }).count(), 0);
    await entryBox.getByRole('button', { name: 'Retry' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'history-detail-title');
    await entryDetail.locator('ol.timeline').waitFor();
    await entryBox.waitFor({ state: 'hidden' });
    await entryDetail.getByRole('button', { name: 'Close' }).click();
    await page.unrouteAll({ behavior: 'wait' });
    assert.deepEqual(d.pageErrors, []);
  });

  it('Tools: while Check now waits on the host, Cancel of the same task still works', async () => {
    const call = await d.fixture.host.call('tools.call', {
      serverId: 'work',
      name: 'slow',
      arguments: { durationMs: 600_000 }
    });
    assert.ok(call.type === 'task');
    await page.getByRole('link', { name: 'Tools', exact: true }).click();
    const card = page.locator(`li[data-outbound-id="${call.task.outboundId}"]`);
    const check = card.getByRole('button', { name: /^Check slow task .* now$/ });
    const cancel = card.getByRole('button', { name: /^Cancel slow task/ });
    const held = await hold(page, 'outbound.refresh');
    await check.click();
    await held.held;
    assert.equal(await check.getAttribute('aria-disabled'), 'true');
    assert.equal(await check.getAttribute('aria-busy'), 'true');
    assert.equal(await cancel.getAttribute('aria-disabled'), null, 'Cancel does not wait for the check');
    await cancel.click();
    await card.locator('[data-status="cancelled"]').waitFor();
    await held.release();
    assert.deepEqual(d.pageErrors, []);
  });

  it('a screen that fails to render says so under its heading; the other screens and the navigation go on', async () => {
    // An answer the Audit log cannot read (an object where its entries go), as a host of another version might give.
    let broken = true;
    await page.route('**/api/call', async (route) => {
      if (!broken || methodOf(route) !== 'audit.read') return route.fallback();
      await route.fulfill({ status: 200, json: { ok: true, result: { entries: [] } } });
    });
    try {
      const errorsBefore = d.pageErrors.length;
      await page.locator('nav').getByRole('link', { name: 'Audit log', exact: true }).click();
      const audit = page.locator('#screen-audit');
      const fault = audit.getByRole('alert').filter({ hasText: 'This screen stopped on a fault' });
      await fault.waitFor();
      assert.match((await fault.locator('p').first().textContent()) ?? '', /^This screen stopped on a fault: \S/);
      assert.equal(await audit.getByRole('heading', { level: 2 }).textContent(), 'Audit log');
      // React reports it on the console; nothing else went wrong.
      assert.ok(d.pageErrors.length > errorsBefore, 'the fault is reported on the console');
      d.pageErrors.splice(errorsBefore);
      // The rest of the Desk works: another screen, and back (its heading takes the focus).
      await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
      await page.locator('#screen-tasks').getByRole('heading', { name: 'Tasks', level: 2 }).waitFor();
      await page.locator('nav').getByRole('link', { name: 'Audit log', exact: true }).click();
      await page.waitForFunction(() => document.activeElement?.id === 'heading-audit');
      // Once the host answers as expected, Show it again brings the screen back.
      broken = false;
      await fault.getByRole('button', { name: 'Show it again' }).click();
      await audit.getByRole('button', { name: 'Refresh' }).waitFor();
      assert.equal(await fault.count(), 0);
    } finally {
      await page.unrouteAll({ behavior: 'wait' });
    }
    assert.deepEqual(d.pageErrors, []);
  });

  it('Inbox: an answer that cannot reach Taskdesk says nothing was sent, and that Taskdesk may be at a new address', async () => {
    const asked = desk.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Which depot?',
          requestedSchema: { type: 'object', properties: { depot: { type: 'string', title: 'Depot' } } }
        }
      },
      ElicitResultSchema
    );
    await page.getByRole('link', { name: /^Inbox/ }).click();
    const card = page.locator('article.inbox-item').filter({ hasText: 'Which depot?' });
    await card.getByLabel('Depot').fill('east');
    // Browser mode gone from this address (stopped, or started again on another port).
    await page.route('**/api/call', (route) => route.abort('connectionrefused'));
    await card.getByRole('button', { name: 'Submit' }).click();
    const box = failureIn(card);
    await box.waitFor();
    assert.equal(
      await box.locator('.action-error-what').textContent(),
      'Your answer was not sent to Server desk. Taskdesk could not be reached, so nothing was sent.'
    );
    assert.equal(
      await box.locator('.action-error-next').textContent(),
      'Check that Taskdesk is running, then try again. If it was started again, it may be at a new address: copy what you typed here, then open the address it printed.'
    );
    // What was typed is still there to copy.
    assert.equal(await card.getByLabel('Depot').inputValue(), 'east');
    await page.unrouteAll({ behavior: 'wait' });
    await card.getByRole('button', { name: 'Submit' }).click();
    assert.deepEqual((await asked).content, { depot: 'east' });
    // Browser mode itself stopped: the banner says so, and where Taskdesk may be once started again.
    await d.server.close();
    await page
      .getByText(
        'Lost contact with Taskdesk. Reconnecting… If Taskdesk was started again, it may be at a new address: open the one it printed.'
      )
      .waitFor();
    // The browser logs the refused connection itself (or, when the server closed while its event
    // stream was being set up again, a socket not connected; or, when the tab's check of why the
    // stream failed went out on a kept-alive connection the closing server then dropped, a reset);
    // nothing else went wrong on the page.
    assert.deepEqual(
      d.pageErrors.filter(
        (error) => !/net::ERR_(CONNECTION_REFUSED|SOCKET_NOT_CONNECTED|CONNECTION_RESET)\b/.test(error)
      ),
      []
    );
  });
});
