import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CancelTaskResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Locator, Page, Route } from 'playwright-core';
import { systemClock } from '../../app/core/clock.js';
import { nextEvent, peerServer } from '../support/host-fixture.js';
import { ClockedTaskStore } from '../support/requestor-task-store.js';
import { createTaskToolPeer } from '../support/task-tool-server.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { question } from './detail-return.js';
import { recordHeard, recordSaid, said, saidTimes } from './live-region.js';

/** What a screen reader heard since `recordHeard` (see live-region.ts). */
const heard = (page: Page) => page.evaluate(() => (window as unknown as { heard: string[] }).heard);

/**
 * A task a server gave Taskdesk, cancelled from the Tasks screen, ends for that server with no
 * answer, and cannot be undone: its Cancel says what it ends and asks first. What the person did
 * is said as done; what they did not do is not said.
 */
describe('Cancel and Forget on the Tasks screen, in headless Chromium against the real core', () => {
  const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 50 });
  const { peer: work } = createTaskToolPeer({ clock: systemClock, store });
  const asker = peerServer('asker');
  let d: DeskFixture;
  let page: Page;
  let tasks: Locator;

  before(async () => {
    d = await startDesk({ asker, work });
    page = d.page;
    tasks = page.getByRole('region', { name: 'Tasks' });
  });

  after(async () => {
    await d?.close();
    store.close();
  });

  const toTasks = () => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tasks' }).click();
  /** Where the received task `taskId` stands in the core, and whether the Inbox still asks the person. */
  const standing = async (taskId: string) => ({
    status: (await d.fixture.host.call('tasks.get', { taskId })).task.status,
    inInbox: (await d.fixture.host.call('inbox.list', {})).some((item) => item.taskId === taskId)
  });

  it('asks before a question’s Cancel ends its task, saying what its server is told; Keep leaves it, and the cancel is said once done', async () => {
    const asked = await asker.server.request(question('Which shelf for ‘Ivanhoe’?'), CreateTaskResultSchema);
    const { taskId } = asked.task;
    await toTasks();
    const row = tasks.locator(`tr[data-task-key="received:${taskId}"]`);
    const cancel = row.getByRole('button', { name: /^Cancel Question / });
    // Named for what it ends; its dots say it asks first.
    assert.equal(await cancel.textContent(), 'Cancel question…');
    await cancel.click();
    const dialog = page.getByRole('dialog', { name: 'Cancel Server asker’s question?' });
    await dialog.waitFor();
    assert.equal(
      (await dialog.locator('.dialog-body').innerText()).replace(/\s+/g, ' ').trim(),
      'Server asker asked “Which shelf for ‘Ivanhoe’?” as a task. Cancelling ends the task: Server asker is told it was cancelled, and gets no answer. This cannot be undone. To answer it, or to decline it with a few seconds to undo, open it in the Inbox instead.'
    );
    // The safe answer has the focus: an Enter too many keeps the question.
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Keep the question');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    assert.deepEqual(await standing(taskId), { status: 'working', inInbox: true });
    await row.locator('.status', { hasText: 'Waiting for you' }).waitFor();
    assert.match((await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))) ?? '', /^Cancel Q/);

    await recordSaid(page);
    await cancel.click();
    await dialog.getByRole('button', { name: 'Cancel question', exact: true }).click();
    await row.locator('.cancelled-by', { hasText: /^by you$/ }).waitFor();
    assert.deepEqual(await standing(taskId), { status: 'cancelled', inInbox: false });
    await saidTimes(page, /Cancelled Server asker’s question “Which shelf for ‘Ivanhoe’\?”\./);
    assert.deepEqual(d.pageErrors, []);
  });

  it('cancels nothing of a question that ended while the person was asked, and says so', async () => {
    const asked = await asker.server.request(question('Which shelf for ‘Rob Roy’?'), CreateTaskResultSchema);
    const { taskId } = asked.task;
    await toTasks();
    const row = tasks.locator(`tr[data-task-key="received:${taskId}"]`);
    await row.getByRole('button', { name: /^Cancel Question / }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel Server asker’s question?' });
    await dialog.waitFor();
    // Its server withdraws it meanwhile.
    await asker.server.request({ method: 'tasks/cancel', params: { taskId } }, CancelTaskResultSchema);
    await row.locator('[data-status="cancelled"]').waitFor();
    await recordSaid(page);
    await dialog.getByRole('button', { name: 'Cancel question', exact: true }).click();
    await saidTimes(page, /^The question ended meanwhile: nothing was cancelled\.$/);
    // No failure said in its row: there was nothing to cancel.
    assert.equal(await tasks.getByText(/was not cancelled/).count(), 0);
    assert.deepEqual(d.pageErrors, []);
  });

  it('names a model request’s Cancel for it, in its row and its detail, and asks there too', async () => {
    const asked = await asker.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the forecast.' } }],
          maxTokens: 60,
          task: { ttl: 600_000 }
        }
      },
      CreateTaskResultSchema
    );
    const { taskId } = asked.task;
    await toTasks();
    const row = tasks.locator(`tr[data-task-key="received:${taskId}"]`);
    assert.equal(
      await row.getByRole('button', { name: /^Cancel Model request / }).textContent(),
      'Cancel model request…'
    );
    await row.getByRole('button', { name: /^Details of / }).click();
    const detail = tasks.locator('.task-detail');
    await detail.getByRole('button', { name: 'Cancel model request…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel Server asker’s model request?' });
    await dialog.waitFor();
    assert.match(
      await dialog.locator('.dialog-body').innerText(),
      /^Server asker asked for a model reply to “Summarise the forecast\.” as a task\. Cancelling ends the task: Server asker is told it was cancelled, and gets no reply from the model\./
    );
    assert.equal(await dialog.getByRole('button', { name: 'Keep the model request' }).count(), 1);
    // Escape is the safe answer too.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assert.equal((await standing(taskId)).status, 'working');
    await detail.getByRole('button', { name: 'Close' }).click();
    await d.fixture.host.call('tasks.cancel', { taskId });
    assert.deepEqual(d.pageErrors, []);
  });

  it('says a tool task forgotten in its Details was forgotten, and nothing of a filter none is set of', async () => {
    const call = await d.fixture.host.call('tools.call', {
      serverId: 'work',
      name: 'slow',
      arguments: { durationMs: 600_000 }
    });
    assert.ok(call.type === 'task');
    await toTasks();
    const row = tasks.locator(`tr[data-task-key="requested:${call.task.outboundId}"]`);
    // The person's own tool call: cancelled at once (as its card under Tools does it), no question.
    await row.getByRole('button', { name: /^Cancel Tool call slow / }).click();
    await row.locator('.cancelled-by', { hasText: /^by you$/ }).waitFor();
    await page.waitForFunction(() =>
      document.activeElement?.getAttribute('aria-label')?.startsWith('Details of Tool call slow')
    );

    await recordSaid(page);
    await row.getByRole('button', { name: /^Details of / }).click();
    const detail = tasks.locator('.task-detail');
    const forgotten = nextEvent(d.fixture.host, 'outbound.changed', (event) => event.type === 'removed');
    // The core's news that the task was forgotten (its event) before its answer to Forget, as it
    // often comes: the row goes, and the Forget button with it, while the focus is on it.
    const eventFirst = async (route: Route) => {
      if ((route.request().postDataJSON() as { method?: string }).method !== 'outbound.forget') return route.fallback();
      const response = await route.fetch();
      await row.waitFor({ state: 'detached' });
      await route.fulfill({ response });
    };
    await page.route('**/api/call', eventFirst);
    await detail.getByRole('button', { name: 'Forget this task' }).click();
    await forgotten;
    await row.waitFor({ state: 'detached' });
    await saidTimes(page, /Forgot the slow task; History keeps it\./);
    await page.waitForFunction(() => document.activeElement?.id === 'task-detail-title');
    const all = (await said(page)).join(' ');
    assert.doesNotMatch(all, /filter/, `said: ${all}`);
    // What the person just did, not a guess between expiring and forgetting.
    await detail.getByText('kept in History (you forgot the task itself)', { exact: false }).waitFor();
    assert.equal(await detail.getByText('has expired or was forgotten', { exact: false }).count(), 0);
    await page.unroute('**/api/call', eventFirst);
    await detail.getByRole('button', { name: 'Close' }).click();
    assert.deepEqual(d.pageErrors, []);
  });
});

