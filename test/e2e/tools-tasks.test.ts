import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ElicitResultSchema, RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';
import { type Browser, type Locator, type Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { systemClock } from '../../app/core/clock.js';
import { nextEvent, startHostWith, type InMemoryHostFixture, type PeerServer } from '../support/host-fixture.js';
import { keptLine } from '../../renderer/components/kept-words.js';
import { ClockedTaskStore } from '../support/requestor-task-store.js';
import { createTaskToolPeer, createTaskToolServer, type TaskToolServerOptions } from '../support/task-tool-server.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { buildRenderer, openDesk, root, openToolForm, toolCallCard } from './renderer-build.js';
import { recordSaid, said, saidTimes } from './live-region.js';
import { passUndoWindow } from './undo-window.js';
import { countRenders, takeRenders } from './render-count.js';

const SCREENSHOT = path.join(root, '.tmp/tools-tasks.png');

/** An hour between polls: within a test, only "Check now" can make the host ask the server again. */
const LONG_POLL_MS = 3_600_000;

function peer(options: Omit<TaskToolServerOptions, 'clock'>): PeerServer {
  const { server } = createTaskToolServer({ clock: systemClock, ...options });
  return { server: server.server, notifications: [], nextNotification: () => new Promise(() => undefined) };
}

describe('the Tools screen: a task’s ttl, Check now, and the server’s own task list', () => {
  // The "queue" server's store: the test changes its tasks behind the host's back, and lists two a page.
  const store = new ClockedTaskStore({ clock: systemClock, pollInterval: LONG_POLL_MS, pageSize: 2 });
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let fixture: InMemoryHostFixture;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  let tools: Locator;
  let calls: Locator;
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
    fixture = await startHostWith({ queue: peer({ store }), nolist: peer({ pollInterval: 50, list: false }) });
    ({ server, browser, page } = await openDesk(fixture.host, built.dir, pageErrors, {
      viewport: { width: 1100, height: 1400 },
      // The page's clock runs as usual, and the last test moves it past a task's TTL.
      beforeLoad: (p) => p.clock.install()
    }));
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tools', exact: true }).click();
    tools = page.getByRole('region', { name: 'Tools' });
    calls = page.getByRole('region', { name: 'Tool calls' });
    await tools.getByLabel('Server', { exact: true }).selectOption('queue');
    await tools.locator('li[data-tool="slow"]').waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await fixture?.dispose();
    store.close();
    built?.remove();
  });

  const openForm = (name: string): Promise<Locator> => openToolForm(tools, name);
  const callCard = (toolName: string): Locator => toolCallCard(calls, toolName);

  function outboundOf(toolName: string) {
    const task = fixture.host.requestor.list().find((t) => t.toolName === toolName);
    assert.ok(task, `an outbound task of ${toolName}`);
    return task;
  }

  it('asks only for calls that run as tasks how long to keep the task, checks it, and sends the chosen ttl', async () => {
    const ttlLabel = 'Keep the task for (minutes)';
    const optional = await openForm('work-optional');
    await optional.getByLabel(ttlLabel).waitFor();
    await optional.getByLabel('Run as a task').uncheck();
    await optional.getByLabel(ttlLabel).waitFor({ state: 'hidden' });
    await optional.getByLabel('Run as a task').check();
    await optional.getByLabel(ttlLabel).waitFor();
    const forbidden = await openForm('work-forbidden');
    assert.equal(await forbidden.getByLabel(ttlLabel).count(), 0, 'a plain call has no ttl');

    const form = await openForm('slow');
    const ttl = form.getByLabel(ttlLabel);
    // What an empty field means is said, in the hint and as the field's placeholder. It asks for a
    // ttl: the server decides what it keeps (MCP tasks), and the hint promises no more.
    await form
      .getByText(
        'How long to ask the server to keep the task and its result; the server may keep it for less. Empty: ask for Taskdesk’s default, 60 minutes.'
      )
      .waitFor();
    assert.equal(await ttl.getAttribute('placeholder'), '60');
    // The hint as wide as the form's other hints, the box narrow.
    const [hintBox, argumentBox, ttlBox] = await Promise.all([
      form.locator('.field-hint', { hasText: 'How long to ask the server' }).boundingBox(),
      form.getByLabel('durationMs').boundingBox(),
      ttl.boundingBox()
    ]);
    assert.ok(hintBox && argumentBox && ttlBox);
    assert.ok(hintBox.width >= argumentBox.width - 1, `hint ${hintBox.width} px, a field ${argumentBox.width} px`);
    assert.ok(ttlBox.width <= 18 * 16 + 1, 'the ttl box stays narrow');
    await form.getByLabel('durationMs').fill('600000');
    for (const bad of ['0', '-3', '2.5']) {
      await ttl.fill(bad);
      await form.getByRole('button', { name: 'Call tool' }).click();
      await form.getByText('Whole minutes, 1 or more').waitFor();
      assert.equal(await ttl.getAttribute('aria-invalid'), 'true');
      assert.ok(await ttl.evaluate((element) => element === document.activeElement), 'focus goes to the ttl');
      assert.equal(await form.locator('.action-error-what').textContent(), 'One field needs correcting.');
    }
    assert.equal(fixture.host.requestor.list().length, 0, 'nothing was sent');
    // An argument wrong too: the summary counts its mark and the ttl's, down as they are
    // corrected (the ttl checked again as it changes, once marked), then goes.
    await form.getByLabel('durationMs').fill('');
    await form.getByRole('button', { name: 'Call tool' }).click();
    const what = form.locator('.action-error-what');
    await what.filter({ hasText: '2 fields need correcting.' }).waitFor();
    await form.getByLabel('durationMs').fill('600000');
    await what.filter({ hasText: 'One field needs correcting.' }).waitFor();
    await ttl.fill('0');
    assert.equal(await ttl.getAttribute('aria-invalid'), 'true', 'still not whole minutes of 1 or more');
    assert.equal(await what.textContent(), 'One field needs correcting.');
    await ttl.fill('90');
    await form.getByText('Whole minutes, 1 or more').waitFor({ state: 'detached' });
    assert.equal(await ttl.getAttribute('aria-invalid'), null);
    await what.waitFor({ state: 'detached' });
    assert.equal(fixture.host.requestor.list().length, 0, 'nothing was sent');

    await form.getByRole('button', { name: 'Call tool' }).click();
    await form.getByText(/^Started as a task: /).waitFor();
    assert.equal(await ttl.getAttribute('aria-invalid'), null);
    const stored = outboundOf('slow');
    // Where the person pressed Call tool: the task's status as it goes, and a way to its card, far below.
    const started = form.locator('.started-task');
    await started.locator('[data-status="working"]').waitFor();
    const card = callCard('slow');
    await started.getByRole('button', { name: 'Show it under Tool calls' }).click();
    assert.ok(
      await card.evaluate(
        (li) =>
          li === document.activeElement &&
          // Its top (its heading) below the sticky bar and notices, not under them.
          li.getBoundingClientRect().top >= document.querySelector('.top-area')!.getBoundingClientRect().bottom &&
          li.getBoundingClientRect().top < window.innerHeight
      ),
      'the card takes the focus, its top in sight'
    );
    assert.equal(
      await started.getByRole('link', { name: 'its detail on Tasks' }).getAttribute('href'),
      `#tasks/${encodeURIComponent(`requested:${stored.outboundId}`)}`
    );
    assert.equal(stored.requestedTtl, 90 * 60_000);
    assert.equal(
      (await store.getTask(stored.taskId))?.ttl,
      90 * 60_000,
      'the server keeps the task for the ttl asked for'
    );

    await card.locator('[data-status="working"]').waitFor();
    assert.match(
      (await card.locator('.meta').textContent()) ?? '',
      /the server keeps the task and its result for 1 h 29 min more, until /
    );
    assert.equal(await card.locator('.meta time').last().getAttribute('datetime'), stored.expiresAt);
    assert.equal(Date.parse(stored.expiresAt!) - Date.parse(stored.createdAt), 90 * 60_000);
    assert.equal(await card.locator('.ttl-asked').count(), 0, 'kept as long as asked: nothing to explain');
  });

  it('"Check now" asks the server at once: a new status message, then the end and the result', async () => {
    const form = await openForm('work-required');
    await form.getByLabel('durationMs').fill('600000');
    await form.getByRole('button', { name: 'Call tool' }).click();
    const card = callCard('work-required');
    await card.locator('[data-status="working"]').waitFor();
    const stored = outboundOf('work-required');
    assert.equal(stored.requestedTtl, 3_600_000, 'an empty ttl asks for the host’s default');
    assert.equal(stored.task.pollInterval, LONG_POLL_MS);
    // Named by its tool and when it started, as a plain call's Cancel is: not by the server's id for the task.
    const check = card.getByRole('button', { name: /^Check work-required task started \d{1,2}:\d{2}:\d{2}\b.* now$/ });
    assert.equal(await check.count(), 1);
    assert.ok(!((await check.getAttribute('aria-label')) ?? '').includes(stored.taskId.slice(0, 8)));

    // Nothing changed yet: the card says when it was checked all the same.
    await check.click();
    await card.locator('.checked-at time').waitFor();
    assert.equal(await card.locator('.status-message').count(), 0);

    await store.updateTaskStatus(stored.taskId, 'working', 'Half way there');
    assert.equal(await card.locator('.status-message').count(), 0, 'the host has not polled since');
    await check.click();
    await card.locator('.status-message', { hasText: 'Half way there' }).waitFor();
    assert.equal(await card.getAttribute('data-state'), 'working');

    await store.storeTaskResult(stored.taskId, 'completed', { content: [{ type: 'text', text: 'finished early' }] });
    await check.click();
    await card.locator('[data-status="completed"]').waitFor();
    await card.locator('.tool-result .text-block', { hasText: 'finished early' }).waitFor();
    assert.equal(await card.locator('.status-message').count(), 0, 'the outcome, not the interim "Half way there"');
    assert.equal(
      await card.getByRole('button', { name: /^Check / }).count(),
      0,
      'a finished task has nothing to check'
    );
    assert.equal(await card.locator('.checked-at').count(), 0);
    assert.equal(fixture.host.requestor.get(stored.outboundId)?.state, 'completed');
  });

  it('lists the server’s own tasks a page at a time, and says when a server cannot list them', async () => {
    // A task Taskdesk did not start: the list shows it without a tool call.
    const outside = await store.createTask({ ttl: null }, 'outside-1', { method: 'tools/call', params: {} });
    const slow = outboundOf('slow');
    const required = outboundOf('work-required');

    const panel = tools.locator('details.server-tasks-panel');
    await panel.locator('summary', { hasText: 'Server’s tasks' }).click();
    const table = panel.getByRole('table', { name: 'Tasks on Server queue' });
    const rows = table.locator('tbody tr');
    const status = panel.getByRole('status');
    await status.getByText('2 tasks so far; the server has more.').waitFor();
    assert.equal(await rows.count(), 2);
    await panel.getByRole('button', { name: 'More' }).click();
    await status.getByText('3 tasks.').waitFor();
    assert.equal(await panel.getByRole('button', { name: 'More' }).isHidden(), true, 'no more pages');
    assert.ok(
      await panel.getByRole('button', { name: 'Reload' }).evaluate((element) => element === document.activeElement),
      'focus moves from the hidden More to Reload'
    );

    const cells = await rows.evaluateAll((trs) =>
      trs.map((tr) => [
        tr.getAttribute('data-task-id'),
        ...Array.from(tr.querySelectorAll('td'))
          .slice(1, 3)
          .map((td) => td.firstChild?.textContent),
        tr.lastElementChild?.textContent
      ])
    );
    assert.deepEqual(cells, [
      [slow.taskId, 'slow', 'Working', '1 h 30 min'],
      [required.taskId, 'work-required', 'Completed', '1 h'],
      [outside.taskId, 'Not from Taskdesk', 'Working', 'No limit']
    ]);

    await panel.getByRole('button', { name: 'Reload' }).click();
    await status.getByText('2 tasks so far; the server has more.').waitFor();
    assert.equal(await rows.count(), 2);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    // The open panel follows the chosen server.
    await tools.getByLabel('Server', { exact: true }).selectOption('nolist');
    await status.getByText('Server nolist does not list its tasks: it did not declare tasks/list.').waitFor();
    assert.equal(await table.isHidden(), true);
    assert.equal(await panel.getByRole('button', { name: 'More' }).isHidden(), true);
    assert.deepEqual(pageErrors, []);
  });

  it('says a task the person cancelled was "Cancelled by you", with no error under it, the focus on its heading', async () => {
    const form = await openForm('work-optional');
    await form.getByLabel('durationMs').fill('600000');
    await form.getByRole('button', { name: 'Call tool' }).click();
    const card = callCard('work-optional');
    await card.locator('[data-status="working"]').waitFor();
    // From the keyboard, as a person who pressed Enter on it.
    await card.getByRole('button', { name: /^Cancel work-optional task / }).focus();
    await recordSaid(page);
    await page.keyboard.press('Enter');
    await card.locator('[data-status="cancelled"]').waitFor();
    // Said naming its server (the one chosen on Tools), as a plain call's cancel is ("The call of
    // ask on Server beta was cancelled.").
    await saidTimes(page, /^The work-optional task on Server \w+ was cancelled\.$/);
    const server = (await card.locator('h3 .muted').textContent())?.replace(/^ on /, '');
    assert.deepEqual(
      (await said(page)).filter((text) => text.includes('cancelled')),
      [`The work-optional task on ${server} was cancelled.`]
    );
    await card.locator('.outcome-cancelled', { hasText: /^Cancelled by you$/ }).waitFor();
    // A poll after the cancel finds no result stored: that is not an error to show.
    await card.getByRole('button', { name: /^Forget / }).waitFor();
    // The focus Cancel held goes to the card's heading, beside its new status, not to Forget,
    // where one more Enter would forget the call.
    await card.locator('h3').and(page.locator(':focus')).waitFor({ timeout: 5_000 });
    assert.equal(await card.locator('.tool-result-error').count(), 0);
    assert.doesNotMatch((await card.textContent()) ?? '', /Error -?\d+|−32603|has no result stored/);
    // The server's word on the cancel only says again what "Cancelled by you" says.
    const stored = fixture.host.requestor.list().find((task) => task.toolName === 'work-optional')!;
    assert.equal(stored.task.statusMessage, 'Client cancelled task execution.');
    assert.equal(await card.locator('.status-message').count(), 0);
    assert.doesNotMatch((await card.textContent()) ?? '', /Client cancelled/);
  });

  it('says a task its server no longer knows is Lost: no countdown nor old status message, on its card, row and detail', async () => {
    // The queue server's tasks, which the test can make it forget (the test before chose another server).
    await tools.getByLabel('Server', { exact: true }).selectOption('queue');
    await tools.locator('li[data-tool-server="queue"][data-tool="work-optional"]').waitFor();
    const form = await openForm('work-optional');
    await form.getByLabel('durationMs').fill('600000');
    await form.getByRole('button', { name: 'Call tool' }).click();
    await form.locator('.started-task [data-status="working"]').waitFor();
    const stored = fixture.host.requestor
      .list()
      .filter((task) => task.toolName === 'work-optional' && task.state === 'working')
      .at(-1);
    assert.ok(stored);
    const card = calls.locator(`li[data-outbound-id="${stored.outboundId}"]`);
    const check = card.getByRole('button', { name: /^Check work-optional task .* now$/ });
    const interim = 'Found multiple interpretations. Requesting clarification...';
    await store.updateTaskStatus(stored.taskId, 'working', interim);
    await check.click();
    await card.locator('.status-message', { hasText: interim }).waitFor();

    // As after a restart of the server: it no longer knows the task, long before its ttl ends.
    store.forget(stored.taskId);
    await check.click();
    await card.locator('[data-status="lost"]').waitFor();
    await card
      .locator('.reason', {
        hasText: /no longer has this task \(it may have restarted, or keeps its tasks for one connection only\)/
      })
      .waitFor();
    assert.equal(await card.locator('.status-message').count(), 0, 'not the interim status message');
    const meta = (await card.locator('.meta').textContent()) ?? '';
    assert.match(meta, /the server no longer keeps the task and its result$/);
    assert.doesNotMatch(meta, /keeps the task and its result for|more|until/);
    assert.equal(await form.locator('.started-task [data-status="lost"]').count(), 1, 'the form says so too');
    // And why, under the form where Call tool was pressed, as the card does.
    await form
      .locator('.call-result .reason', {
        hasText: /no longer has this task \(it may have restarted, or keeps its tasks for one connection only\)/
      })
      .waitFor();

    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    const row = tasks.locator(`tr[data-task-key="requested:${stored.outboundId}"]`);
    await row.locator('[data-status="lost"]').waitFor();
    assert.equal(await row.locator('.task-kept').textContent(), 'No longer kept');
    assert.doesNotMatch((await row.textContent()) ?? '', /Found multiple|more/);
    await row.getByRole('button', { name: /^Details of / }).click();
    const detail = tasks.locator(`.task-detail[data-task-key="requested:${stored.outboundId}"]`);
    assert.equal(await detail.locator('.detail-times .task-kept').textContent(), 'No longer kept by the server');
    assert.doesNotMatch((await detail.locator('.detail-status').textContent()) ?? '', /Found multiple/);
    await detail.getByRole('button', { name: 'Close' }).click();
    await page.locator('nav').getByRole('link', { name: 'Tools', exact: true }).click();
    await tools.waitFor();
  });

  it('says the same time left in a finished task’s row and its detail, at any moment', async () => {
    const done = outboundOf('work-required');
    assert.equal(done.state, 'completed');
    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    const row = tasks.locator(`tr[data-task-key="requested:${done.outboundId}"]`);
    await row.getByRole('button', { name: /^Details of / }).click();
    const detail = tasks.locator(`.task-detail[data-task-key="requested:${done.outboundId}"]`);
    await detail.waitFor();
    // Two moments a few seconds on (not more: the next test counts a ttl in whole minutes from its start).
    // Part way through a minute, the detail said seconds where the row said minutes.
    const end = Date.parse(done.expiresAt!);
    const now = await page.evaluate(() => Date.now());
    for (const left of [end - now - 1_000, end - now - 7_500]) {
      await page.clock.pauseAt(end - left);
      const words = keptLine('requested', done.expiresAt!, end - left, { unitMs: 60_000, compact: true }).words;
      assert.match(words, /^Kept for \d+ (h|min)( \d+ min)? more$/, 'in whole minutes');
      await row.locator('.task-kept', { hasText: new RegExp(`^${words}$`) }).waitFor();
      await detail
        .locator('.detail-times .task-kept', {
          hasText: new RegExp(`^${words.replace(/^Kept /, 'Kept by the server ')}, until \\S`)
        })
        .waitFor({ timeout: 5_000 });
    }
    await page.clock.resume();
    await detail.getByRole('button', { name: 'Close' }).click();
    await page.locator('nav').getByRole('link', { name: 'Tools', exact: true }).click();
    await tools.waitFor();
  });

  it('says when a task’s TTL has ended rather than how long it is still kept', async () => {
    const card = callCard('slow');
    const expiresAt = await card.locator('.meta time').last().getAttribute('datetime');
    assert.match(
      (await card.locator('.meta').textContent()) ?? '',
      /the server keeps the task and its result for 1 h 29 min more, until /
    );
    await page.clock.fastForward('01:31:00');
    await card
      .locator('.meta')
      .getByText(/the server kept the task and its result until/)
      .waitFor();
    assert.doesNotMatch((await card.locator('.meta').textContent()) ?? '', /keeps/);
    assert.equal(await card.locator('.meta time').last().getAttribute('datetime'), expiresAt);
  });

  it('says in the past tense until when a finished task was kept, once that time has passed, on its Tasks row', async () => {
    // The page's clock is past the hour work-required's server kept it for (the test before moved it).
    const done = outboundOf('work-required');
    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const row = page.getByRole('region', { name: 'Tasks' }).locator(`tr[data-task-key="requested:${done.outboundId}"]`);
    const kept = row.locator('.task-kept');
    await row.locator('.task-kept', { hasText: /^Was kept until \S/ }).waitFor();
    assert.equal(await kept.locator('time').getAttribute('datetime'), done.expiresAt);
    await page.locator('nav').getByRole('link', { name: 'Tools', exact: true }).click();
  });
});

