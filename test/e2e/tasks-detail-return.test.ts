import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateTaskResultSchema, ElicitResultSchema, RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';
import type { Locator, Page } from 'playwright-core';
import { systemClock } from '../../app/core/clock.js';
import { nextEvent, peerServer } from '../support/host-fixture.js';
import { ClockedTaskStore } from '../support/requestor-task-store.js';
import { createTaskToolPeer } from '../support/task-tool-server.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { hash, question, scrollTo } from './detail-return.js';
import { NOTIFICATION_STAND_IN, notificationsShown } from './notification-stand-in.js';
import { passUndoWindow } from './undo-window.js';
import { recordSaid, said, saidTimes } from './live-region.js';

/**
 * Screens stay mounted while hidden, and keep their state: a task's detail open on the Tasks
 * screen is open again, where it was, on coming back to Tasks by its link, its address naming it.
 */
describe('a task’s detail kept while another screen is shown, in headless Chromium against the real core', () => {
  const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 50 });
  const { peer: work } = createTaskToolPeer({ clock: systemClock, store });
  const asker = peerServer('asker');
  let d: DeskFixture;
  let page: Page;
  let tasks: Locator;

  before(async () => {
    // Short enough that a detail scrolls the page.
    d = await startDesk({ asker, work }, { viewport: { width: 1280, height: 600 } });
    page = d.page;
    tasks = page.getByRole('region', { name: 'Tasks' });
  });

  after(async () => {
    await d?.close();
    store.close();
  });

  const nav = (name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name });
  /**
   * Follows a link of the bar as a person's click does. Playwright's click first scrolls the page
   * to bring the sticky bar's link "into view", and moved it from where the person left it.
   */
  const follow = (name: string) => nav(name).evaluate((link: HTMLElement) => link.click());
  const detail = () => tasks.locator('.task-detail');

  it('shows the detail that was open, at its scroll place, after a visit to the Inbox by its link; Back and Close still close it', async () => {
    const asked = await asker.server.request(question('Which region is the report for?'), CreateTaskResultSchema);
    const key = `received:${asked.task.taskId}`;
    const address = `#tasks/${encodeURIComponent(key)}`;
    await nav('Tasks').click();
    const row = tasks.locator(`tr[data-task-key="${key}"]`);
    await row.getByRole('button', { name: /^Details of / }).click();
    await detail().getByRole('link', { name: 'Answer it in the Inbox' }).waitFor();
    assert.equal(await hash(page), address);
    // Read down to its raw JSON.
    const place = await scrollTo(page, 400);
    assert.equal(place, 400);

    await follow('Inbox');
    await page.getByRole('heading', { name: 'Inbox', level: 2 }).waitFor();
    assert.equal(await hash(page), '#inbox');
    await follow('Tasks');
    // Shown again as it was, the address naming it (a link or a reload opens it too).
    await page.waitForFunction((wanted) => location.hash === wanted, address);
    await detail().getByRole('link', { name: 'Answer it in the Inbox' }).waitFor();
    assert.equal(await detail().getAttribute('data-task-key'), key);
    assert.equal(await page.evaluate(() => scrollY), place);
    // The focus on its heading (not the screen's, which would have scrolled the page to the top).
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'task-detail-title');

    // Back goes to the Inbox (the address was brought to name the detail, not added after it),
    // Back again to the detail as it was opened, and once more to the list, the detail closed.
    await page.goBack();
    await page.waitForFunction(() => location.hash === '#inbox');
    await page.goBack();
    await page.waitForFunction((wanted) => location.hash === wanted, address);
    await detail().getByRole('link', { name: 'Answer it in the Inbox' }).waitFor();
    assert.equal(await page.evaluate(() => scrollY), place);
    await page.goBack();
    await page.waitForFunction(() => location.hash === '#tasks');
    await detail().waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label')?.startsWith('Details of '));

    // Closed, it stays closed: back from the Inbox, the list alone.
    await row.getByRole('button', { name: /^Details of / }).click();
    await detail().getByRole('button', { name: 'Close' }).click();
    await detail().waitFor({ state: 'detached' });
    await nav('Inbox').click();
    await page.getByRole('heading', { name: 'Inbox', level: 2 }).waitFor();
    await nav('Tasks').click();
    await page.waitForFunction(() => document.activeElement?.id === 'heading-tasks');
    assert.equal(await hash(page), '#tasks');
    assert.equal(await detail().count(), 0);
    assert.deepEqual(d.pageErrors, []);
  });

  it('opens the detail a link from another screen names, not the one kept', async () => {
    const first = await asker.server.request(question('Which shelf?'), CreateTaskResultSchema);
    const second = await asker.server.request(question('Which colour?'), CreateTaskResultSchema);
    await nav('Tasks').click();
    await tasks
      .locator(`tr[data-task-key="received:${first.task.taskId}"]`)
      .getByRole('button', { name: /^Details of / })
      .click();
    await detail().getByRole('heading', { name: 'Which shelf?' }).waitFor();
    await nav('Inbox').click();
    await page.getByRole('heading', { name: 'Inbox', level: 2 }).waitFor();
    // As the Inbox's and History's links to a task do.
    const other = `#tasks/${encodeURIComponent(`received:${second.task.taskId}`)}`;
    await page.evaluate((to) => (location.hash = to), other);
    await detail().getByRole('heading', { name: 'Which colour?' }).waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'task-detail-title');
    assert.equal(await hash(page), other);
    assert.deepEqual(d.pageErrors, []);
  });

  it('shows the list, not the detail, when its task was forgotten meanwhile', async () => {
    const done = nextEvent(
      d.fixture.host,
      'outbound.changed',
      (event) => event.type === 'changed' && event.task.toolName === 'report' && event.task.outcome !== undefined
    );
    const call = await d.fixture.host.call('tools.call', {
      serverId: 'work',
      name: 'report',
      arguments: { durationMs: 100 }
    });
    assert.equal(call.type, 'task');
    const outboundId = call.type === 'task' ? call.task.outboundId : '';
    await done;
    await nav('Tasks').click();
    await tasks
      .locator(`tr[data-task-key="requested:${outboundId}"]`)
      .getByRole('button', { name: /^Details of / })
      .click();
    await detail().getByRole('heading', { name: 'report', exact: true }).waitFor();
    // On Tools, its card goes as it is forgotten.
    await nav('Tools').click();
    const card = page.locator(`li.outbound-task[data-outbound-id="${outboundId}"]`);
    await card.waitFor();
    await d.fixture.host.call('outbound.forget', { outboundId });
    await card.waitFor({ state: 'detached' });
    await nav('Tasks').click();
    await page.waitForFunction(() => document.activeElement?.id === 'heading-tasks');
    assert.equal(await hash(page), '#tasks');
    assert.equal(await detail().count(), 0);
    assert.deepEqual(d.pageErrors, []);
  });

  it('shows what the address says on Back and Forward: the list on an older #tasks, not the detail kept', async () => {
    const asked = await asker.server.request(question('Which depot?'), CreateTaskResultSchema);
    const key = `received:${asked.task.taskId}`;
    const address = `#tasks/${encodeURIComponent(key)}`;
    const tasksHeading = page.locator('#heading-tasks');
    // The list (A), the Inbox by its link (B), then the task by a link to it (C), as "Go to its task" does.
    await page.evaluate(() => (location.hash = '#inbox'));
    await follow('Tasks');
    await tasks.locator(`tr[data-task-key="${key}"]`).waitFor();
    assert.equal(await hash(page), '#tasks');
    await follow('Inbox');
    await page.getByRole('heading', { name: 'Inbox', level: 2 }).waitFor();
    await page.evaluate((to) => (location.hash = to), address);
    await detail().getByRole('heading', { name: 'Which depot?' }).waitFor();

    // Back to the Inbox (the detail kept), and Back again to the list as it was: not the detail.
    await page.goBack();
    await page.getByRole('heading', { name: 'Inbox', level: 2 }).waitFor();
    await page.goBack();
    await tasksHeading.waitFor();
    assert.equal(await hash(page), '#tasks');
    assert.equal(await detail().count(), 0);
    await page.waitForFunction(() => document.activeElement?.id === 'heading-tasks');
    // Forward goes where it went: the Inbox, then the detail.
    await page.goForward();
    await page.getByRole('heading', { name: 'Inbox', level: 2 }).waitFor();
    await page.goForward();
    await page.waitForFunction((wanted) => location.hash === wanted, address);
    await detail().getByRole('heading', { name: 'Which depot?' }).waitFor();
    assert.deepEqual(d.pageErrors, []);
  });

  it('shows the list on another link to it (the Tools screen’s lede), the detail kept no more', async () => {
    const asked = await asker.server.request(question('Which aisle?'), CreateTaskResultSchema);
    const key = `received:${asked.task.taskId}`;
    await follow('Tasks');
    await tasks
      .locator(`tr[data-task-key="${key}"]`)
      .getByRole('button', { name: /^Details of / })
      .click();
    await detail().getByRole('heading', { name: 'Which aisle?' }).waitFor();
    await follow('Tools');
    await page.getByRole('heading', { name: 'Tools', level: 2 }).waitFor();
    await page
      .locator('#screen-tools .lede')
      .getByRole('link', { name: 'Tasks' })
      .evaluate((link: HTMLElement) => link.click());
    await page.locator('#heading-tasks').waitFor();
    assert.equal(await hash(page), '#tasks');
    assert.equal(await detail().count(), 0);
    await page.waitForFunction(() => document.activeElement?.id === 'heading-tasks');
    // Nor does the Tasks link bring it back after.
    await follow('Inbox');
    await page.getByRole('heading', { name: 'Inbox', level: 2 }).waitFor();
    await follow('Tasks');
    await page.waitForFunction(() => document.activeElement?.id === 'heading-tasks');
    assert.equal(await hash(page), '#tasks');
    assert.equal(await detail().count(), 0);
    assert.deepEqual(d.pageErrors, []);
  });
});

