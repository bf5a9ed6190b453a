import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import {
  CancelTaskResultSchema,
  CreateTaskResultSchema,
  ElicitResultSchema,
  RELATED_TASK_META_KEY,
  type CallToolResult
} from '@modelcontextprotocol/sdk/types.js';
import type { Locator, Page, Frame, FrameLocator } from 'playwright-core';
import { systemClock } from '../../app/core/clock.js';
import { nextEvent, peerServer, type PeerServer } from '../support/host-fixture.js';
import { ManualClock } from '../support/manual-clock.js';
import { ClockedTaskStore } from '../support/requestor-task-store.js';
import { createTaskToolPeer, REPORT_RESULT } from '../support/task-tool-server.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { actionsOutOfSight } from './renderer-build.js';
import { recordSaid, saidTimes } from './live-region.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const question = (message: string) => ({
  method: 'elicitation/create' as const,
  params: {
    mode: 'form',
    message,
    requestedSchema: { type: 'object', properties: { region: { type: 'string', title: 'Region' } } },
    task: { ttl: 600_000 }
  }
});

describe('the Tasks screen: received and requested tasks, filters, a detail view, and who cancelled', () => {
  const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 50 });
  const { peer: work } = createTaskToolPeer({ clock: systemClock, store });
  const desk = peerServer('tasks-peer');
  let d: DeskFixture;
  let page: Page;
  let tasks: Locator;

  before(async () => {
    d = await startDesk(
      { work, desk },
      // Wide enough for the table's eight columns (from 1500 px; below, five keep to the screen's column).
      { viewport: { width: 1500, height: 1400 }, context: { permissions: ['clipboard-read', 'clipboard-write'] } }
    );
    page = d.page;
    tasks = page.getByRole('region', { name: 'Tasks' });
  });

  after(async () => {
    await d?.close();
    store.close();
  });

  const row = (key: string) => tasks.locator(`tr[data-task-key="${key}"]`);

  it('lists both kinds on one screen, filters them, and opens a task with its timeline, the result rendered and the raw JSON to copy', async () => {
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
    const asked = await desk.server.request(question('Which region is the report for?'), CreateTaskResultSchema);

    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    await row(`received:${asked.task.taskId}`).waitFor();
    await row(`requested:${outboundId}`).locator('[data-status="completed"]').waitFor();
    assert.equal(await tasks.locator('.tasks-count').textContent(), '2 tasks');
    // How long each is kept, and by whom, in the words its row and its detail share: Taskdesk keeps
    // a task it received for its server; the server keeps one Taskdesk requested.
    assert.deepEqual(await tasks.locator('thead th').allTextContents(), [
      'Task',
      'Kind',
      'Server',
      'Status',
      'Created',
      'Kept',
      'Outcome',
      'Actions'
    ]);
    // The column says how long; its detail's words, with who keeps it and until when, are the
    // cell's tooltip.
    const received = row(`received:${asked.task.taskId}`).locator('.task-kept');
    assert.match((await received.textContent()) ?? '', /^Kept for (10|9) min more$/);
    assert.match((await received.getAttribute('title')) ?? '', /^Kept by Taskdesk for (10|9) min more, until \S/);
    const requested = row(`requested:${outboundId}`).locator('.task-kept');
    assert.match((await requested.textContent()) ?? '', /^Kept (for \d.* more|without a time limit)$/);
    assert.match(
      (await requested.getAttribute('title')) ?? '',
      /^Kept by the server (for \d.* more, until \S|without a time limit$)/
    );
    assert.equal(await tasks.getByText(/Expires/).count(), 0);
    // The result's Markdown reads as words in its row: no `##`, `**`, link syntax or HTML tags; the
    // heading and the emphasis in bold.
    const outcome = row(`requested:${outboundId}`).locator('td.outcome');
    assert.equal((await outcome.innerText()).trim(), 'Weekly report Sales rose by 5%; see the details. raw');
    assert.deepEqual(await outcome.locator('strong').allTextContents(), ['Weekly report', 'rose']);
    // The shortened task id stays whole in its narrow column.
    assert.equal(
      await row(`requested:${outboundId}`)
        .locator('code.short-id')
        .evaluate((code) => code.getClientRects().length),
      1
    );
    // A tool call's row is titled by its tool; its Kind column says only that it is a tool call.
    assert.equal(await row(`requested:${outboundId}`).locator('td.task-cell .task-tool').textContent(), 'report');
    assert.equal(
      (await row(`requested:${outboundId}`).locator('td.kind').innerText()).replace(/\s+/g, ' ').trim(),
      'Tool call Requested'
    );
    assert.match((await row(`requested:${outboundId}`).textContent()) ?? '', /Requested.*Server work/);
    assert.match((await row(`received:${asked.task.taskId}`).textContent()) ?? '', /Question.*Received.*Server desk/);

    const filters = tasks.getByRole('search', { name: 'Tasks' });
    await filters.getByLabel('Direction').selectOption('requested');
    await tasks.getByText('1 of 2 tasks match').waitFor();
    assert.equal(await row(`received:${asked.task.taskId}`).count(), 0);
    await filters.getByLabel('Direction').selectOption('');
    await filters.getByLabel('Status').selectOption('active');
    await tasks.getByText('1 of 2 tasks match').waitFor();
    await row(`received:${asked.task.taskId}`).waitFor();
    // The question waits on the person in the Inbox, its status Working: not "Waiting for Taskdesk"
    // (the protocol's input_required), which is a requested task's server waiting on Taskdesk;
    // "Waiting for you" finds it. The choices come in groups, in plain words, each saying whose answer.
    const status = filters.getByLabel('Status');
    assert.deepEqual(
      await status
        .locator('optgroup')
        .evaluateAll((groups) =>
          groups.map((group) => [
            (group as HTMLOptGroupElement).label,
            Array.from(group.querySelectorAll('option'), (option) => option.textContent)
          ])
        ),
      [
        ['Where it stands', ['Waiting for you', 'Not ended', 'Ended']],
        ['Status', ['Working', 'Waiting for Taskdesk', 'Completed', 'Failed', 'Cancelled', 'Expired', 'Lost']],
        ['How a question or model request ended', ['Answered', 'Declined', 'Dismissed', 'Rejected']]
      ]
    );
    // Said once, in its badge: not again by the message Taskdesk gave its server for it.
    await row(`received:${asked.task.taskId}`).locator('.status', { hasText: 'Waiting for you' }).waitFor();
    assert.equal(
      await row(`received:${asked.task.taskId}`).getByText('Waiting for your answer in the Inbox').count(),
      0
    );
    await status.selectOption({ label: 'Waiting for Taskdesk' });
    await tasks.getByText('0 of 2 tasks match').waitFor();
    await status.selectOption({ label: 'Waiting for you' });
    await tasks.getByText('1 of 2 tasks match').waitFor();
    await row(`received:${asked.task.taskId}`).waitFor();
    assert.equal(await row(`requested:${outboundId}`).count(), 0);
    await filters.getByLabel('Status').selectOption('');
    await filters.getByLabel('Kind').selectOption('tool-call');
    await tasks.getByText('1 of 2 tasks match').waitFor();
    await filters.getByLabel('Kind').selectOption('');
    await filters.getByLabel('Search').fill('region');
    await tasks.getByText('1 of 2 tasks match').waitFor();
    await row(`received:${asked.task.taskId}`).waitFor();
    await filters.getByLabel('Search').fill('');
    await tasks.getByText('2 tasks', { exact: true }).waitFor();

    await row(`requested:${outboundId}`)
      .getByRole('button', { name: /^Details of Tool call report / })
      .click();
    const detail = tasks.locator('.task-detail');
    await detail.getByRole('heading', { name: 'report', exact: true }).waitFor();
    assert.ok(
      await detail.getByRole('heading', { name: 'report', exact: true }).evaluate((h) => h === document.activeElement)
    );
    assert.equal(await page.evaluate(() => location.hash), `#tasks/${encodeURIComponent(`requested:${outboundId}`)}`);
    // What the task is, in words: its server's id for it only in the tooltip (and the raw JSON).
    const taskId = call.type === 'task' ? call.task.taskId : '';
    const meta = detail.locator('p.meta').first();
    assert.match((await meta.textContent()) ?? '', /^Tool call requested of Server work · run as a task$/);
    assert.equal(await meta.locator('.task-words').getAttribute('title'), `Task ${taskId}`);

    // The result as a person reads it: Markdown (raw HTML dropped), the image, the link, the structured content.
    const markdown = detail.locator('.tool-result .markdown');
    assert.equal(await markdown.getByRole('heading', { name: 'Weekly report' }).count(), 1);
    assert.equal(await markdown.locator('strong').textContent(), 'rose');
    assert.equal(await markdown.locator('b').count(), 0, 'raw HTML is not rendered');
    const image = detail.locator('img.result-image');
    await image.waitFor();
    assert.equal(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), 48);
    await detail.getByRole('link', { name: 'report.csv' }).waitFor();
    assert.match((await detail.locator('.structured-content').textContent()) ?? '', /"growthPercent": 5/);
    // The request, and the timeline of status changes from History.
    assert.match((await detail.locator('.request-view').textContent()) ?? '', /Tool report.*"durationMs": 100/s);
    await detail.locator('.timeline [data-status="completed"]').waitFor();
    assert.deepEqual(
      await detail
        .locator('.timeline [data-status]')
        .evaluateAll((steps) => steps.map((s) => s.getAttribute('data-status'))),
      ['working', 'completed']
    );

    // The raw JSON is the task as the host holds it, and Copy puts it on the clipboard.
    const raw = JSON.parse((await detail.locator('.raw-json').textContent()) ?? '') as Record<string, unknown>;
    assert.equal(raw.outboundId, outboundId);
    const { _meta: _related, ...result } = (raw.outcome as { result: Record<string, unknown> }).result;
    assert.deepEqual(result, REPORT_RESULT);
    await detail.getByRole('button', { name: 'Copy the raw JSON' }).click();
    await detail.getByRole('button', { name: 'Copy the raw JSON' }).getByText('Copied').waitFor();
    assert.deepEqual(JSON.parse(await page.evaluate(() => navigator.clipboard.readText())), raw);

    // The address names the task: a reload opens it again; Close goes back to the list.
    await page.reload();
    await page.locator('#app[data-ready="true"]').waitFor();
    await detail.locator('img.result-image').waitFor();
    await detail.getByRole('button', { name: 'Close' }).click();
    await detail.waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => location.hash), '#tasks');
    // The focus goes back to the row, not to the page.
    await page.waitForFunction(() =>
      document.activeElement?.getAttribute('aria-label')?.startsWith('Details of Tool call report')
    );

    // The browser's Back closes it too, and the focus goes back to the row as well.
    await row(`requested:${outboundId}`)
      .getByRole('button', { name: /^Details of Tool call report / })
      .click();
    await detail.getByRole('heading', { name: 'report', exact: true }).waitFor();
    await page.goBack();
    await detail.waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => location.hash), '#tasks');
    await page.waitForFunction(() =>
      document.activeElement?.getAttribute('aria-label')?.startsWith('Details of Tool call report')
    );
    // So does Escape.
    await page.keyboard.press('Enter');
    await detail.getByRole('heading', { name: 'report', exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
    await page.waitForFunction(() =>
      document.activeElement?.getAttribute('aria-label')?.startsWith('Details of Tool call report')
    );

    // So does History's: Close (and Escape) gives the focus back to the entry's title.
    await page.getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    await history.getByRole('button', { name: 'Tool call: report' }).click();
    await history.locator('.history-detail').getByRole('button', { name: 'Close' }).click();
    await page.waitForFunction(() => document.activeElement?.textContent === 'Tool call: report');
    await page.keyboard.press('Enter');
    await history.locator('.history-detail h3').waitFor();
    await page.keyboard.press('Escape');
    await history.locator('.history-detail').waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.textContent === 'Tool call: report');
    // Back on Tasks by its link (a move to another screen, which focuses the heading), Close of a
    // detail still gives the focus back to its row, not to the heading.
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'heading-tasks');
    await row(`requested:${outboundId}`)
      .getByRole('button', { name: /^Details of Tool call report / })
      .click();
    await detail.getByRole('button', { name: 'Close' }).click();
    await detail.waitFor({ state: 'detached' });
    await page.waitForFunction(() =>
      document.activeElement?.getAttribute('aria-label')?.startsWith('Details of Tool call report')
    );
    assert.deepEqual(d.pageErrors, []);
  });

  it('says who cancelled each task — you or the server — with no error, received and requested, after a reload too', async () => {
    const slow = async () => {
      const call = await d.fixture.host.call('tools.call', {
        serverId: 'work',
        name: 'slow',
        arguments: { durationMs: 600_000 }
      });
      assert.ok(call.type === 'task');
      return call.task;
    };
    const mine = await slow();
    const theirs = await slow();
    const askedMine = await desk.server.request(question('Cancel me from the Desk'), CreateTaskResultSchema);
    const askedTheirs = await desk.server.request(question('The server withdraws me'), CreateTaskResultSchema);
    const rows = {
      mine: row(`requested:${mine.outboundId}`),
      theirs: row(`requested:${theirs.outboundId}`),
      askedMine: row(`received:${askedMine.task.taskId}`),
      askedTheirs: row(`received:${askedTheirs.task.taskId}`)
    };
    for (const one of Object.values(rows)) await one.waitFor();

    await rows.mine.getByRole('button', { name: /^Cancel Tool call slow / }).click();
    // The Cancel button goes with the running task: the focus stays in its row, on Details.
    await page.waitForFunction(() =>
      document.activeElement?.getAttribute('aria-label')?.startsWith('Details of Tool call slow')
    );
    await rows.askedMine.getByRole('button', { name: /^Cancel Question / }).click();
    // A question its server gave ends for that server: asked first.
    await page
      .getByRole('dialog', { name: 'Cancel Server desk’s question?' })
      .getByRole('button', { name: 'Cancel question', exact: true })
      .click();
    await page.waitForFunction(() =>
      document.activeElement?.getAttribute('aria-label')?.startsWith('Details of Question')
    );
    // Named by its question, not only by kind and id: rows of one server are told apart by it.
    assert.match(
      (await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))) ?? '',
      /^Details of Question “Cancel me from the Desk” \S+$/
    );
    // The server cancels its own tasks: one it was asked for, one it asked Taskdesk.
    await store.updateTaskStatus(theirs.taskId, 'cancelled', 'Stopped by the operator');
    await d.fixture.host.call('outbound.refresh', { outboundId: theirs.outboundId });
    await desk.server.request(
      { method: 'tasks/cancel', params: { taskId: askedTheirs.task.taskId } },
      CancelTaskResultSchema
    );

    const says = async (expected: Record<keyof typeof rows, string>) => {
      for (const [name, one] of Object.entries(rows)) {
        const words = expected[name as keyof typeof rows];
        await one.locator('.cancelled-by', { hasText: new RegExp(`^${words}$`) }).waitFor();
        assert.doesNotMatch((await one.textContent()) ?? '', /Error|−?-?32\d\d\d|no result stored/, name);
        // Who cancelled it is said once, under its badge, which alone says "Cancelled"; its
        // outcome says there is none.
        assert.equal(((await one.textContent()) ?? '').match(/by (you|the server)/g)?.length, 1, name);
        assert.equal(((await one.textContent()) ?? '').match(/Cancelled/g)?.length, 1, name);
        assert.equal((await one.locator('[data-status]').first().innerText()).trim(), 'Cancelled', name);
        assert.equal(await one.locator('td.outcome .muted').textContent(), 'No result', name);
      }
    };
    const expected = {
      mine: 'by you',
      askedMine: 'by you',
      theirs: 'by the server',
      askedTheirs: 'by the server'
    };
    await says(expected);
    assert.equal(d.fixture.host.requestor.get(mine.outboundId)?.cancelledBy, 'you');
    assert.equal(d.fixture.host.requestor.get(theirs.outboundId)?.cancelledBy, 'server');
    // History keeps who cancelled, for after the tasks' TTL.
    assert.equal(d.fixture.host.history.get(`requested:${mine.outboundId}`)?.cancelledBy, 'you');
    assert.equal(d.fixture.host.history.get(`received:${askedTheirs.task.taskId}`)?.cancelledBy, 'server');
    assert.equal(d.fixture.host.history.get(`received:${askedMine.task.taskId}`)?.cancelledBy, 'you');

    // The core recorded who did it: a reload (no memory of this page's clicks) says the same.
    await page.reload();
    await page.locator('#app[data-ready="true"]').waitFor();
    await says(expected);
    await rows.theirs.getByRole('button', { name: /^Details of / }).click();
    const detail = tasks.locator('.task-detail');
    await detail.locator('.cancelled-by', { hasText: /^by the server$/ }).waitFor();
    assert.equal(
      (await detail.locator('.detail-status').innerText()).replace(/\s+/g, ' ').trim(),
      'Cancelled by the server Stopped by the operator'
    );
    await detail.getByText('No result.', { exact: true }).waitFor();
    assert.equal(await detail.locator('.tool-result-error').count(), 0);
    assert.deepEqual(d.pageErrors, []);
  });

  /** A slow tool called as a task, and the `_meta` of a request its server asks for it. */
  const slowTask = async () => {
    const call = await d.fixture.host.call('tools.call', {
      serverId: 'work',
      name: 'slow',
      arguments: { durationMs: 600_000 }
    });
    assert.ok(call.type === 'task');
    return { call, related: { [RELATED_TASK_META_KEY]: { taskId: call.task.taskId } } };
  };

  /** A slow tool called as a task, its row on Tasks (any status), and its Details opened. */
  const slowTaskDetail = async () => {
    const { call } = await slowTask();
    const key = `requested:${call.task.outboundId}`;
    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    await tasks.getByRole('search', { name: 'Tasks' }).getByLabel('Status').selectOption('');
    await row(key)
      .getByRole('button', { name: /^Details of / })
      .click();
    return { call, detail: tasks.locator(`.task-detail[data-task-key="${key}"]`) };
  };

  it('shows a question Taskdesk withdrew, once the task it was asked for was cancelled by the person, as cancelled by them, not completed', async () => {
    const { call, related } = await slowTask();
    const { params } = question('Which region, for the slow call?');
    const asked = await work.server.request(
      { method: 'elicitation/create', params: { ...params, _meta: related } },
      CreateTaskResultSchema
    );
    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const withdrawn = row(`received:${asked.task.taskId}`);
    await withdrawn.waitFor();
    await d.fixture.host.call('outbound.cancel', { outboundId: call.task.outboundId });
    // Its server was told it was dismissed (the task completed with cancel): no answer of the
    // person's, but their doing (they cancelled its task), as History says.
    await withdrawn.locator('.cancelled-by', { hasText: /^by you$/ }).waitFor();
    assert.equal(await withdrawn.locator('[data-status]').first().textContent(), 'Cancelled');
    assert.equal(
      await withdrawn.locator('.outcome').textContent(),
      'The task this was asked for (tool slow) was cancelled by you. Taskdesk withdrew it, and told its server it was dismissed.'
    );
    assert.doesNotMatch((await withdrawn.textContent()) ?? '', /Completed|Dismissed/);
    assert.deepEqual(d.pageErrors, []);
  });

  it('says in History that a question asked during a task is for that task, and that stopping the task cancelled it by you', async () => {
    const { call, related } = await slowTask();
    const message = 'Which depot, for the slow call?';
    // A plain request (no task of its own), asked for the task: the Inbox says the task waits on it.
    const asked = work.server.request(
      {
        method: 'elicitation/create',
        params: { ...question(message).params, task: undefined, _meta: related }
      },
      ElicitResultSchema
    );
    await nextEvent(d.fixture.host, 'inbox.added', ({ item }) => item.relatedTaskId === call.task.taskId);
    await d.fixture.host.call('outbound.cancel', { outboundId: call.task.outboundId });
    assert.equal((await asked).action, 'cancel');

    await page.locator('nav').getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    const entry = history.locator('.history-list li', { has: page.locator('.history-title', { hasText: message }) });
    const short = `${call.task.taskId.slice(0, 8)}…`;
    await entry.locator('.meta', { hasText: 'Cancelled by you' }).waitFor();
    const meta = (await entry.locator('.meta').textContent()) ?? '';
    // Named by the call it was asked for, as the Inbox named it: the task's id only in a tooltip.
    assert.match(meta, /^Question for the call of slow · from Server work · Cancelled by you · /);
    assert.doesNotMatch(meta, /without a task|Taskdesk/);
    assert.ok(!meta.includes(short), meta);
    assert.equal(
      await entry.locator('.meta span', { hasText: 'for the call of slow' }).getAttribute('title'),
      `Task ${call.task.taskId}`
    );
    // Said once in its row: not again beside its title.
    assert.equal(await entry.locator('.history-for-call').count(), 0);
    // The task's own entry beside it says the same of who cancelled.
    const tool = history.locator(`li[data-history-id="requested:${call.task.outboundId}"]`);
    await tool.locator('.meta', { hasText: 'Cancelled by you' }).waitFor();
    await entry.locator('.history-title').click();
    const detail = history.locator('.history-detail');
    assert.match(
      (await detail.locator('.meta').first().textContent()) ?? '',
      /^Asked by Server work for the call of slow · Cancelled by you · The task this was asked for \(tool slow\) was cancelled by you\./
    );
    await detail.getByRole('button', { name: 'Close' }).click();
    // The Audit log's Task column names the task it was asked for (it has none of its own).
    await page.locator('nav').getByRole('link', { name: 'Audit log', exact: true }).click();
    const withdrawn = page.locator('table.audit tbody tr', { hasText: message }).first();
    await withdrawn.waitFor();
    // In words, as the Inbox and History name it, not by the server's id for the task (in the tooltip).
    assert.equal(
      (await withdrawn.locator('td').nth(3).innerText()).replace(/\s+/g, ' '),
      'asked for your call of slow'
    );
    // A link to the call's entry in History, while the Desk follows it.
    const link = withdrawn.locator('td.task a');
    assert.equal(await link.getAttribute('title'), `Asked for task ${call.task.taskId}`);
    assert.equal(
      await link.getAttribute('href'),
      `#history/${encodeURIComponent(`requested:${call.task.outboundId}`)}`
    );
    assert.ok(!(await withdrawn.innerText()).includes(short), 'no task id on the row');
    assert.deepEqual(d.pageErrors, []);
  });

  it('says a declined question “Declined”, in the quiet colour of no answer rather than the green of an answer', async () => {
    const asked = await desk.server.request(question('Which colour for the badge?'), CreateTaskResultSchema);
    const item = (await d.fixture.host.call('inbox.list', {})).find((i) => i.taskId === asked.task.taskId)!;
    await d.fixture.host.call('inbox.answer', { id: item.id, answer: { action: 'decline' } });
    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const badge = row(`received:${asked.task.taskId}`).locator('[data-status="completed"]');
    await badge.getByText('Declined', { exact: true }).waitFor();
    const colours = await badge.evaluate((element) => {
      const probe = document.createElement('span');
      probe.className = 'status status-completed';
      document.body.append(probe);
      const answered = getComputedStyle(probe).backgroundColor;
      probe.remove();
      return { declined: getComputedStyle(element).backgroundColor, answered };
    });
    assert.notEqual(colours.declined, colours.answered);

    // The Status filter says it as the badges do: a declined question is no Completed task.
    const status = tasks.getByRole('search', { name: 'Tasks' }).getByLabel('Status');
    const choices = await status.locator('option').allTextContents();
    for (const word of ['Completed', 'Answered', 'Declined', 'Dismissed'])
      assert.ok(choices.includes(word), `a Status choice "${word}" among ${choices.join(', ')}`);
    const report = d.fixture.host.requestor.list().find((task) => task.toolName === 'report')!;
    try {
      await status.selectOption('completed');
      await row(`requested:${report.outboundId}`).waitFor();
      await row(`received:${asked.task.taskId}`).waitFor({ state: 'detached' });
      await status.selectOption('declined');
      await row(`received:${asked.task.taskId}`).waitFor();
      await row(`requested:${report.outboundId}`).waitFor({ state: 'detached' });
      assert.match((await tasks.locator('.tasks-count').textContent()) ?? '', /^1 of \d+ tasks match$/);
      assert.deepEqual(
        await tasks.locator('tbody tr [data-status]').evaluateAll((badges) => badges.map((b) => b.textContent)),
        ['Declined']
      );
    } finally {
      await status.selectOption('');
    }
    assert.deepEqual(d.pageErrors, []);
  });

  it('says whether the server of a finished task fetched what Taskdesk keeps for it, in its row and its detail', async () => {
    const asked = await desk.server.request(question('Which shelf for the report?'), CreateTaskResultSchema);
    const taskId = asked.task.taskId;
    const item = (await d.fixture.host.call('inbox.list', {})).find((i) => i.taskId === taskId)!;
    await d.fixture.host.call('inbox.answer', {
      id: item.id,
      answer: { action: 'accept', content: { region: 'north' } }
    });
    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const taskRow = row(`received:${taskId}`);
    await taskRow.locator('[data-status="completed"]').waitFor();
    const serverName = (await taskRow.locator('td.server').textContent()) ?? '';
    const fetched = taskRow.locator('.task-fetched');
    await fetched.getByText(`Not fetched by ${serverName} yet`, { exact: true }).waitFor();
    await taskRow.getByRole('button', { name: /^Details of / }).click();
    const detail = tasks.locator('.task-detail .detail-fetched');
    await detail.waitFor();
    assert.equal(await detail.locator('dt').textContent(), 'Fetched');
    assert.equal(await detail.locator('dd').textContent(), `Not yet: ${serverName} gets it when it asks for this task`);

    // The server asks for its result: both say so, the detail with when.
    await desk.server.request({ method: 'tasks/result', params: { taskId } }, ElicitResultSchema);
    await fetched.getByText(`Fetched by ${serverName}`, { exact: true }).waitFor();
    assert.match((await detail.locator('dd').textContent()) ?? '', new RegExp(`^By ${serverName}, \\S`));
    assert.equal(await detail.locator('dd time').count(), 1);
    await page.keyboard.press('Escape');
    assert.deepEqual(d.pageErrors, []);
  });

  it('shows a question’s Markdown title as words — in its row, its detail, the Inbox and History — never as Markdown source or HTML', async () => {
    const markdown = 'Which **region** is the [report](https://example.com/r) for? <b>now</b>';
    const words = 'Which region is the report for? now';
    const asked = await desk.server.request(question(markdown), CreateTaskResultSchema);
    const plain = async (title: Locator, what: string) => {
      // A detail says "History entry" until its entry is read: wait for the question's words.
      await title.filter({ hasText: words }).waitFor();
      assert.equal((await title.innerText()).trim(), words, what);
      assert.deepEqual(await title.locator('strong').allTextContents(), ['region'], what);
      assert.equal(await title.locator('a, b').count(), 0, `${what}: no link to follow, no raw HTML`);
    };
    // The question in full (a card's body, a request) drops raw HTML as its title does; its link is the guarded one.
    const body = async (text: Locator, what: string) => {
      assert.equal((await text.innerText()).trim(), words, what);
      assert.equal(await text.locator('b').count(), 0, what);
      assert.equal(await text.locator('a').getAttribute('href'), 'https://example.com/r', what);
    };

    await page.getByRole('link', { name: /^Inbox/ }).click();
    const card = page.locator('article.inbox-item').filter({ hasText: words });
    await plain(card.locator('h3'), 'the Inbox card');

    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    const one = row(`received:${asked.task.taskId}`);
    await plain(one.locator('.task-title'), 'the row');
    await one.getByRole('button', { name: /^Details of Question/ }).click();
    const detail = tasks.locator('.task-detail');
    await plain(detail.locator('h3#task-detail-title'), 'the detail');
    await body(detail.locator('.request-view .markdown'), 'the detail’s request');
    await detail.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    const entry = history.locator(`li[data-history-id="received:${asked.task.taskId}"]`);
    await plain(entry.locator('.history-title'), 'the History entry');
    await entry.locator('.history-title').click();
    await plain(history.locator('#history-detail-title'), 'the History detail');
    await body(history.locator('.history-detail .request-view .markdown'), 'the History detail’s request');
    await history.locator('.history-detail').getByRole('button', { name: 'Close' }).click();
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    assert.deepEqual(d.pageErrors, []);
  });

  it('keeps every column a row needs in sight at 800 px wide: Kind, Server and Created under the title, Kept, Outcome, Details and Cancel', async () => {
    const asked = await desk.server.request(
      question('Which of the regional offices should the quarterly summary of open orders be sent to?'),
      CreateTaskResultSchema
    );
    await page.setViewportSize({ width: 800, height: 900 });
    try {
      await page.getByRole('link', { name: 'Tasks', exact: true }).click();
      await row(`received:${asked.task.taskId}`)
        .getByRole('button', { name: /^Cancel / })
        .waitFor();
      const wrap = tasks.locator('.table-wrap');
      assert.deepEqual(await actionsOutOfSight(wrap), [], 'buttons out of sight, to scroll sideways to');
      // At 1200 px this table scrolled sideways at 800 px, its Kept and Outcome out of sight.
      const headers = await wrap.evaluate((element) => {
        const box = element.getBoundingClientRect();
        return Array.from(element.querySelectorAll('thead th'))
          .filter((th) => th.getBoundingClientRect().width > 0)
          .map((th) => ({
            name: th.textContent,
            inSight: th.getBoundingClientRect().left >= box.left && th.getBoundingClientRect().right <= box.right
          }));
      });
      assert.deepEqual(
        headers.map((header) => header.name),
        ['Task', 'Status', 'Kept', 'Outcome', 'Actions']
      );
      assert.deepEqual(
        headers.filter((header) => !header.inSight).map((header) => header.name),
        []
      );
      const meta = row(`received:${asked.task.taskId}`).locator('.task-meta');
      assert.match((await meta.innerText()).replace(/\s+/g, ' '), /^Question · Received from Server desk · \w{3} \d/);
      assert.equal(await row(`received:${asked.task.taskId}`).locator('td.kind').isVisible(), false);
      // A tool call's title is its tool, its arguments the line under it; the line below says it is
      // a tool call, and of which server.
      const report = d.fixture.host.requestor.list().find((task) => task.toolName === 'report')!;
      const cell = row(`requested:${report.outboundId}`).locator('td.task-cell');
      assert.deepEqual(await cell.locator('.task-title:visible').allTextContents(), ['report', 'durationMs: 100']);
      assert.ok(
        await cell
          .locator('.task-title:visible')
          .evaluateAll(([name, args]) => name!.getBoundingClientRect().bottom <= args!.getBoundingClientRect().top),
        'the arguments under the name'
      );
      assert.match(
        (await cell.locator('.task-meta').innerText()).replace(/\s+/g, ' '),
        /^Tool call · Requested of Server work · \w{3} \d/
      );
      await page.setViewportSize({ width: 1500, height: 900 });
      assert.equal(await meta.isVisible(), false, 'a wide window says them in their columns only');
      assert.equal(await row(`received:${asked.task.taskId}`).locator('td.kind').isVisible(), true);
      assert.deepEqual(
        await cell.locator('.task-title:visible').allTextContents(),
        ['report', 'durationMs: 100'],
        'titled by its tool at every width'
      );
      assert.ok(
        await cell
          .locator('.task-title:visible')
          .evaluateAll(([name, args]) => name!.getBoundingClientRect().bottom <= args!.getBoundingClientRect().top),
        'the arguments under the name'
      );
    } finally {
      await page.setViewportSize({ width: 1500, height: 1400 });
      await d.fixture.host.call('tasks.cancel', { taskId: asked.task.taskId });
    }
  });

  it('forgets an ended tool call from its Details; a Cancel that takes its row out of the filter leaves the focus on the next row', async () => {
    const done = nextEvent(
      d.fixture.host,
      'outbound.changed',
      (event) => event.type === 'changed' && event.task.toolName === 'report' && event.task.outcome !== undefined
    );
    const call = await d.fixture.host.call('tools.call', {
      serverId: 'work',
      name: 'report',
      arguments: { durationMs: 50 }
    });
    const outboundId = call.type === 'task' ? call.task.outboundId : assert.fail('a task');
    await done;
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    const filters = tasks.getByRole('search', { name: 'Tasks' });
    await filters.getByLabel('Status').selectOption('');
    await row(`requested:${outboundId}`)
      .getByRole('button', { name: /^Details of / })
      .click();
    const detail = tasks.locator('.task-detail');
    const forgotten = nextEvent(d.fixture.host, 'outbound.changed', (event) => event.type === 'removed');
    await detail.getByRole('button', { name: 'Forget this task' }).click();
    assert.equal((await forgotten).type, 'removed');
    await row(`requested:${outboundId}`).waitFor({ state: 'detached' });
    // The detail goes on with its History entry, the focus on its title.
    await detail.getByText('kept in History (you forgot the task itself)', { exact: false }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'task-detail-title');
    await detail.getByRole('button', { name: 'Close' }).click();

    const first = await desk.server.request(question('First of two, to cancel?'), CreateTaskResultSchema);
    const second = await desk.server.request(question('Second of two?'), CreateTaskResultSchema);
    await filters.getByLabel('Status').selectOption('active');
    await row(`received:${first.task.taskId}`).waitFor();
    await row(`received:${second.task.taskId}`).waitFor();
    // Newest first: the row after the first question's takes its place (the last row's: the one before it).
    const keys = await tasks
      .locator('tr[data-task-key]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-task-key')));
    const at = keys.indexOf(`received:${first.task.taskId}`);
    const next = keys[at + 1] ?? keys[at - 1];
    await recordSaid(page);
    await row(`received:${first.task.taskId}`)
      .getByRole('button', { name: /^Cancel / })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel question', exact: true }).click();
    await row(`received:${first.task.taskId}`).waitFor({ state: 'detached' });
    await page.waitForFunction(
      (key) => document.activeElement?.closest('tr')?.getAttribute('data-task-key') === key,
      next
    );
    // Heard, even when the next message replaced it before anyone looked at the region.
    await saidTimes(page, /The cancelled task no longer matches the filter\./);
    await d.fixture.host.call('tasks.cancel', { taskId: second.task.taskId });
    await filters.getByLabel('Status').selectOption('');
    assert.deepEqual(d.pageErrors, []);
  });

  it('says in a running tool task’s Details when Check now asked and where the task stands, and tells a screen reader', async () => {
    const { call, detail } = await slowTaskDetail();
    await detail.locator('.detail-status [data-status="working"]').waitFor();
    await recordSaid(page);
    await detail.getByRole('button', { name: 'Check now' }).click();
    await detail.locator('.checked-at').waitFor();
    assert.equal(await detail.locator('.checked-at').textContent(), 'Checked just now; still working.');
    await saidTimes(page, /^Checked the slow task just now; still working\.$/);
    await d.fixture.host.call('outbound.cancel', { outboundId: call.task.outboundId });
    await detail.locator('.detail-status [data-status="cancelled"]').waitFor();
    assert.equal(await detail.locator('.checked-at').count(), 0, 'an ended task has nothing to check');
    await detail.getByRole('button', { name: 'Close' }).click();
    assert.deepEqual(d.pageErrors, []);
  });

  it('puts the focus on a task’s title after Cancel task in its Details, not on Forget this task, which takes its place', async () => {
    const { call, detail } = await slowTaskDetail();
    // From the keyboard, as a person who pressed Enter on it.
    await detail.getByRole('button', { name: 'Cancel task' }).focus();
    await page.keyboard.press('Enter');
    await detail.locator('.detail-status [data-status="cancelled"]').waitFor();
    await detail.getByRole('button', { name: 'Forget this task' }).waitFor();
    await page
      .waitForFunction(() => document.activeElement?.id === 'task-detail-title', undefined, { timeout: 5_000 })
      .catch(async () =>
        assert.fail(`the focus is on “${await page.evaluate(() => document.activeElement?.textContent)}”`)
      );
    assert.ok(d.fixture.host.requestor.get(call.task.outboundId), 'not forgotten');
    await detail.getByRole('button', { name: 'Close' }).click();
    assert.deepEqual(d.pageErrors, []);
  });

  it('filters the audit log like History and exports what the filters match as JSON Lines', async () => {
    await page.getByRole('link', { name: 'Audit log' }).click();
    const audit = page.getByRole('region', { name: 'Audit log' });
    const filters = audit.getByRole('search', { name: 'Audit log' });
    // A kind of event in the Desk's words: model requests, not "sampling".
    assert.equal(
      await filters.getByLabel('Events').locator('option[value="sampling"]').textContent(),
      'Model requests'
    );
    await filters.getByLabel('Events').selectOption('task');
    await filters.getByRole('combobox', { name: /^Server\b/ }).selectOption('desk');
    await filters.getByLabel('Search').fill('cancelled');
    // The type as written, under each entry's sentence.
    const events = audit.locator('table.audit tbody tr td:nth-child(2) .event-type');
    const cancelled = audit.locator('table.audit tbody tr', { hasText: 'task.cancelled' }).first();
    await cancelled.waitFor();
    // Its task in words, as the Inbox says a request its server sent as a task, after the question
    // it asked; the id in the tooltip, and its History entry a click away.
    const taskCell = cancelled.locator('td.task a');
    assert.match((await taskCell.textContent()) ?? '', /^“[^”]+”, sent as a task$/);
    assert.match((await taskCell.getAttribute('title')) ?? '', /^Task \S{12,}$/);
    assert.match((await taskCell.getAttribute('href')) ?? '', /^#history\/received%3A\S{12,}$/);
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('table.audit tbody tr td:nth-child(3)')).every(
        (cell) => cell.textContent === 'Server desk'
      )
    );
    for (const type of await events.allTextContents()) assert.match(type, /^task\./);

    const downloading = page.waitForEvent('download');
    await filters.getByRole('button', { name: 'Export' }).click();
    const download = await downloading;
    assert.equal(download.suggestedFilename(), 'taskdesk-audit.jsonl');
    const lines = fs
      .readFileSync(await download.path(), 'utf8')
      .trimEnd()
      .split('\n');
    const entries = lines.map((line) => JSON.parse(line) as { type: string; serverId?: string });
    assert.ok(entries.length >= 1);
    for (const entry of entries) {
      assert.match(entry.type, /^task\./);
      assert.equal(entry.serverId, 'desk');
      assert.match(JSON.stringify(entry).toLowerCase(), /cancelled/);
    }
    assert.ok(entries.some((entry) => entry.type === 'task.cancelled'));

    // An entry written with its server's id only (a policy change) names the server too.
    await d.fixture.host.call('sampling.setPolicy', {
      serverId: 'desk',
      policy: { mode: 'refuse', reviewCompletion: true }
    });
    await filters.getByLabel('Events').selectOption('sampling');
    await filters.getByLabel('Search').fill('');
    const row = audit.locator('table.audit tbody tr', { hasText: 'sampling.policy-changed' }).first();
    await row.waitFor();
    assert.equal(await row.locator('td.server').textContent(), 'Server desk');
    assert.deepEqual(d.pageErrors, []);
  });

  it('keeps a removed server in the audit log’s Server filter, said as removed, with its entries', async () => {
    const { host } = d.fixture;
    await host.call('servers.add', {
      id: 'gone',
      name: 'Gone server',
      transport: { type: 'stdio', command: 'mcp-gone' },
      autoConnect: false
    });
    await host.call('servers.remove', { serverId: 'gone' });
    const audit = page.getByRole('region', { name: 'Audit log' });
    const filters = audit.getByRole('search', { name: 'Audit log' });
    await filters.getByLabel('Events').selectOption('');
    await filters.getByLabel('Search').fill('');
    const server = filters.getByRole('combobox', { name: /^Server\b/ });
    // Offered after the configured ones once the removal is read.
    await server.locator('option', { hasText: 'Gone server (removed)' }).waitFor({ state: 'attached' });
    await server.selectOption('gone');
    const events = audit.locator('table.audit tbody tr td:nth-child(2) .event-type');
    await page.waitForFunction(() => {
      const types = Array.from(document.querySelectorAll('table.audit tbody tr td:nth-child(2) .event-type')).map(
        (cell) => cell.textContent
      );
      return types.length === 2 && types[0] === 'server.removed';
    });
    assert.deepEqual(await events.allTextContents(), ['server.removed', 'server.added']);
    await server.selectOption('');
    assert.deepEqual(d.pageErrors, []);
  });
});