/**
 * While the Tasks screen is shown, a task that fails is news: said, politely, with why; several
 * that fail together are said together, a few seconds apart at most. The count of tasks, which
 * changes as tasks come and go, is not (it is while a filter is set: "3 of 4 tasks match").
 */
describe('tasks that fail while the Tasks screen is shown, as a screen reader hears them', () => {
  const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 50 });
  const { peer: work } = createTaskToolPeer({ clock: systemClock, store });
  let d: DeskFixture;
  let page: Page;

  before(async () => {
    // The page's clock is driven here: the few seconds between two sayings pass when the test says.
    d = await startDesk({ work }, { beforeLoad: (p) => p.clock.install() });
    page = d.page;
  });

  after(async () => {
    await d?.close();
    store.close();
  });

  /** Calls `name` as a task that ends at once, and waits for its end in the core and in its row. */
  const failing = async (name: 'fail-tool' | 'fail-rpc', count = 1) => {
    let left = count;
    const ended = new Promise<void>((resolve) => {
      const off = d.fixture.host.on('outbound.ended', () => {
        if (--left > 0) return;
        off();
        resolve();
      });
    });
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const call = await d.fixture.host.call('tools.call', { serverId: 'work', name, arguments: { durationMs: 10 } });
      assert.ok(call.type === 'task');
      ids.push(call.task.outboundId);
    }
    await ended;
    for (const id of ids) await page.locator(`tr[data-task-key="requested:${id}"] [data-status="failed"]`).waitFor();
  };

  it('says a failed task with why at once, those failing within a few seconds of it together after them, and no count of tasks', async () => {
    const tasks = page.getByRole('region', { name: 'Tasks' });
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tasks' }).click();
    await tasks.locator('.tasks-count').waitFor();
    // The page's time stands still from here: the live region says its lines as the test lets it.
    await page.clock.pauseAt(Date.now() + 100);
    await recordHeard(page);
    const failures = async () => (await heard(page)).filter((text) => text.includes('failed'));

    await failing('fail-tool');
    await page.clock.runFor(100);
    await page.waitForFunction(() =>
      (window as unknown as { heard: string[] }).heard.some((text) => text.includes('fail-tool'))
    );
    assert.deepEqual(await failures(), ['fail-tool on Server work failed: disk full.']);

    // Three more within the gap: said together as it ends, not one by one.
    await failing('fail-rpc', 3);
    await page.clock.runFor(1_000);
    assert.deepEqual(await failures(), ['fail-tool on Server work failed: disk full.']);
    await page.clock.runFor(5_000);
    await page.waitForFunction(() =>
      (window as unknown as { heard: string[] }).heard.some((text) => text.includes('fail-rpc'))
    );
    assert.deepEqual(await failures(), [
      'fail-tool on Server work failed: disk full.',
      '3 tasks failed: fail-rpc on Server work 3 times.'
    ]);
    // The count line changed with each task ("1 task", "2 tasks"…) and said none of it.
    assert.equal(await tasks.locator('.tasks-count').textContent(), '4 tasks');
    const counts = (await heard(page)).filter((text) => /^\d+ tasks?$/.test(text));
    assert.deepEqual(counts, []);

    // A filter set, its count is said; back to every task, the count the person's change brought.
    const filters = tasks.getByRole('search', { name: 'Tasks' });
    await filters.getByLabel('Search').fill('fail-tool');
    await page.waitForFunction(() => (window as unknown as { heard: string[] }).heard.includes('1 of 4 tasks match'));
    await filters.getByLabel('Search').fill('');
    await page.clock.runFor(100);
    await page.waitForFunction(() => (window as unknown as { heard: string[] }).heard.includes('4 tasks'));
    assert.deepEqual(d.pageErrors, []);
  });

  it('says nothing of the tasks that had failed before the page opened at Tasks: only one that fails then', async () => {
    const tasks = page.getByRole('region', { name: 'Tasks' });
    // Opened at #tasks (a reload, a link): the screen is shown before the first snapshot brings the
    // four failed tasks above.
    await page.reload();
    await page.locator('#app[data-ready="true"]').waitFor();
    await tasks.locator('.tasks-count').getByText('4 tasks', { exact: true }).waitFor();
    await recordHeard(page);
    await failing('fail-tool');
    // Past the gap between two sayings: anything held back would be said by now.
    await page.clock.runFor(6_000);
    await page.waitForFunction(() =>
      (window as unknown as { heard: string[] }).heard.some((text) => text.includes('failed'))
    );
    assert.deepEqual(
      (await heard(page)).filter((text) => text.includes('failed')),
      ['fail-tool on Server work failed: disk full.']
    );
    assert.doesNotMatch((await page.locator('.sr-only[aria-live="polite"]').textContent()) ?? '', /fail-rpc/);
    assert.deepEqual(d.pageErrors, []);
  });
});
