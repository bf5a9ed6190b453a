import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CancelTaskResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { peerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

const question = (message: string) => ({
  method: 'elicitation/create' as const,
  params: {
    mode: 'form',
    message,
    requestedSchema: { type: 'object', properties: { region: { type: 'string', title: 'Region' } } },
    task: { ttl: 600_000 }
  }
});

describe('Escape in the Search of Tasks and History, with a detail open, in headless Chromium against the real core', () => {
  const desk = peerServer('tasks-peer');
  let d: DeskFixture;

  before(async () => {
    d = await startDesk({ desk });
  });

  after(async () => {
    await d?.close();
  });

  it('clears a Search that holds words first, then closes the Details with the focus back on its row', async () => {
    const { page } = d;
    const asked = await desk.server.request(question('Which region is the report for?'), CreateTaskResultSchema);
    await desk.server.request(question('Your name for the raffle?'), CreateTaskResultSchema);
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    await tasks.getByText('2 tasks', { exact: true }).waitFor();
    const details = tasks
      .locator(`tr[data-task-key="received:${asked.task.taskId}"]`)
      .getByRole('button', { name: /^Details of / });
    await details.click();
    const detail = tasks.locator('.task-detail');
    await detail.waitFor();

    const search = tasks.getByRole('search', { name: 'Tasks' }).getByLabel('Search');
    await search.click();
    await page.keyboard.type('region');
    await tasks.getByText('1 of 2 tasks match').waitFor();
    // The first Escape takes the words back (the list whole again); the Details stay, the focus in Search.
    await page.keyboard.press('Escape');
    await tasks.getByText('2 tasks', { exact: true }).waitFor();
    assert.equal(await search.inputValue(), '');
    assert.equal(await detail.count(), 1);
    assert.equal(await search.evaluate((input) => input === document.activeElement), true);
    // In the empty Search, Escape closes the Details as Escape in them does: the focus goes back to the row's Details.
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label')?.startsWith('Details of '));
    assert.equal(await details.evaluate((button) => button === document.activeElement), true);
    assert.equal(page.url().endsWith('#tasks'), true);
    // With no Details open, Escape in the Search leaves the focus where it is.
    await search.click();
    await page.keyboard.press('Escape');
    assert.equal(await search.evaluate((input) => input === document.activeElement), true);
    assert.deepEqual(d.pageErrors, []);
  });

  it('History does the same: the first Escape clears the Search, the next closes the open entry, focus back on its title', async () => {
    const { page } = d;
    const { task } = await desk.server.request(question('Which colour for the cover?'), CreateTaskResultSchema);
    // The server takes its question back: the task ends, and History has it.
    await desk.server.request({ method: 'tasks/cancel', params: { taskId: task.taskId } }, CancelTaskResultSchema);
    await page.getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    const entry = history.locator(`li[data-history-id$="${task.taskId}"]`);
    const title = entry.locator('.history-title');
    await title.click();
    const detail = history.locator('.history-detail');
    await detail.waitFor();

    const search = history.getByRole('search', { name: 'History' }).getByLabel('Search');
    await search.click();
    await page.keyboard.type('colour');
    await history.getByText('1 of 3 entries match', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    assert.equal(await search.inputValue(), '');
    assert.equal(await detail.count(), 1, 'the entry stays open while the Search had words');
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.classList.contains('history-title'));
    assert.equal(await title.evaluate((element) => element === document.activeElement), true);
    assert.deepEqual(d.pageErrors, []);
  });
});