/** A server's store that keeps its tasks five minutes at most, whatever ttl was asked for. */
class FiveMinuteStore extends ClockedTaskStore {
  override createTask(...[params, ...rest]: Parameters<ClockedTaskStore['createTask']>) {
    return super.createTask({ ...params, ttl: Math.min(params.ttl ?? 300_000, 300_000) }, ...rest);
  }
}

describe('a tool task’s card on the Tools screen, kept for less than asked, and after a reload', () => {
  const store = new FiveMinuteStore({ clock: systemClock, pollInterval: 50 });
  const { peer: work } = createTaskToolPeer({ clock: systemClock, store });
  let d: DeskFixture;

  before(async () => {
    d = await startDesk({ work }, { viewport: { width: 1100, height: 1200 } });
  });

  after(async () => {
    await d?.close();
    store.close();
  });

  /** Calls `slow` as a task, and its card once it shows the task working. */
  async function slowCard() {
    const call = await d.fixture.host.call('tools.call', {
      serverId: 'work',
      name: 'slow',
      arguments: { durationMs: 600_000 }
    });
    assert.equal(call.type, 'task');
    const { outboundId, taskId } = call.type === 'task' ? call.task : { outboundId: '', taskId: '' };
    await d.page.locator('nav').getByRole('link', { name: 'Tools', exact: true }).click();
    const card = d.page.getByRole('region', { name: 'Tool calls' }).locator(`li[data-outbound-id="${outboundId}"]`);
    await card.locator('[data-status="working"]').waitFor();
    return { outboundId, taskId, card };
  }

  it('says once how long the task is kept, with the ttl Taskdesk asked for when the server keeps it for less', async () => {
    const { card } = await slowCard();

    // Taskdesk asked for its default hour; the server keeps the task 5 minutes. One clause says both.
    const meta = card.locator('.meta');
    await meta.getByText(/Taskdesk asked for 1 h/).waitFor();
    assert.match(
      (await meta.textContent()) ?? '',
      /the server keeps the task and its result for [34] min more, until .+ \(Taskdesk asked for 1 h\)$/
    );
    assert.equal(((await card.textContent()) ?? '').match(/keeps|kept/g)?.length, 1, 'its lifetime said once');
    assert.deepEqual(d.pageErrors, []);
  });

  it('shows a finished task’s outcome, not the status message it had while it ran, after a reload too', async () => {
    const { page, fixture } = d;
    const { outboundId, taskId, card } = await slowCard();
    await store.updateTaskStatus(taskId, 'working', 'Generating report…');
    await card.locator('.status-message', { hasText: 'Generating report…' }).waitFor();
    // The server ends it and leaves its interim message on it, as servers often do.
    await store.storeTaskResult(taskId, 'completed', { content: [{ type: 'text', text: 'Report ready' }] });
    await card.locator('[data-status="completed"]').waitFor();
    await card.locator('.tool-result .text-block', { hasText: 'Report ready' }).waitFor();
    assert.equal(fixture.host.requestor.get(outboundId)?.task.statusMessage, 'Generating report…');
    assert.equal(fixture.host.requestor.get(outboundId)?.messageFromRun, true);
    assert.equal(await card.locator('.status-message').count(), 0, 'the outcome, not "Generating report…"');

    // A reload starts from the host's snapshot, which holds the message as the server left it.
    await page.reload();
    await page.locator('#app[data-ready="true"]').waitFor();
    await page.locator('nav').getByRole('link', { name: 'Tools', exact: true }).click();
    await card.locator('.tool-result .text-block', { hasText: 'Report ready' }).waitFor();
    assert.equal(await card.getAttribute('data-state'), 'completed');
    assert.doesNotMatch((await card.textContent()) ?? '', /Generating report/);
    assert.equal(await card.locator('.status-message').count(), 0);
    assert.deepEqual(d.pageErrors, []);
  });

  it('keeps a message that came with the end (a failure’s reason) on the finished card, after a reload too', async () => {
    const { page, fixture } = d;
    const { outboundId, taskId, card } = await slowCard();
    await store.updateTaskStatus(taskId, 'working', 'Calling the upstream service…');
    await card.locator('.status-message', { hasText: 'Calling the upstream service…' }).waitFor();
    await store.updateTaskStatus(taskId, 'failed', 'The upstream service refused the job');
    await card.locator('[data-status="failed"]').waitFor();
    await card.locator('.status-message', { hasText: 'The upstream service refused the job' }).waitFor();
    assert.equal(fixture.host.requestor.get(outboundId)?.messageFromRun, undefined);

    await page.reload();
    await page.locator('#app[data-ready="true"]').waitFor();
    await page.locator('nav').getByRole('link', { name: 'Tools', exact: true }).click();
    await card.locator('.status-message', { hasText: 'The upstream service refused the job' }).waitFor();
    assert.doesNotMatch((await card.textContent()) ?? '', /Calling the upstream service/);
    assert.deepEqual(d.pageErrors, []);
  });

  it('says why a task failed as its outcome — card, Tasks row, detail and History — not the generic “has no result stored”', async () => {
    const { page, fixture } = d;
    const { outboundId, taskId, card } = await slowCard();
    const fetched = nextEvent(
      fixture.host,
      'outbound.changed',
      (event) => event.type === 'changed' && event.task.outboundId === outboundId && event.task.outcome !== undefined
    );
    const reason = 'The upstream service refused the job: quota of 500 requests per day used up';
    await store.updateTaskStatus(taskId, 'failed', reason);
    // The server kept no result: its tasks/result answered the SDK's generic error.
    const event = await fetched;
    const outcome = event.type === 'changed' ? event.task.outcome : undefined;
    assert.equal(outcome?.type, 'error');
    assert.match(outcome?.type === 'error' ? outcome.error.message : '', /^Task \S+ has no result stored$/);
    const noError = /Error -?\d+|−32603|has no result stored/;

    // The Tasks row and its detail: the detail's raw JSON holds the error, so the page has it.
    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    const row = tasks.locator(`tr[data-task-key="requested:${outboundId}"]`);
    await row.locator('[data-status="failed"]').waitFor();
    await row.getByRole('button', { name: /^Details of / }).click();
    const detail = tasks.locator(`.task-detail[data-task-key="requested:${outboundId}"]`);
    await detail.locator('.raw-json', { hasText: 'has no result stored' }).waitFor();
    // The row's Status says Failed: its Outcome is the reason, whole (not cut to lines) at any width.
    for (const width of [1280, 800]) {
      await page.setViewportSize({ width, height: 900 });
      const cell = row.locator('td.outcome');
      assert.equal((await cell.innerText()).trim(), reason, `at ${width}`);
      const cut = await cell.evaluate((td) =>
        Array.from(td.querySelectorAll('*'), (element) => element.scrollHeight - element.clientHeight)
      );
      assert.ok(
        cut.every((hidden) => hidden <= 1),
        `at ${width}: ${cut.join(', ')}px of the reason cut off`
      );
    }
    await page.setViewportSize({ width: 1100, height: 1200 });
    assert.equal(await detail.locator('.detail-status .status-message').textContent(), reason);
    assert.equal(await detail.locator('.tool-result-error').count(), 0);
    assert.doesNotMatch(
      (await detail.evaluate((element) => {
        const copy = element.cloneNode(true) as HTMLElement;
        copy.querySelector('.raw-json')?.remove();
        return copy.textContent;
      })) ?? '',
      noError
    );
    await detail.getByRole('button', { name: 'Close' }).click();

    await page.locator('nav').getByRole('link', { name: 'Tools', exact: true }).click();
    await card.locator('.failed-reason', { hasText: `Failed: ${reason}` }).waitFor();
    assert.doesNotMatch((await card.textContent()) ?? '', noError);
    assert.equal(((await card.textContent()) ?? '').split(reason).length - 1, 1, 'the reason said once');

    await page.locator('nav').getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    await history.locator(`li[data-history-id="requested:${outboundId}"] .history-title`).click();
    const entry = history.locator(`.history-detail[data-history-id="requested:${outboundId}"]`);
    await entry.locator('.meta', { hasText: reason }).waitFor();
    assert.equal(await entry.locator('.tool-result-error').count(), 0);
    assert.doesNotMatch((await entry.textContent()) ?? '', noError);
    await entry.getByRole('button', { name: 'Close' }).click();
    assert.deepEqual(d.pageErrors, []);
  });

  it('shows a tool call’s arguments whole in its Tasks row when two lines of the cell hold them, at 1280 and 800 px, with a tooltip', async () => {
    const { page } = d;
    const { outboundId } = await slowCard();
    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const preview = page
      .getByRole('region', { name: 'Tasks' })
      .locator(`tr[data-task-key="requested:${outboundId}"] .task-preview`);
    for (const width of [1280, 800]) {
      await page.setViewportSize({ width, height: 900 });
      await preview.waitFor();
      assert.equal(await preview.textContent(), 'durationMs: 600000');
      assert.equal(await preview.getAttribute('title'), 'durationMs: 600000');
      const box = await preview.evaluate((code) => ({
        lines: Math.round(code.getBoundingClientRect().height / parseFloat(getComputedStyle(code).lineHeight)),
        hidden: code.scrollHeight - code.clientHeight
      }));
      assert.ok(box.hidden <= 1, `at ${width}: ${box.hidden}px of the arguments cut off`);
      assert.ok(box.lines <= 2, `at ${width}: on ${box.lines} lines`);
    }
    await page.setViewportSize({ width: 1100, height: 1200 });
    assert.deepEqual(d.pageErrors, []);
  });
});