/** A server's store that keeps its tasks five minutes at most, whatever ttl was asked for. */
class FiveMinuteStore extends ClockedTaskStore {
  override createTask(...[params, ...rest]: Parameters<ClockedTaskStore['createTask']>) {
    return super.createTask({ ...params, ttl: Math.min(params.ttl ?? 300_000, 300_000) }, ...rest);
  }
}

/**
 * The Tasks screen's Kept column and a task's Details say how long it is kept in the same words:
 * the row how long ("Kept for 9 min more"), its detail the same words with who keeps it and until
 * when, which are the row's tooltip too.
 */
describe('how long a task is kept, in its Tasks row and its Details alike, in headless Chromium against the real core', () => {
  const store = new FiveMinuteStore({ clock: systemClock, pollInterval: 50 });
  const { peer: work } = createTaskToolPeer({ clock: systemClock, store });
  const desk = peerServer('desk');
  let d: DeskFixture;
  let page: Page;
  let tasks: Locator;
  let receivedKey: string;
  let requestedKey: string;
  let expiresAt: string;

  before(async () => {
    // The page's clock is held still while words are compared, and moved past a task's end.
    d = await startDesk(
      { work, desk },
      { viewport: { width: 1500, height: 1200 }, beforeLoad: (p) => p.clock.install() }
    );
    page = d.page;
    tasks = page.getByRole('region', { name: 'Tasks' });
    const done = nextEvent(
      d.fixture.host,
      'outbound.changed',
      (event) => event.type === 'changed' && event.task.toolName === 'report' && event.task.outcome !== undefined
    );
    // Taskdesk asks for an hour; the server keeps it five minutes.
    const call = await d.fixture.host.call('tools.call', {
      serverId: 'work',
      name: 'report',
      arguments: { durationMs: 10 },
      ttlMs: 3_600_000
    });
    assert.ok(call.type === 'task');
    requestedKey = `requested:${call.task.outboundId}`;
    const ended = await done;
    expiresAt = (ended.type === 'changed' && ended.task.expiresAt) || '';
    assert.ok(expiresAt, 'the server said when it lets the task go');
    const asked = await desk.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Which region?',
          requestedSchema: { type: 'object', properties: { region: { type: 'string' } } },
          task: { ttl: 600_000 }
        }
      },
      CreateTaskResultSchema
    );
    receivedKey = `received:${asked.task.taskId}`;
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    await tasks.locator(`tr[data-task-key="${receivedKey}"]`).waitFor();
    await tasks.locator(`tr[data-task-key="${requestedKey}"] [data-status="completed"]`).waitFor();
  });

  after(async () => {
    await d?.close();
    store.close();
  });

  const text = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();

  /** The row's Kept words and tooltip, and its detail's Kept words (what was asked for left out). */
  const keptOf = async (key: string) => {
    const row = tasks.locator(`tr[data-task-key="${key}"]`);
    const cell = row.locator('.task-kept');
    const shown = { row: await text(cell), title: (await cell.getAttribute('title')) ?? '' };
    await row.getByRole('button', { name: /^Details of / }).click();
    const detail = tasks.locator(`.task-detail[data-task-key="${key}"]`);
    const dd = detail.locator('.detail-times div', { has: page.locator('dt', { hasText: 'Kept' }) }).locator('dd');
    const kept = { ...shown, detail: await text(dd.locator('.task-kept')), dd: await text(dd) };
    await detail.getByRole('button', { name: 'Close' }).click();
    return kept;
  };

  it('says how long in the row, and the same words with who keeps it and until when in the detail and the tooltip', async () => {
    await page.clock.pauseAt(Date.now() + 1_000);
    const received = await keptOf(receivedKey);
    assert.match(received.row, /^Kept for (10|9) min more$/);
    const receivedTime = received.row.replace(/^Kept /, '');
    assert.match(received.detail, new RegExp(`^Kept by Taskdesk ${receivedTime}, until \\S`));
    assert.equal(received.title, received.detail, 'the tooltip says what the detail says');

    const requested = await keptOf(requestedKey);
    assert.match(requested.row, /^Kept for [45] min more$/);
    const requestedTime = requested.row.replace(/^Kept /, '');
    assert.match(requested.detail, new RegExp(`^Kept by the server ${requestedTime}, until \\S`));
    assert.equal(requested.title, requested.detail);
    // What Taskdesk asked for follows, in the detail only.
    assert.equal(requested.dd, `${requested.detail} (Taskdesk asked for 1 h)`);
    assert.deepEqual(d.pageErrors, []);
  });

  it('says in the past tense until when it was kept, once that time has passed, in the row and the detail alike', async () => {
    await page.clock.pauseAt(Date.parse(expiresAt) + 60_000);
    const row = tasks.locator(`tr[data-task-key="${requestedKey}"]`);
    await row.locator('.task-kept', { hasText: /^Was kept until \S/ }).waitFor();
    const requested = await keptOf(requestedKey);
    assert.match(requested.detail, /^Was kept by the server until \S/);
    assert.equal(requested.detail.replace(' by the server', ''), requested.row, 'the same words and date');
    assert.equal(requested.title, requested.detail);
    // What Taskdesk asked for still follows it.
    assert.equal(requested.dd, `${requested.detail} (Taskdesk asked for 1 h)`);
    assert.deepEqual(d.pageErrors, []);
  });
});

