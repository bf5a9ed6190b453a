import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { systemClock } from '../../app/core/clock.js';
import { nextEvent } from '../support/host-fixture.js';
import { createTaskToolPeer } from '../support/task-tool-server.js';
import { restartFixture } from './restart-fixture.js';
import { toolCallCard } from './renderer-build.js';

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