/**
 * A question a server asks during a tool task of Taskdesk's, declined in the Inbox: while the
 * Decline waits out its undo window, the task's card under Tool calls and the line under its call
 * form say so, as its row on Tasks does, not that the question still waits for the person.
 */
describe('a tool task’s card while the Decline of its server’s question waits out its undo window, in headless Chromium against the real core', () => {
  const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 50 });
  const { peer: work } = createTaskToolPeer({ clock: systemClock, store });
  let d: DeskFixture;
  let page: Page;

  before(async () => {
    // The page's clock is driven here: the undo window passes when the test says.
    d = await startDesk({ work }, { viewport: { width: 1100, height: 1400 }, beforeLoad: (p) => p.clock.install() });
    page = d.page;
  });

  after(async () => {
    await d?.close();
    store.close();
  });

  it('says “Declined its server’s question: you can still undo it in the Inbox.”, not “Waiting for you”, and waits again after Undo', async () => {
    // A section's link, named with its count ("Inbox 1").
    const nav = (name: string) =>
      page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: new RegExp(`^${name}\\b`) });
    await nav('Tools').click();
    const tools = page.getByRole('region', { name: 'Tools' });
    await tools.getByLabel('Server', { exact: true }).selectOption('work');
    const form = await openToolForm(tools, 'slow');
    await form.getByLabel('durationMs').fill('600000');
    await form.getByRole('button', { name: 'Call tool' }).click();
    const card = toolCallCard(page.getByRole('region', { name: 'Tool calls' }), 'slow');
    await card.locator('[data-status="working"]').waitFor();
    const task = d.fixture.host.requestor.list().find((t) => t.toolName === 'slow');
    assert.ok(task);
    const added = nextEvent(d.fixture.host, 'inbox.added', ({ item }) => item.relatedTaskId === task.taskId);
    const answered = work.server
      .request(
        {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Which depot, for the slow call?',
            requestedSchema: { type: 'object', properties: { depot: { type: 'string' } } },
            _meta: { [RELATED_TASK_META_KEY]: { taskId: task.taskId } }
          }
        },
        ElicitResultSchema
      )
      // Its action; what it failed with should the test end first (the host closed).
      .then(
        (result) => result.action,
        (error: unknown) => error
      );
    const { item } = await added;
    const answer = card.getByRole('link', { name: 'Answer Server work’s question' });
    await card.locator('.status').getByText('Waiting for you', { exact: true }).waitFor();
    await answer.waitFor();
    await form.locator('.started-task .status').getByText('Waiting for you', { exact: true }).waitFor();
    await form
      .locator('.started-task-waiting', { hasText: 'Server work has a question for you in the Inbox.' })
      .waitFor();

    await nav('Inbox').click();
    const question = page.getByRole('article', { name: 'Which depot, for the slow call?' });
    // The page's time stands still from here: the undo window lasts until the test passes it.
    await page.clock.pauseAt(Date.now() + 100);
    await question.getByRole('button', { name: 'Decline' }).click();
    await page.locator('.inbox-held').waitFor();
    await nav('Tools').click();
    const held = 'Declined its server’s question: you can still undo it in the Inbox.';
    // The task runs on: its badge says its status, and what the person did to its question.
    const line = card.locator('.status-message', { hasText: held });
    await line.waitFor();
    assert.equal(await line.textContent(), held);
    assert.equal(await card.getByText('Waiting for you').count(), 0);
    assert.equal(await answer.count(), 0);
    assert.equal(await card.locator('.status').getAttribute('data-status'), await card.getAttribute('data-state'));
    assert.equal(
      await line.getByRole('link', { name: 'undo it in the Inbox' }).getAttribute('href'),
      `#inbox/${encodeURIComponent(item.id)}`
    );
    // Under its call form, the same.
    assert.equal(await form.locator('.started-task').getByText('Waiting for you').count(), 0);
    assert.equal(await form.locator('.started-task-waiting').textContent(), held);

    // Undone from the card's link, it waits for the person again.
    await line.getByRole('link', { name: 'undo it in the Inbox' }).click();
    await page.waitForFunction(() => document.activeElement?.textContent === 'Undo');
    await page.keyboard.press('Enter');
    await question.waitFor();
    await nav('Tools').click();
    await card.locator('.status').getByText('Waiting for you', { exact: true }).waitFor();
    await answer.waitFor();
    assert.equal(await card.getByText(held).count(), 0);

    // Declined again, and its window over: it went to the server, and the task runs on.
    await nav('Inbox').click();
    await question.getByRole('button', { name: 'Decline' }).click();
    await page.locator('.inbox-held').waitFor();
    await passUndoWindow(page);
    assert.equal(await answered, 'decline');
    await nav('Tools').click();
    await card.getByText(held).waitFor({ state: 'detached' });
    assert.equal(await card.getByText('Waiting for you').count(), 0);
    assert.deepEqual(d.pageErrors, []);
  });
});