/**
 * The Kept column counts every row alike: whole minutes, whether a task runs or ended, and
 * seconds only in its last minute, for every row. The core's clock stands still; the page's is
 * set where the words are compared.
 */
describe('the Tasks screen’s Kept column in one unit down its rows, in headless Chromium against the real core', () => {
  const clock = new ManualClock();
  const desk = peerServer('desk');
  let d: DeskFixture;
  let page: Page;
  let tasks: Locator;

  before(async () => {
    d = await startDesk(
      { desk },
      {
        host: { clock },
        viewport: { width: 1500, height: 1200 },
        beforeLoad: (p) => p.clock.install({ time: clock.now() })
      }
    );
    page = d.page;
    tasks = page.getByRole('region', { name: 'Tasks' });
  });

  after(async () => {
    await d?.close();
  });

  const text = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();

  it('says a running task’s time as an ended one’s, in minutes, and both in seconds in their last minute, its detail alike', async () => {
    // Two questions of ten minutes asked at one moment: one waits in the Inbox, one is answered.
    const waiting = await desk.server.request(question('Which region, still to say?'), CreateTaskResultSchema);
    const answered = await desk.server.request(question('Which region, said?'), CreateTaskResultSchema);
    const inbox = await d.fixture.host.call('inbox.list', {});
    const item = inbox.find((each) => each.taskId === answered.task.taskId)!;
    const end = Date.parse(inbox.find((each) => each.taskId === waiting.task.taskId)?.expiresAt ?? '');
    assert.equal(Date.parse(item.expiresAt ?? ''), end, 'both end at one moment');
    await d.fixture.host.call('inbox.answer', {
      id: item.id,
      answer: { action: 'accept', content: { region: 'north' } }
    });
    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    await tasks.getByRole('search', { name: 'Tasks' }).getByLabel('Status').selectOption('');
    const running = tasks.locator(`tr[data-task-key="received:${waiting.task.taskId}"]`);
    const ended = tasks.locator(`tr[data-task-key="received:${answered.task.taskId}"]`);
    await running.locator('[data-status="working"]').waitFor();
    await ended.locator('[data-status="completed"]').waitFor();

    // 5 min 33 s left of each: the running one's row said "5 min 33 s" beside the ended one's "5 min".
    await page.clock.pauseAt(end - 333_000);
    await running.locator('.task-kept', { hasText: /^Kept for 5 min more$/ }).waitFor();
    assert.equal(await text(ended.locator('.task-kept')), 'Kept for 5 min more');
    assert.match(
      (await running.locator('.task-kept').getAttribute('title')) ?? '',
      /^Kept by Taskdesk for 5 min more, until \S/
    );
    // Its detail, open beside it, says the same.
    await running.getByRole('button', { name: /^Details of / }).click();
    const detail = tasks.locator(`.task-detail[data-task-key="received:${waiting.task.taskId}"]`);
    const kept = detail
      .locator('.detail-times div', { has: page.locator('dt', { hasText: 'Kept' }) })
      .locator('.task-kept');
    assert.match(await text(kept), /^Kept by Taskdesk for 5 min more, until \S/);

    // Its last minute: seconds, for the row that runs (its host warns by now) and the one that ended.
    await page.clock.pauseAt(end - 42_000);
    await running.locator('.task-kept', { hasText: /^⚠ Kept for only 42 s more$/ }).waitFor();
    assert.equal(await text(ended.locator('.task-kept')), 'Kept for 42 s more');
    assert.match(await text(kept), /^⚠ Kept by Taskdesk for only 42 s more, until \S/);
    assert.deepEqual(d.pageErrors, []);
  });
});

