import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { systemClock } from '../../app/core/clock.js';
import { nextEvent } from '../support/host-fixture.js';
import { createTaskToolPeer } from '../support/task-tool-server.js';
import { restartFixture } from './restart-fixture.js';
import { toolCallCard } from './renderer-build.js';
import { passUndoWindow } from './undo-window.js';
import type { OutboundTaskView } from '../../app/contract/host-api.js';
import { ClockedTaskStore } from '../support/requestor-task-store.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { ElicitResultSchema, RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';

/**
 * A server Taskdesk starts itself (stdio; the fixture's in-memory servers are configured so) is
 * started again with Taskdesk, and keeps no tasks from before: the words about the tool calls
 * Taskdesk requested of it say what is kept, and by whom, rather than the server's countdown.
 */
describe('requested tasks after a restart of Taskdesk, in headless Chromium against the real core', () => {
  const restart = restartFixture();
  const { pageErrors } = restart;

  before(() => restart.build());
  after(() => restart.close());

  const nav = (page: Page, name: string) => page.locator('nav').getByRole('link', { name, exact: true }).click();
  const text = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();

  it('says a lost task is not kept, a finished one’s result is kept by Taskdesk, and a cancel once', async () => {
    const first = createTaskToolPeer({ clock: systemClock });
    const before = await restart.host({ work: first.peer });
    // The Desk open before the restart, as a person's would be (and the page keeps the test running).
    await restart.open(before);
    const done = nextEvent(
      before.host,
      'outbound.changed',
      (event) => event.type === 'changed' && event.task.toolName === 'report' && event.task.outcome !== undefined
    );
    const report = await before.host.call('tools.call', {
      serverId: 'work',
      name: 'report',
      arguments: { durationMs: 10 }
    });
    const slow = await before.host.call('tools.call', {
      serverId: 'work',
      name: 'slow',
      arguments: { durationMs: 600_000 }
    });
    assert.ok(report.type === 'task' && slow.type === 'task');
    await done;
    await before.stop();

    // Taskdesk starts again, and the server with it: a new process, with none of its tasks.
    const second = createTaskToolPeer({ clock: systemClock });
    const fixture = await restart.host({ work: second.peer });
    const page = await restart.open(fixture);
    await nav(page, 'Tasks');
    const tasks = page.getByRole('region', { name: 'Tasks' });
    const lostRow = tasks.locator(`tr[data-task-key="requested:${slow.task.outboundId}"]`);
    const doneRow = tasks.locator(`tr[data-task-key="requested:${report.task.outboundId}"]`);
    await lostRow.locator('[data-status="lost"]').waitFor();
    assert.equal(await text(lostRow.locator('.task-kept')), 'No longer kept');
    assert.equal(await lostRow.locator('.task-kept').getAttribute('title'), 'No longer kept by the server');
    assert.equal(await text(doneRow.locator('.task-kept')), 'Result kept by Taskdesk');
    assert.equal(
      await doneRow.locator('.task-kept').getAttribute('title'),
      'Result kept by Taskdesk; the server was started again since'
    );

    await doneRow.getByRole('button', { name: /^Details of Tool call report / }).click();
    const detail = tasks.locator('.task-detail');
    await detail.getByRole('heading', { name: 'report', exact: true }).waitFor();
    assert.equal(
      await text(detail.locator('.task-kept')),
      'Result kept by Taskdesk; the server was started again since'
    );
    await detail.getByRole('button', { name: 'Close' }).click();

    // A task the person cancels now: its timeline does not repeat the server's word on the cancel.
    const running = await fixture.host.call('tools.call', {
      serverId: 'work',
      name: 'slow',
      arguments: { durationMs: 600_000 }
    });
    assert.ok(running.type === 'task');
    const runningRow = tasks.locator(`tr[data-task-key="requested:${running.task.outboundId}"]`);
    await runningRow.getByRole('button', { name: /^Cancel Tool call slow / }).click();
    await runningRow.locator('[data-status="cancelled"]').waitFor();
    assert.equal(
      fixture.host.requestor.get(running.task.outboundId)?.task.statusMessage,
      'Client cancelled task execution.'
    );
    await runningRow.getByRole('button', { name: /^Details of Tool call slow / }).click();
    const step = detail.locator('.timeline li').filter({ has: page.locator('[data-status="cancelled"]') });
    await step.waitFor();
    assert.equal(await text(step), `${await text(step.locator('time'))} Cancelled`);
    assert.doesNotMatch(await text(detail.locator('.detail-status')), /Client cancelled task execution/);
    // Of the server that runs now: its countdown, as before.
    assert.match(await text(runningRow.locator('.task-kept')), /^Kept for .+ more$/);

    // The Tools screen says the same, and what a restart does to a tool call's task.
    await nav(page, 'Tools');
    const calls = page.getByRole('region', { name: 'Tool calls' });
    assert.equal(
      await text(calls.locator('.lede')),
      'Tools Taskdesk called as tasks, newest first, followed until they end. After Taskdesk restarts, a server that runs on its own (HTTP) is asked again; a server Taskdesk starts itself (stdio) starts again with it, and its running tasks are lost unless it stores them.'
    );
    const card = toolCallCard(calls, 'report');
    await card.waitFor();
    assert.equal(
      await text(card.locator('.task-kept')),
      'Taskdesk keeps its result; the server was started again since'
    );
    assert.deepEqual(pageErrors, []);
  });
});