/**
 * A running tool task's card, the line under its call form and its tool's "Last called" line say
 * where the task stands with the person: they render again when that changes, not at every change
 * of the Inbox (a question of another call, its going), which on a Desk with many cards made each
 * Inbox change render them all.
 */
describe('a tool task’s card, form line and Last called line while the Inbox changes for something else, in headless Chromium against the real core', () => {
  const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 50 });
  const { peer: work } = createTaskToolPeer({ clock: systemClock, store });
  const CARD = 'li.outbound-task';
  const FORM_LINE = 'p.started-task';
  const LAST_CALL = 'li.tool[data-tool="slow"] p.tool-last-call';
  let d: DeskFixture;
  let page: Page;

  before(async () => {
    d = await startDesk(
      { work },
      { viewport: { width: 1100, height: 1400 }, beforeLoad: (p) => countRenders(p, [CARD, FORM_LINE, LAST_CALL]) }
    );
    page = d.page;
  });

  after(async () => {
    await d?.close();
    store.close();
  });

  /** Asks the person a question from the work server; `relatedTaskId`: during that task. Aborted by `signal`. */
  const ask = (message: string, signal: AbortSignal, relatedTaskId?: string) =>
    work.server
      .request(
        {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message,
            requestedSchema: { type: 'object', properties: { depot: { type: 'string' } } },
            ...(relatedTaskId !== undefined && { _meta: { [RELATED_TASK_META_KEY]: { taskId: relatedTaskId } } })
          }
        },
        ElicitResultSchema,
        { signal }
      )
      // Aborted by the test, or the host closed first.
      .catch(() => undefined);

  it('does not render them again for an Inbox change that is not their task’s, and does for its question', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tools' }).click();
    const tools = page.getByRole('region', { name: 'Tools' });
    await tools.getByLabel('Server', { exact: true }).selectOption('work');
    const form = await openToolForm(tools, 'slow');
    await form.getByLabel('durationMs').fill('600000');
    await form.getByRole('button', { name: 'Call tool' }).click();
    const card = toolCallCard(page.getByRole('region', { name: 'Tool calls' }), 'slow');
    await card.locator('[data-status="working"]').waitFor();
    await form.locator('.started-task [data-status="working"]').waitFor();
    await page.locator(LAST_CALL, { hasText: /: working — see it on Tasks$/ }).waitFor();
    const task = d.fixture.host.requestor.list().find((t) => t.toolName === 'slow');
    assert.ok(task);
    const badge = page.locator('a[data-screen="inbox"] .badge');
    await takeRenders(page);

    // Another question of the same server, not of the task: in the Inbox, then withdrawn.
    const other = new AbortController();
    const asked = nextEvent(d.fixture.host, 'inbox.added', ({ item }) => item.relatedTaskId === undefined);
    const otherAnswer = ask('Which shelf?', other.signal);
    await asked;
    await badge.getByText('1', { exact: true }).waitFor();
    const withdrawn = nextEvent(d.fixture.host, 'inbox.removed');
    other.abort();
    await withdrawn;
    await otherAnswer;
    await badge.waitFor({ state: 'detached' });
    assert.deepEqual(await takeRenders(page), { [CARD]: 0, [FORM_LINE]: 0, [LAST_CALL]: 0 }, 'none rendered again');

    // Its own question: each says it waits for the person, rendered for it.
    const own = new AbortController();
    const ownAnswer = ask('Which depot, for the slow call?', own.signal, task.taskId);
    await card.locator('.status').getByText('Waiting for you', { exact: true }).waitFor();
    await form.locator('.started-task .status').getByText('Waiting for you', { exact: true }).waitFor();
    await page.locator(LAST_CALL, { hasText: /: waiting for you — see it on Tasks$/ }).waitFor();
    const rendered = await takeRenders(page);
    for (const selector of [CARD, FORM_LINE, LAST_CALL]) assert.ok(rendered[selector]! >= 1, `${selector} rendered`);
    own.abort();
    await ownAnswer;
    await card.locator('.status').getByText('Waiting for you', { exact: true }).waitFor({ state: 'detached' });
    assert.deepEqual(d.pageErrors, []);
  });
});