/** Keeps each notification the stand-in shows (`window.__notificationsShown`), to click it as the person would. */
const KEEP_NOTIFICATIONS = `(() => {
  const StandIn = window.Notification;
  window.__notificationsShown = [];
  window.Notification = class extends StandIn {
    constructor(title, options) {
      super(title, options);
      window.__notificationsShown.push(this);
    }
  };
})();`;

describe('the notification of a tool call’s task that ended, clicked, in headless Chromium against the real core', () => {
  const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 50 });
  const { peer: work } = createTaskToolPeer({ clock: systemClock, store });
  let d: DeskFixture;
  let page: Page;

  before(async () => {
    d = await startDesk(
      { work },
      {
        // One script: the order of several is not defined.
        beforeLoad: async (p) => {
          await p.addInitScript(`${NOTIFICATION_STAND_IN}\n${KEEP_NOTIFICATIONS}`);
        }
      }
    );
    page = d.page;
  });

  after(async () => {
    await d?.close();
    store.close();
  });

  /** Calls `report` as a task and waits for its end; returns its outbound id. */
  const report = async (durationMs: number) => {
    const ended = nextEvent(d.fixture.host, 'outbound.ended');
    const call = await d.fixture.host.call('tools.call', {
      serverId: 'work',
      name: 'report',
      arguments: { durationMs }
    });
    assert.equal(call.type, 'task');
    await ended;
    return call.type === 'task' ? call.task.outboundId : '';
  };

  it('opens the task it tells of, not another task’s detail kept on Tasks', async () => {
    const nav = (name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name });
    const tasks = page.getByRole('region', { name: 'Tasks' });
    const detail = tasks.locator('.task-detail');
    // A task's detail open on Tasks, kept as the person goes to the Inbox.
    const first = await report(20);
    await nav('Tasks').click();
    await tasks
      .locator(`tr[data-task-key="requested:${first}"]`)
      .getByRole('button', { name: /^Details of / })
      .click();
    await detail.getByRole('heading', { name: 'report', exact: true }).waitFor();
    await nav('Inbox').click();
    await page.getByRole('button', { name: 'Notify me when something arrives' }).click();
    await page.getByText('Notifications are on.').waitFor();

    // Another task ends while the page is not in front (the stand-in starts so): told, and clicked.
    const second = await report(30);
    await notificationsShown(page, 1);
    await page.evaluate(() =>
      (window as unknown as { __notificationsShown: Array<{ onclick: () => void }> }).__notificationsShown[0]!.onclick()
    );
    await page.locator('#heading-tasks').waitFor();
    const key = `requested:${second}`;
    assert.equal(await hash(page), `#tasks/${encodeURIComponent(key)}`);
    await detail.getByRole('heading', { name: 'report', exact: true }).waitFor();
    assert.equal(await detail.getAttribute('data-task-key'), key);
    await page.waitForFunction(() => document.activeElement?.id === 'task-detail-title');
    assert.deepEqual(d.pageErrors, []);
  });
});