/** An hour between polls: within a test, the host asks the server again only when told to. */
const LONG_POLL_MS = 3_600_000;

describe('what Check now found goes for good once the task moves on, even when it comes back to that state', () => {
  // The server's store: the test moves its tasks behind the host's back.
  const store = new ClockedTaskStore({ clock: systemClock, pollInterval: LONG_POLL_MS });
  const { peer: work } = createTaskToolPeer({ clock: systemClock, store });
  let d: DeskFixture;
  let page: Page;

  before(async () => {
    d = await startDesk({ work }, { viewport: { width: 1200, height: 1400 } });
    page = d.page;
  });

  after(async () => {
    await d?.close();
    store.close();
  });

  /** A slow tool called as a task, from the host (no form on the screen). */
  const slowTask = async (): Promise<OutboundTaskView> => {
    const call = await d.fixture.host.call('tools.call', {
      serverId: 'work',
      name: 'slow',
      arguments: { durationMs: 600_000 }
    });
    assert.ok(call.type === 'task');
    return call.task;
  };

  /**
   * The server's task moves to `status`, and the host learns it by asking (not the person's
   * Check now): `shown` then carries it.
   */
  const moveTo = async (task: OutboundTaskView, status: 'working' | 'input_required', shown: Locator) => {
    await store.updateTaskStatus(task.taskId, status);
    const view = await d.fixture.host.call('outbound.refresh', { outboundId: task.outboundId });
    assert.equal(view.state, status);
    await shown.waitFor();
  };

  /**
   * Cancels the task on its server. Not waited for on the screen: its `tasks/result`, asked for
   * while it waited for input, holds the change back a while (`SETTLING_HOLD_MS`).
   */
  const stop = async (task: OutboundTaskView) => {
    const view = await d.fixture.host.call('outbound.cancel', { outboundId: task.outboundId });
    assert.equal(view.state, 'cancelled');
  };

  it('on the Tools screen: working → waiting for input → working again after a check shows no line about it', async () => {
    const task = await slowTask();
    await page.locator('nav').getByRole('link', { name: 'Tools', exact: true }).click();
    const card = toolCallCard(page.getByRole('region', { name: 'Tool calls' }), 'slow');
    await card.locator('[data-status="working"]').waitFor();
    await card.getByRole('button', { name: /^Check slow task / }).click();
    await card.locator('.checked-at').waitFor();
    assert.equal(await card.locator('.checked-at').textContent(), 'Checked just now; still working.');

    await moveTo(task, 'input_required', card.locator('[data-status="input_required"]'));
    assert.equal(await card.locator('.checked-at').count(), 0, 'the task moved on from what the check found');
    await moveTo(task, 'working', card.locator('[data-status="working"]'));
    assert.equal(
      await card.locator('.checked-at').count(),
      0,
      'back to working, the check before the change says nothing of it'
    );

    // The next Check now says what it found again.
    await card.locator('button:not([aria-busy])', { hasText: 'Check now' }).click();
    await card.locator('.checked-at').waitFor();
    assert.equal(await card.locator('.checked-at').textContent(), 'Checked just now; still working.');
    await stop(task);
    assert.deepEqual(d.pageErrors, []);
  });

  it('in a task’s Details on Tasks: working → waiting for input → working again after a check shows no line about it', async () => {
    const task = await slowTask();
    const key = `requested:${task.outboundId}`;
    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    await tasks.getByRole('search', { name: 'Tasks' }).getByLabel('Status').selectOption('');
    await tasks
      .locator(`tr[data-task-key="${key}"]`)
      .getByRole('button', { name: /^Details of / })
      .click();
    const detail = tasks.locator(`.task-detail[data-task-key="${key}"]`);
    const status = (state: string) => detail.locator(`.detail-status [data-status="${state}"]`);
    await status('working').waitFor();
    await detail.getByRole('button', { name: 'Check now' }).click();
    await detail.locator('.checked-at').waitFor();
    assert.equal(await detail.locator('.checked-at').textContent(), 'Checked just now; still working.');

    await moveTo(task, 'input_required', status('input_required'));
    assert.equal(await detail.locator('.checked-at').count(), 0, 'the task moved on from what the check found');
    await moveTo(task, 'working', status('working'));
    assert.equal(
      await detail.locator('.checked-at').count(),
      0,
      'back to working, the check before the change says nothing of it'
    );

    await detail.getByRole('button', { name: 'Check now' }).click();
    await detail.locator('.checked-at').waitFor();
    assert.equal(await detail.locator('.checked-at').textContent(), 'Checked just now; still working.');
    await detail.getByRole('button', { name: 'Close' }).click();
    await stop(task);
    assert.deepEqual(d.pageErrors, []);
  });
});