const TOOL = 'summarise-regional-quarterly-open-orders-and-returns';
const RESULT =
  'The quarterly summary of open orders and returns for every regional office, with the figures of each week. '.repeat(
    5
  );
const QUESTION =
  'Which of the regional offices should the quarterly summary of open orders and returns be sent to, and by which day of next week?';

/** A server with one task tool whose name, arguments and result all run long. */
function longServer(store: ClockedTaskStore): PeerServer {
  const server = new McpServer(
    { name: 'long', version: '1.0.0' },
    { capabilities: { tools: {}, tasks: { requests: { tools: { call: {} } } } }, taskStore: store }
  );
  server.experimental.tasks.registerToolTask(
    TOOL,
    { inputSchema: { topic: z.string() }, execution: { taskSupport: 'required' } },
    {
      createTask: async (_args, extra) => {
        const task = await extra.taskStore.createTask({ ttl: 600_000 });
        await store.storeTaskResult(task.taskId, 'completed', {
          content: [{ type: 'text', text: RESULT }]
        } satisfies CallToolResult);
        return { task };
      },
      getTask: async (_args, extra) => (await store.getTask(extra.taskId))!,
      getTaskResult: async (_args, extra) => (await store.getTaskResult(extra.taskId)) as CallToolResult
    }
  );
  return { server: server.server, notifications: [], nextNotification: () => new Promise(() => undefined) };
}