/**
 * A Decline, Dismiss or Reject given in the Inbox waits out its undo window before it is sent:
 * meanwhile its task's row says the answer is on its way, not that the task waits for the person.
 */
describe('a task’s row while its question’s Decline waits out its undo window, in headless Chromium against the real core', () => {
  const asker = peerServer('asker');
  let d: DeskFixture;
  let page: Page;

  before(async () => {
    // The page's clock is driven here: the undo window passes when the test says.
    d = await startDesk({ asker }, { beforeLoad: (page) => page.clock.install() });
    page = d.page;
  });

  after(async () => {
    await d?.close();
  });

  it('says “Declining” in its badge and that it can still be undone in its outcome, then how it ended', async () => {
    const asked = await asker.server.request(question('Which shelf is it on?'), CreateTaskResultSchema);
    const nav = (name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name });
    const row = page
      .getByRole('region', { name: 'Tasks' })
      .locator(`tr[data-task-key="received:${asked.task.taskId}"]`);
    const badge = row.locator('.status');
    const outcome = row.locator('td.outcome');
    await nav('Tasks').click();
    await badge.getByText('Waiting for you').waitFor();
    assert.equal(await outcome.textContent(), 'Pending');

    await nav('Inbox').click();
    const card = page.getByRole('article', { name: 'Which shelf is it on?' });
    await card.getByRole('button', { name: 'Decline' }).click();
    const line = page.locator('.inbox-held');
    await line.waitFor();
    await nav('Tasks').click();
    await badge.getByText('Declining', { exact: true }).waitFor();
    assert.equal(await outcome.textContent(), 'Declined: you can still undo it in the Inbox.');
    // Said once, in its badge: not by the message Taskdesk gave its server while it waited.
    assert.equal(await row.getByText('Waiting for your answer in the Inbox').count(), 0);
    // Not among the tasks that wait on the person, as the Inbox's count no longer has it.
    const filters = page.getByRole('search', { name: 'Tasks' });
    await filters.getByLabel('Status').selectOption({ label: 'Waiting for you' });
    await row.waitFor({ state: 'detached' });
    await filters.getByLabel('Status').selectOption('');

    // So does its detail, whose link goes to the Undo.
    await row.getByRole('button', { name: /^Details of / }).click();
    const detail = page.locator('.task-detail');
    await detail.locator('.status').getByText('Declining', { exact: true }).waitFor();
    assert.equal(
      await detail.locator('.status-message').filter({ hasText: 'Inbox' }).textContent(),
      'Declined: you can still undo it in the Inbox.'
    );
    // Not the message Taskdesk gave its server while the task waited on the person.
    assert.equal(await detail.locator('.detail-status').getByText('Waiting for your answer in the Inbox').count(), 0);
    assert.equal(await detail.getByRole('link', { name: 'Answer it in the Inbox' }).count(), 0);
    await detail.getByRole('link', { name: 'undo it in the Inbox' }).click();
    await page.waitForFunction(() => document.activeElement?.textContent === 'Undo');

    // Undone, it waits for the person again; its detail, kept, says where to answer it.
    await page.keyboard.press('Enter');
    await card.waitFor();
    await nav('Tasks').click();
    await badge.getByText('Waiting for you').waitFor();
    assert.equal(await outcome.textContent(), 'Pending');
    await detail.getByRole('link', { name: 'Answer it in the Inbox' }).waitFor();
    await detail.locator('.status').getByText('Waiting for you').waitFor();

    // Declined again, and its window over: it went, and the row says how the task ended.
    await nav('Inbox').click();
    await card.getByRole('button', { name: 'Decline' }).click();
    await line.waitFor();
    await nav('Tasks').click();
    await badge.getByText('Declining', { exact: true }).waitFor();
    await page.clock.fastForward(5_000);
    await badge.getByText('Declined', { exact: true }).waitFor();
    assert.equal(await outcome.textContent(), 'No answer');
    assert.deepEqual(d.pageErrors, []);
  });
});

