import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { OutboundTaskView } from '../../app/contract/host-api.js';
import { systemClock } from '../../app/core/clock.js';
import { ClockedTaskStore } from '../support/requestor-task-store.js';
import { createTaskToolPeer } from '../support/task-tool-server.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { toolCallCard } from './renderer-build.js';

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