/**
 * The Tasks table keeps to the screen's column (its heading, words and filters) at 1280 × 800,
 * as at 800 px, with long titles, arguments, server names and results: nothing runs past the
 * column's edges, nothing scrolls sideways, and a long cell is cut with its whole text kept.
 */
describe('the Tasks table within its column, in headless Chromium against the real core', () => {
  const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 50 });
  const asker = peerServer('asker');
  let d: DeskFixture;
  let page: Page;

  before(async () => {
    d = await startDesk(
      { 'long-running-regional-reports-server': longServer(store), asker },
      { viewport: { width: 1280, height: 800 } }
    );
    page = d.page;
  });

  after(async () => {
    await d?.close();
    store.close();
  });

  it('fits the column at 1280 × 800 and at 800 px, long cells cut with their whole text kept', async () => {
    const call = await d.fixture.host.call('tools.call', {
      serverId: 'long-running-regional-reports-server',
      name: TOOL,
      arguments: { topic: 'open orders and returns of the northern, southern, eastern and western offices' }
    });
    assert.equal(call.type, 'task');
    await asker.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: QUESTION,
          requestedSchema: { type: 'object', properties: { region: { type: 'string' } } },
          task: { ttl: 600_000 }
        }
      },
      CreateTaskResultSchema
    );
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    await tasks.locator('td.outcome', { hasText: 'quarterly summary' }).waitFor();
    await tasks.locator('td.task-cell', { hasText: 'Which of the regional offices' }).waitFor();

    for (const [width, height] of [
      [1280, 800],
      [800, 800]
    ] as const) {
      await page.setViewportSize({ width, height });
      const seen = await tasks.evaluate((screen) => {
        const column = screen.getBoundingClientRect();
        const wrap = screen.querySelector('.table-wrap')!;
        const frame = wrap.getBoundingClientRect();
        return {
          column: { left: column.left, right: column.right },
          filters: screen.querySelector('[role="search"]')!.getBoundingClientRect().right,
          wrap: { left: frame.left, right: frame.right },
          table: wrap.querySelector('table')!.getBoundingClientRect().right,
          sideways: wrap.scrollWidth - wrap.clientWidth,
          page: document.documentElement.scrollWidth - document.documentElement.clientWidth
        };
      });
      const at = `at ${width} × ${height}`;
      assert.ok(
        seen.wrap.right <= seen.column.right + 0.5,
        `${at}: the table runs to ${seen.wrap.right} px, past its column's right edge at ${seen.column.right} px`
      );
      assert.ok(
        seen.wrap.left >= seen.column.left - 0.5,
        `${at}: the table starts at ${seen.wrap.left} px, left of its column at ${seen.column.left} px`
      );
      assert.ok(seen.wrap.right <= seen.filters + 0.5, `${at}: the table ends right of the filters above it`);
      assert.ok(seen.table <= seen.wrap.right + 0.5, `${at}: the table runs past its frame`);
      assert.ok(seen.sideways <= 0, `${at}: the table scrolls ${seen.sideways} px sideways in its frame`);
      assert.equal(seen.page, 0, `${at}: the page scrolls sideways`);
      // Its long cells are cut (two lines of title and arguments, three of result), never the
      // row's actions: Details is in sight, and the whole text is a hover or a Details away.
      const details = tasks.getByRole('button', { name: /^Details of / }).first();
      const button = await details.boundingBox();
      assert.ok(button && button.x + button.width <= seen.column.right + 0.5, `${at}: Details is cut off`);
      const preview = tasks.locator('code.task-preview');
      assert.match((await preview.getAttribute('title')) ?? '', /western offices/, `${at}: the arguments' tooltip`);
      const cut = await tasks
        .locator('.task-title, .outcome-text')
        .evaluateAll((elements) => elements.map((element) => element.scrollHeight > element.clientHeight + 1));
      assert.ok(cut.some(Boolean), `${at}: the long cells are cut to their lines`);
    }
    assert.deepEqual(d.pageErrors, []);
  });
});

