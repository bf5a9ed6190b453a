import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Browser, type Locator, type Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { systemClock } from '../../app/core/clock.js';
import { startHostWith, type InMemoryHostFixture, type PeerServer } from '../support/host-fixture.js';
import { createTaskToolServer } from '../support/task-tool-server.js';
import {
  accessibleDescription,
  buildRenderer,
  edgeGaps,
  root,
  openDesk,
  openToolForm,
  toolCallCard
} from './renderer-build.js';
import { openServerSettings } from './server-settings.js';
import { recordSaid as recordLiveRegion, said as saidOn, saidTimes as saidTimesOn } from './live-region.js';

const SCREENSHOT = path.join(root, '.tmp/tools.png');

/** An SDK `McpServer` with task tools as a peer of the in-memory host fixture. */
function taskToolPeer(options: { cancel?: boolean; immediateResponse?: string } = {}): PeerServer {
  // Real time with a short poll interval: the UI waits on what it shows, never on a sleep.
  const { server } = createTaskToolServer({ clock: systemClock, pollInterval: 50, ...options });
  return { server: server.server, notifications: [], nextNotification: () => new Promise(() => undefined) };
}

describe('the Tools screen calls tools, as tasks where allowed, and follows the tasks', () => {
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
    fixture = await startHostWith({
      jobs: taskToolPeer({ immediateResponse: 'Working on it; results follow.' }),
      fixed: taskToolPeer({ cancel: false })
    });
    ({ server, browser, page } = await openDesk(fixture.host, built.dir, pageErrors, {
      viewport: { width: 1100, height: 1400 }
    }));
    tools = page.getByRole('region', { name: 'Tools' });
    calls = page.getByRole('region', { name: 'Tool calls' });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await fixture?.dispose();
    built?.remove();
  });

  const openForm = (name: string): Promise<Locator> => openToolForm(tools, name);
  const callCard = (toolName: string): Locator => toolCallCard(calls, toolName);
  /** Whether an element is whole in the window, below the sticky bar. */
  const inSight = (locator: Locator) =>
    locator.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const bar = document.querySelector('.top-area')?.getBoundingClientRect().bottom ?? 0;
      return box.height > 0 && box.top >= bar - 1 && box.bottom <= window.innerHeight + 1;
    });
  /** Waits until an element is whole in the window, below the sticky bar (the page scrolls it there after a render). */
  const waitInSight = async (locator: Locator) => {
    const handle = await locator.elementHandle();
    await page.waitForFunction(
      (element) => {
        const box = element.getBoundingClientRect();
        const bar = document.querySelector('.top-area')?.getBoundingClientRect().bottom ?? 0;
        return box.height > 0 && box.top >= bar - 1 && box.bottom <= window.innerHeight + 1;
      },
      handle,
      { timeout: 5_000 }
    );
  };
  const recordSaid = () => recordLiveRegion(page);
  const saidTimes = (pattern: RegExp) => saidTimesOn(page, pattern);
  const said = () => saidOn(page);

  it('opens from the Servers screen and lists the tools with how each is called', async () => {
    await page.getByRole('link', { name: 'Servers' }).click();
    // A server without folders says so in a line, not in a box as large as a screen's empty state.
    await openServerSettings(page.locator('li[data-server-id="jobs"]'));
    const noFolders = page.locator('li[data-server-id="jobs"]').getByText('No folders.');
    assert.ok(((await noFolders.boundingBox())?.height ?? Infinity) < 30);
    await page.locator('li[data-server-id="jobs"]').getByRole('button', { name: 'Tools of Server jobs' }).click();
    await tools.waitFor();
    assert.equal(await page.evaluate(() => location.hash), '#tools');
    assert.equal(await tools.getByLabel('Server', { exact: true }).inputValue(), 'jobs');
    await tools.locator('li[data-tool="work-required"]').waitFor();
    const gaps = await edgeGaps(tools.locator('li[data-tool="work-required"]'));
    assert.ok(Math.abs(gaps.top - gaps.bottom) <= 1, `a tool card's room above and below: ${JSON.stringify(gaps)}`);
    const mode = async (name: string) => tools.locator(`li[data-tool="${name}"] [data-call-mode]`).textContent();
    assert.equal(await mode('work-required'), 'Runs as a task');
    assert.equal(await mode('work-optional'), 'Can run as a task');
    // A tool that is simply called and answers is the ordinary case: no badge to say so.
    const forbidden = tools.locator('li[data-tool="work-forbidden"]');
    assert.equal(await forbidden.locator('[data-call-mode], .kind-tag').count(), 0, 'no badge on a plain tool');
    assert.doesNotMatch((await forbidden.textContent()) ?? '', /plain call/i);
  });

  it('calls an optional tool as a task and shows its progress, immediate response and result', async () => {
    const form = await openForm('work-optional');
    assert.ok(
      await form.getByLabel('durationMs').evaluate((element) => element === document.activeElement),
      'focus moves into the form'
    );
    assert.equal(await form.getByLabel('durationMs').getAttribute('type'), 'number');
    assert.match((await form.textContent()) ?? '', /How long the work runs, on the server clock/);
    assert.equal(await form.getByLabel('Run as a task').isChecked(), true);
    await form.getByLabel('durationMs').fill('400');
    await form.getByLabel('label').fill('weekly');
    await form.getByLabel('progressSteps').fill('2');
    await form.getByRole('button', { name: 'Call tool' }).click();
    await form.getByText(/^Started as a task: /).waitFor();

    const card = callCard('work-optional');
    await card.locator('[data-status="completed"]').waitFor();
    assert.equal(await card.locator('.tool-result .text-block').textContent(), 'done: weekly');
    assert.equal(await card.locator('.immediate blockquote').textContent(), 'Working on it; results follow.');
    // Its last progress in words once it has ended: no bar, as if it were still going.
    assert.equal(await card.locator('.progress-ended').textContent(), 'Last progress: step 2 · 2/2');
    assert.equal(await card.getByRole('progressbar').count(), 0);
    assert.equal(await card.getByRole('button', { name: /^Cancel/ }).count(), 0, 'a finished task cannot be cancelled');
    const stored = fixture.host.requestor.list().find((task) => task.toolName === 'work-optional')!;
    assert.deepEqual(stored.arguments, { durationMs: 400, label: 'weekly', progressSteps: 2 });
    // The task in words, under the form and on its card: its server's id for it only in their tooltips.
    const short = stored.taskId.slice(0, 8);
    for (const said of [form.locator('.started-task'), card.locator('.meta')]) {
      assert.ok(!((await said.textContent()) ?? '').includes(short), (await said.textContent()) ?? '');
      assert.equal(await said.locator('.task-words').getAttribute('title'), `Task ${stored.taskId}`);
    }
    assert.equal(await card.locator('.meta .task-words').textContent(), 'run as a task');
    assert.match((await card.locator('.meta').textContent()) ?? '', /^Started .+ · run as a task · /);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });

  it('reads an argument’s description apart from what it takes, and its Call… button says what pressing it does now', async () => {
    const item = tools.locator('li[data-tool="work-required"]');
    const button = item.locator('.card-header button');
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    const form = await openForm('work-required');
    assert.equal(await button.getAttribute('aria-expanded'), 'true');
    assert.equal(await button.textContent(), 'Close form');
    assert.equal(await button.getAttribute('aria-label'), 'Close form for work-required');
    // What Chromium hands a screen reader, not the markup: the type tag is a box of its own on screen only.
    const said = 'How long the work runs, on the server clock (whole number, at least 0)';
    assert.equal(await accessibleDescription(form.getByLabel('durationMs')), said);
    // The page's own text says the same, once: copied, or read by a tool that reads the hint's text, it is not
    // "clockwhole number, at least 0 (whole number, at least 0)".
    const hint = form.locator(`#${await form.getByLabel('durationMs').getAttribute('id')}-hint`);
    assert.equal(await hint.textContent(), said);
    assert.equal(await hint.innerText(), said, 'as it shows');
    // Plain text needs no word of its own.
    assert.ok(!(await accessibleDescription(form.getByLabel('label'))), 'no description');
    await item.screenshot({ path: path.join(root, '.tmp/tools-form-open.png') });

    await button.click();
    await form.waitFor({ state: 'hidden' });
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    assert.equal(await button.textContent(), 'Call…');
    assert.equal(await button.getAttribute('aria-label'), 'Call work-required…');
    assert.ok(await button.evaluate((element) => element === document.activeElement), 'the button keeps the focus');
    assert.deepEqual(pageErrors, []);
  });

  it('calls an optional tool plainly when asked, and a forbidden one plainly, showing the result under the form', async () => {
    const before = fixture.host.requestor.list().length;
    // Still open from the last test, with what was typed.
    const optional = tools.getByRole('form', { name: 'Call work-optional' });
    assert.equal(await optional.getByLabel('label').inputValue(), 'weekly');
    await optional.getByLabel('Run as a task').uncheck();
    await optional.getByLabel('durationMs').fill('0');
    await optional.getByLabel('label').fill('plain please');
    await optional.getByRole('button', { name: 'Call tool' }).click();
    await optional.locator('.call-result .tool-result').waitFor();

    const form = await openForm('work-forbidden');
    await form.getByLabel('label').fill('now');
    await form.getByRole('button', { name: 'Call tool' }).click();
    await form.locator('.call-result').getByText('plain: now').waitFor();
    assert.equal(fixture.host.requestor.list().length, before, 'no outbound task for plain calls');
  });

  it('checks arguments in the form, bounds too, and sends nothing while a field needs correcting', async () => {
    const form = await openForm('work-required');
    await form.getByRole('button', { name: 'Call tool' }).click();
    const duration = form.getByLabel('durationMs');
    const error = form.locator(`#${await duration.getAttribute('id')}-error`);
    await error.waitFor();
    assert.equal(await error.textContent(), 'Required');
    assert.equal(await duration.getAttribute('aria-invalid'), 'true');
    assert.ok(await duration.evaluate((element) => element === document.activeElement));

    await duration.fill('1.5');
    await form.getByRole('button', { name: 'Call tool' }).click();
    await form.getByText('Must be a whole number').waitFor();

    // The minimum, said as the hint says it (the host's own check is in tools-forms.test.ts).
    await duration.fill('-5');
    await form.getByRole('button', { name: 'Call tool' }).click();
    await form.getByText('Must be 0 or more').waitFor();
    assert.equal(await form.locator('.action-error-what').textContent(), 'One field needs correcting.');
    // Hidden with the words an Inbox card's message has (desk.test.ts), not "Dismiss" here and "Hide message" there.
    assert.deepEqual(await form.locator('.action-error').getByRole('button').allTextContents(), ['Hide message']);
    assert.equal(
      await form.locator('.action-error').getByRole('button', { name: 'Hide message', exact: true }).count(),
      1
    );
    assert.equal(
      fixture.host.requestor.list().filter((task) => task.toolName === 'work-required').length,
      0,
      'nothing was sent'
    );
  });

  it('shows a failed task with its status message and its error, and a tool error with its result', async () => {
    const rpc = await openForm('fail-rpc');
    await rpc.getByLabel('durationMs').fill('50');
    await rpc.getByRole('button', { name: 'Call tool' }).click();
    const rpcCard = callCard('fail-rpc');
    await rpcCard.locator('[data-status="failed"]').waitFor();
    await rpcCard.locator('.outcome-block').waitFor();
    assert.equal(await rpcCard.locator('.status-message').textContent(), 'The upstream service refused the job');
    // The error is how the tool failed, not a result Taskdesk could not fetch: said as its row and detail say it.
    // The SDK's McpError puts "MCP error −32050: " before the server's message: the code is said once.
    const failedWords = 'The tool failed: Error -32050: Upstream quota exhausted';
    assert.equal(await rpcCard.locator('.outcome-block .task-error > p').textContent(), failedWords);
    assert.match((await rpcCard.locator('.outcome-block').textContent()) ?? '', /retryAfterS/);
    assert.doesNotMatch((await rpcCard.textContent()) ?? '', /could not be fetched|server answered with an error/);
    // Under the form too, where Call tool was pressed: why it failed, as its card says it.
    await rpc.locator('.call-result .failed-reason', { hasText: 'The upstream service refused the job' }).waitFor();
    assert.equal(await rpc.locator('.call-result .task-error > p').textContent(), failedWords);
    assert.doesNotMatch((await rpc.locator('.call-result').textContent()) ?? '', /could not be fetched/);

    const tool = await openForm('fail-tool');
    await tool.getByLabel('durationMs').fill('50');
    await tool.getByRole('button', { name: 'Call tool' }).click();
    const toolCard = callCard('fail-tool');
    await toolCard.locator('[data-status="failed"]').waitFor();
    await toolCard.locator('.tool-result[data-is-error="true"]').waitFor();
    assert.match(
      (await toolCard.locator('.tool-result').textContent()) ?? '',
      /The tool reported an error:\s*disk full/
    );
    assert.match(
      (await tool.locator('.call-result .tool-result[data-is-error="true"]').textContent()) ?? '',
      /The tool reported an error:\s*disk full/
    );
  });

  it('cancels a running task, says why a server that cannot cancel refuses, and forgets tasks', async () => {
    const slow = await openForm('slow');
    await slow.getByLabel('durationMs').fill('600000');
    await slow.getByRole('button', { name: 'Call tool' }).click();
    const card = callCard('slow');
    await card.locator('[data-status="working"]').waitFor();
    await card.getByRole('button', { name: /^Cancel slow task/ }).click();
    await card.locator('[data-status="cancelled"]').waitFor();
    assert.equal(fixture.host.requestor.list().find((task) => task.toolName === 'slow')?.state, 'cancelled');

    // The other server did not declare tasks.cancel.
    await tools.getByLabel('Server', { exact: true }).selectOption('fixed');
    await tools.locator('li[data-tool-server="fixed"][data-tool="slow"]').waitFor();
    const fixedSlow = await openForm('slow');
    await fixedSlow.getByLabel('durationMs').fill('600000');
    await fixedSlow.getByRole('button', { name: 'Call tool' }).click();
    const fixedCard = calls.locator('li[data-outbound-id]').filter({ hasText: 'on Server fixed' }).first();
    await fixedCard.locator('[data-status="working"]').waitFor();
    await fixedCard.getByRole('button', { name: /^Cancel slow task/ }).click();
    const alert = fixedCard.getByRole('alert');
    await alert.getByText(/does not support tasks\/cancel/).waitFor();
    assert.match(
      (await alert.locator('.action-error-what').textContent()) ?? '',
      /^slow was not cancelled\. .*\(not-cancellable\)$/
    );
    assert.equal(await fixedCard.getAttribute('data-state'), 'working');

    // Forgetting a running task asks first.
    await fixedCard.getByRole('button', { name: /^Forget slow task/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Forget slow?' });
    // Its safe answer is not "Cancel", which beside the task's own Cancel read as cancelling the task.
    await dialog.waitFor();
    assert.deepEqual(await dialog.getByRole('button').allTextContents(), ['Forget', 'Keep following it']);
    await dialog.getByRole('button', { name: 'Forget' }).click();
    await fixedCard.waitFor({ state: 'detached' });
    assert.equal(fixture.host.requestor.list().filter((task) => task.serverId === 'fixed').length, 0);

    // A finished one goes at once (here by the keyboard). The focus goes to the next card itself,
    // where Enter does nothing, not to a button in it (Forget, once it has ended): an Enter more
    // than needed must not forget the next one.
    const count = await calls.locator('li[data-outbound-id]').count();
    await card.getByRole('button', { name: /^Forget slow task/ }).focus();
    await page.keyboard.press('Enter');
    await card.waitFor({ state: 'detached' });
    assert.equal(await calls.locator('li[data-outbound-id]').count(), count - 1);
    await page.waitForFunction(() => document.activeElement?.matches('li[data-outbound-id]') === true);
    assert.deepEqual(pageErrors, []);
  });

  it('keeps the calls that ran without a task in History, with what was asked and the answer', async () => {
    await page.getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    const plain = history.locator('.history-list li').filter({ hasText: 'Tool call: work-forbidden' });
    await plain.waitFor();
    assert.match((await plain.locator('.meta').textContent()) ?? '', /^Tool call without a task · to .+ · Completed/);
    // The tasks of this file are there as tasks, not a second time as calls.
    const slowEntries = history.locator('.history-list li').filter({ hasText: 'Tool call: slow' });
    assert.equal(await slowEntries.count(), 2);
    assert.equal(await slowEntries.filter({ hasText: 'without a task' }).count(), 0);
    // The one forgotten while it ran does not stay "working" for good.
    assert.deepEqual(
      await slowEntries
        .locator('.meta')
        .allTextContents()
        .then((metas) => metas.map((meta) => meta.split(' · ')[2])),
      // History's badge says who cancelled it.
      ['Lost', 'Cancelled by you']
    );

    await plain.getByRole('button', { name: 'Tool call: work-forbidden' }).click();
    const detail = history.locator('.history-detail');
    await detail.getByText('plain: now').first().waitFor();
    assert.match((await detail.locator('.meta').first().textContent()) ?? '', /without a task · Completed/);
    assert.match((await detail.locator('details').first().textContent()) ?? '', /"label": "now"/);
    assert.deepEqual(pageErrors, []);
  });

  it('brings a started task’s line into sight in an 800×600 window, says it once, and shows the result under the form when it ends', async () => {
    await page.locator('nav').getByRole('link', { name: 'Tools', exact: true }).click();
    await tools.getByLabel('Server', { exact: true }).selectOption('jobs');
    await tools.locator('li[data-tool-server="jobs"][data-tool="work-required"]').waitFor();
    await page.setViewportSize({ width: 800, height: 600 });
    const form = await openForm('work-required');
    const label = form.getByLabel('label');
    await form.getByLabel('durationMs').fill('300');
    await label.fill('in sight');
    // The Call tool button at the window's foot: whatever shows under it is below the fold.
    const button = form.getByRole('button', { name: 'Call tool' });
    await button.evaluate((element) => element.scrollIntoView({ block: 'end' }));
    assert.ok(await inSight(button), 'the button in sight, at the foot');
    await recordSaid();
    await label.press('Enter');

    const started = form.locator('.started-task');
    await started.waitFor();
    await waitInSight(started);
    assert.ok(await label.evaluate((element) => element === document.activeElement), 'the focus stays in the field');

    // Once the task ends, its result shows under the form, as a plain call's does, the way to its card kept.
    await started.locator('[data-status="completed"]').waitFor();
    await form.locator('.call-result .tool-result .text-block', { hasText: 'done: in sight' }).waitFor();
    await started.getByRole('button', { name: 'Show it under Tool calls' }).waitFor();
    await saidTimes(/The work-required task on Server jobs ended: completed\./);
    const heard = await said();
    assert.equal(
      heard.filter((text) => text.includes('work-required on Server jobs started as a task.')).length,
      1,
      heard.join(' | ')
    );
    assert.equal(
      heard.filter((text) => text.includes('The work-required task on Server jobs ended')).length,
      1,
      heard.join(' | ')
    );
    // Not said to be running as a plain call is, before its task started.
    assert.equal(heard.filter((text) => text.includes(' is running.')).length, 0, heard.join(' | '));
    await page.setViewportSize({ width: 1100, height: 1400 });
    assert.deepEqual(pageErrors, []);
  });
});