/**
 * A question a server asks during a tool task of Taskdesk's: its Decline, while it waits out its
 * undo window, declines the question, not the task, which runs on. The row and the detail both
 * say the task's status and that the question was declined, which can still be undone.
 */
describe('a tool task’s row and detail while the Decline of its server’s question waits out its undo window, in headless Chromium against the real core', () => {
  const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 50 });
  const { peer: work } = createTaskToolPeer({ clock: systemClock, store });
  let d: DeskFixture;
  let page: Page;

  before(async () => {
    // The page's clock is driven here: the undo window passes when the test says.
    d = await startDesk({ work }, { beforeLoad: (p) => p.clock.install() });
    page = d.page;
  });

  after(async () => {
    await d?.close();
    store.close();
  });

  it('says “Working” and “Declined its server’s question: you can still undo it in the Inbox.” in both, and Check now finds it working', async () => {
    const call = await d.fixture.host.call('tools.call', {
      serverId: 'work',
      name: 'slow',
      arguments: { durationMs: 600_000 }
    });
    assert.ok(call.type === 'task');
    const added = nextEvent(d.fixture.host, 'inbox.added', ({ item }) => item.relatedTaskId === call.task.taskId);
    const answered = work.server
      .request(
        {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Which depot, for the slow call?',
            requestedSchema: { type: 'object', properties: { depot: { type: 'string' } } },
            _meta: { [RELATED_TASK_META_KEY]: { taskId: call.task.taskId } }
          }
        },
        ElicitResultSchema
      )
      // Its action; what it failed with should the test end first (the host closed).
      .then(
        (result) => result.action,
        (error: unknown) => error
      );
    await added;
    const nav = (name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name });
    const tasks = page.getByRole('region', { name: 'Tasks' });
    const row = tasks.locator(`tr[data-task-key="requested:${call.task.outboundId}"]`);
    const outcome = row.locator('td.outcome');
    const detail = tasks.locator('.task-detail');
    await nav('Tasks').click();
    await row.locator('.status').getByText('Waiting for you').waitFor();
    await row.getByRole('button', { name: /^Details of / }).click();
    await detail.locator('.status').getByText('Waiting for you').waitFor();
    await detail.getByRole('link', { name: 'Answer its server’s question in the Inbox' }).waitFor();

    await nav('Inbox').click();
    // The page's time stands still from here: the undo window lasts until the test passes it.
    await page.clock.pauseAt(Date.now() + 100);
    await page
      .getByRole('article', { name: 'Which depot, for the slow call?' })
      .getByRole('button', { name: 'Decline' })
      .click();
    await page.locator('.inbox-held').waitFor();
    await nav('Tasks').click();
    const held = 'Declined its server’s question: you can still undo it in the Inbox.';
    await row.locator('.status').getByText('Working', { exact: true }).waitFor();
    assert.equal(await outcome.textContent(), held);
    await detail.locator('.detail-status .status').getByText('Working', { exact: true }).waitFor();
    assert.equal(await detail.getByText('Waiting for you').count(), 0);
    assert.equal(await detail.locator('.status-message').filter({ hasText: 'Inbox' }).textContent(), held);
    assert.equal(await detail.getByRole('link', { name: 'Answer its server’s question in the Inbox' }).count(), 0);
    await detail.getByRole('link', { name: 'undo it in the Inbox' }).waitFor();
    // Check now says where it stands as its row does: working, the question no longer waiting.
    await recordSaid(page);
    await detail.getByRole('button', { name: 'Check now' }).click();
    await detail.locator('.checked-at').waitFor();
    assert.equal(await detail.locator('.checked-at').textContent(), 'Checked just now; still working.');
    // The live region speaks on the next frame (said with the Decline's words, still waiting for
    // one): the page's time moved on that far, well within the window.
    await page.clock.runFor(100);
    await saidTimes(page, /Checked the slow task just now; /);
    assert.match((await said(page)).join(' '), /Checked the slow task just now; still working\.$/);

    // Its window over, the Decline goes to the server; the task runs on, and the row says so.
    await passUndoWindow(page);
    assert.equal(await answered, 'decline');
    await detail.getByText(held).waitFor({ state: 'detached' });
    await row.locator('.status').getByText('Working', { exact: true }).waitFor();
    assert.equal(await outcome.textContent(), 'Pending');
    assert.deepEqual(d.pageErrors, []);
  });
});