/** Chromium's 110 % zoom: a window 1649 px wide is 1499.09 CSS px, between 1499 and 1500. */
const ZOOM = 1.1;

/**
 * The Tasks table in a window whose width in CSS pixels is not a whole number, as browser zoom (or
 * Electron's) makes it: at 1499.09 px a `max-width: 1499px` and a `min-width: 1500px` both fail,
 * and the table showed its eight columns in the screen's narrow column, scrolling sideways.
 *
 * A viewport's width is whole CSS pixels in Playwright (its deviceScaleFactor leaves them whole);
 * a zoomed frame is not: the Desk is shown in an iframe with CSS `zoom`, which Chromium passes on
 * to the framed page as its zoom, as the browser's own zoom does. The Desk refuses to be framed,
 * so this test lets its own page (same origin) frame it.
 */
describe('the Tasks table at a zoomed, fractional window width, in headless Chromium against the real core', () => {
  const asker = peerServer('asker');
  let d: DeskFixture;
  let zoomed: Page;
  let desk: FrameLocator;
  let framed: Frame;
  const errors: string[] = [];

  before(async () => {
    d = await startDesk({ asker }, { viewport: { width: 1800, height: 1000 } });
    const context = d.page.context();
    const { origin, search } = new URL(d.server.url);
    await context.route(
      (url) => url.origin === origin && url.pathname === '/',
      async (route) => {
        const response = await route.fetch();
        const headers = { ...response.headers() };
        delete headers['x-frame-options'];
        headers['content-security-policy'] = (headers['content-security-policy'] ?? '').replace(
          "frame-ancestors 'none'",
          "frame-ancestors 'self'"
        );
        await route.fulfill({ response, headers });
      }
    );
    await context.route(`${origin}/zoomed-window.html`, (route) =>
      route.fulfill({
        contentType: 'text/html; charset=utf-8',
        body: `<!doctype html><title>Zoomed</title><style>body { margin: 0 } iframe { border: 0; zoom: ${ZOOM}; height: 800px }</style><iframe title="Taskdesk" src="/${search}"></iframe>`
      })
    );
    zoomed = await context.newPage();
    zoomed.on('pageerror', (error) => errors.push(error.message));
    zoomed.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await zoomed.goto(`${origin}/zoomed-window.html`);
    desk = zoomed.frameLocator('iframe');
    await desk.locator('#app[data-ready="true"]').waitFor();
    framed = (await (await zoomed.locator('iframe').elementHandle()).contentFrame())!;
  });

  after(async () => {
    await zoomed?.close();
    await d?.close();
  });

  /** Makes the framed Desk `width` of its own (zoomed) CSS px wide, and waits until it is laid out so. */
  const frameWidth = async (width: number) => {
    await zoomed.locator('iframe').evaluate((frame: HTMLIFrameElement, w) => (frame.style.width = `${w}px`), width);
    await framed.waitForFunction((w) => Math.abs(innerWidth - w) < 1, width);
  };

  it('shows the five columns that fit the screen’s column at 1499.09 px, and eight from 1500 px', async () => {
    const question = 'Which of the regional offices should the quarterly summary of open orders and returns go to?';
    const asked = await asker.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: question,
          requestedSchema: { type: 'object', properties: { region: { type: 'string' } } },
          task: { ttl: 600_000 }
        }
      },
      CreateTaskResultSchema
    );
    await desk.getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = desk.getByRole('region', { name: 'Tasks', exact: true });
    const row = tasks.locator(`tr[data-task-key="received:${asked.task.taskId}"]`);
    await row.waitFor();

    for (const [width, columns] of [
      [1499.09, 5],
      [1500.91, 8]
    ] as const) {
      await frameWidth(width);
      const at = `at ${width} px`;
      const between = await framed.evaluate(
        (w) => matchMedia(`(${Math.floor(w)}px < width < ${Math.floor(w) + 1}px)`).matches,
        width
      );
      assert.ok(between, `${at}: the framed Desk's width is not between whole pixels`);
      const seen = await tasks.evaluate((screen) => {
        const wrap = screen.querySelector('.table-wrap')!;
        return {
          columns: Array.from(screen.querySelectorAll('table.tasks thead th')).filter(
            (th) => th.getBoundingClientRect().width > 0
          ).length,
          sideways: wrap.scrollWidth - wrap.clientWidth
        };
      });
      assert.equal(seen.columns, columns, `${at}: ${seen.columns} columns`);
      assert.ok(seen.sideways <= 0, `${at}: the table scrolls ${seen.sideways} px sideways in its frame`);
      // Below 1500 px the server's name is said under the title, the Server column left out.
      assert.equal(
        await row.locator('.task-meta', { hasText: 'Received from Server asker' }).isVisible(),
        columns === 5,
        `${at}: the name under the title`
      );
      assert.equal(await row.locator('td.server').isVisible(), columns === 8, `${at}: the Server column`);
    }
    assert.deepEqual([...d.pageErrors, ...errors], []);
  });
});