/**
 * A 2025-11-25 server asks its question for a tool task of Taskdesk's as an ordinary request
 * (related-task `_meta`, no task of its own): its SDK gives up on it after its request timeout, as
 * on any other. Both the Inbox card and the task's detail on the Tasks screen say so.
 */
describe('a server’s question for its task, which the server may stop waiting for', () => {
  const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 50 });
  const { peer: work } = createTaskToolPeer({ clock: systemClock, store });
  let d: DeskFixture;

  before(async () => {
    d = await startDesk(
      { work },
      {
        viewport: { width: 1200, height: 1400 },
        // The page's clock installed: the Decline is sent when the test ends its undo window.
        beforeLoad: (page) => page.clock.install()
      }
    );
  });

  after(async () => {
    await d?.close();
    store.close();
  });

  it('says on its Inbox card and beside the task’s link to it that servers often stop waiting after about a minute', async () => {
    const { page } = d;
    const call = await d.fixture.host.call('tools.call', {
      serverId: 'work',
      name: 'slow',
      arguments: { durationMs: 600_000 }
    });
    assert.ok(call.type === 'task');
    const added = nextEvent(d.fixture.host, 'inbox.added', ({ item }) => item.relatedTaskId === call.task.taskId);
    const asked = work.server
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
      .catch((error: unknown) => error);
    await added;

    await page.locator('nav').getByRole('link', { name: 'Inbox 1 waiting', exact: true }).click();
    const card = page.getByRole('article', { name: 'Which depot, for the slow call?' });
    await card.waitFor();
    // Named by the call of Taskdesk's it was asked for (from the Desk's tasks), not by the server's id for it.
    await card.locator('.meta', { hasText: / · your call of slow waits on it · / }).waitFor();
    assert.equal(
      await card.locator('.wait-note').textContent(),
      'Servers often stop waiting after about a minute (the MCP SDK’s default timeout).'
    );

    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    await tasks
      .locator(`tr[data-task-key="requested:${call.task.outboundId}"]`)
      .getByRole('button', { name: /^Details of / })
      .click();
    const link = tasks.locator('.task-detail').getByRole('link', { name: 'Answer its server’s question in the Inbox' });
    await link.waitFor();
    assert.equal(
      await link.locator('xpath=..').textContent(),
      'Answer its server’s question in the Inbox (servers often stop waiting after about a minute)'
    );

    await link.click();
    await card.getByRole('button', { name: 'Decline' }).click();
    await passUndoWindow(page);
    assert.equal(((await asked) as { action?: string }).action, 'decline');
    await d.fixture.host.call('outbound.cancel', { outboundId: call.task.outboundId });
    assert.deepEqual(d.pageErrors, []);
  });
});
