import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { nextEvent } from '../support/host-fixture.js';
import { openEverythingDesk } from './everything-desk.js';

const REASON = 'You disconnected Everything: its process, which ran this task, was stopped.';

/**
 * The Tasks screen after the Servers screen's Disconnect of a stdio server (server-everything)
 * whose tool task was running: the task went with the process, and says so at once.
 */
describe('a tool task of a disconnected stdio server, in headless Chromium against the real core', () => {
  const pageErrors: string[] = [];
  let desk: Awaited<ReturnType<typeof openEverythingDesk>> | undefined;

  before(async () => {
    desk = await openEverythingDesk(pageErrors, { viewport: { width: 1200, height: 1000 } });
  });
  after(async () => {
    await desk?.close();
  });

  it('is Lost, in the words of the Disconnect, with nothing left to cancel or check, before any Connect', async () => {
    const { host, page } = desk!;
    const asked = nextEvent(host, 'inbox.added', ({ item }) => item.serverId === 'everything');
    const started = await host.call('tools.call', {
      serverId: 'everything',
      name: 'simulate-research-query',
      arguments: { topic: 'tides', ambiguous: true },
      asTask: true
    });
    assert.equal(started.type, 'task');
    const outboundId = started.type === 'task' ? started.task.outboundId : '';
    await asked;

    const nav = page.getByRole('navigation', { name: 'Sections' });
    await nav.locator('a[href="#tasks"]').click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    const row = tasks.locator(`tr[data-task-key="requested:${outboundId}"]`);
    await row.locator('[data-status="input_required"]').waitFor();
    await row.getByRole('button', { name: /^Cancel / }).waitFor();

    await nav.locator('a[href="#servers"]').click();
    const server = page.locator('li[data-server-id="everything"]');
    await server.getByRole('button', { name: 'Disconnect Everything' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disconnect Everything?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Disconnect', exact: true }).click();
    await server.locator('[data-status="closed"]').waitFor();
    await server.getByRole('button', { name: 'Connect Everything' }).waitFor();

    // Not connected again: the task is already Lost, and says why in the person's words.
    await nav.locator('a[href="#tasks"]').click();
    await row.locator('[data-status="lost"]').waitFor();
    assert.equal(await row.locator('.task-kept').textContent(), 'No longer kept');
    assert.equal(await row.getByRole('button', { name: /^Cancel / }).count(), 0);
    assert.equal(await row.getByRole('button', { name: /^Check / }).count(), 0);
    assert.doesNotMatch((await row.textContent()) ?? '', /Pending|more/);
    await row.getByRole('button', { name: /^Details of / }).click();
    const detail = tasks.locator(`.task-detail[data-task-key="requested:${outboundId}"]`);
    await detail.waitFor();
    assert.match((await detail.textContent()) ?? '', new RegExp(REASON.replace(/[.:]/g, '\\$&')));
    assert.doesNotMatch((await detail.textContent()) ?? '', /started again since/);
    assert.equal(host.connection('everything')?.state.status, 'closed');
    assert.deepEqual(pageErrors, []);
  });
});
