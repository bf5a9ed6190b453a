import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CancelTaskResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { nextEvent, peerServer } from '../support/host-fixture.js';
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

/**
 * What a screen reader would hear from now on: every text a live region (not `off`) is set to,
 * and the text of what takes the focus.
 */
function recordHeard(page: Page): Promise<void> {
  return page.evaluate(() => {
    const heard: string[] = [];
    (window as unknown as { heard: string[] }).heard = heard;
    new MutationObserver((records) => {
      const regions = new Set<Element>();
      for (const record of records) {
        const node = record.target instanceof Element ? record.target : record.target.parentElement;
        const region = node?.closest('[aria-live]');
        if (region && region.getAttribute('aria-live') !== 'off' && !region.closest('[hidden]')) regions.add(region);
      }
      for (const region of regions) if (region.textContent) heard.push(region.textContent);
    }).observe(document.body, { childList: true, characterData: true, subtree: true });
    document.addEventListener('focusin', (event) => heard.push((event.target as HTMLElement).textContent ?? ''));
  });
}

describe('the counts and Clear filters of Tasks and History, in headless Chromium against the real core', () => {
  const desk = peerServer('desk-peer');
  let d: DeskFixture;

  before(async () => {
    d = await startDesk({ desk });
    const { host } = d.fixture;
    // Three tasks, all ended: a question answered, one declined, one its server took back.
    for (const [message, answer] of [
      ['Which region is the report for?', { action: 'accept', content: { region: 'North' } }],
      ['Share your phone number?', { action: 'decline' }]
    ] as const) {
      const asked = nextEvent(host, 'inbox.added');
      await desk.server.request(question(message), CreateTaskResultSchema);
      await host.call('inbox.answer', { id: (await asked).item.id, answer });
    }
    const { task } = await desk.server.request(question('Which colour for the cover?'), CreateTaskResultSchema);
    await desk.server.request({ method: 'tasks/cancel', params: { taskId: task.taskId } }, CancelTaskResultSchema);
  });

  after(async () => {
    await d?.close();
  });

  it('Tasks says "N of M tasks match" for every Status choice, "3 of 3" too when every task matches', async () => {
    const { page } = d;
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    const count = tasks.locator('.tasks-count');
    await count.getByText('3 tasks', { exact: true }).waitFor();
    await tasks.locator('tbody [data-status="working"]').waitFor({ state: 'detached' });
    const status = tasks.getByRole('search', { name: 'Tasks' }).getByRole('combobox', { name: 'Status', exact: true });
    const expected: Record<string, number> = {
      'Waiting for you': 0,
      'Not ended': 0,
      Ended: 3,
      Working: 0,
      'Input required': 0,
      Completed: 0,
      Failed: 0,
      Cancelled: 1,
      Expired: 0,
      Lost: 0,
      Answered: 1,
      Declined: 1,
      Dismissed: 0,
      Rejected: 0
    };
    const choices = await status
      .locator('option')
      .evaluateAll((options) => (options as HTMLOptionElement[]).map((option) => [option.value, option.label]));
    assert.deepEqual(
      choices.filter(([value]) => value !== '').map(([, label]) => label),
      Object.keys(expected),
      'every choice is checked'
    );
    for (const [value, label] of choices) {
      if (value === '') continue;
      await status.selectOption(value!);
      await count.getByText(`${expected[label!]} of 3 tasks match`, { exact: true }).waitFor();
      assert.equal(await tasks.locator('tbody tr[data-task-key]').count(), expected[label!], label);
      await tasks.getByRole('button', { name: 'Clear filters' }).waitFor();
    }
    await status.selectOption('');
    await count.getByText('3 tasks', { exact: true }).waitFor();
    assert.equal(await tasks.getByRole('button', { name: 'Clear filters' }).count(), 0);
    assert.deepEqual(d.pageErrors, []);
  });

  it('History says "N of M entries match" while a filter is set, and Clear filters sets every filter back, says so and puts the focus on the count', async () => {
    const { page } = d;
    await page.getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    const filters = history.getByRole('search', { name: 'History' });
    const count = history.locator('.history-count');
    const clear = history.getByRole('button', { name: 'Clear filters' });
    const titles = history.locator('.history-list .history-title');
    await count.getByText('3 entries', { exact: true }).waitFor();
    assert.equal(await clear.count(), 0, 'no filter set: nothing to clear');

    const search = filters.getByRole('searchbox', { name: 'Search', exact: true });
    const direction = filters.getByRole('combobox', { name: 'Direction', exact: true });
    const status = filters.getByRole('combobox', { name: 'Status', exact: true });
    const server = filters.getByRole('combobox', { name: 'Server', exact: true });
    const kind = filters.getByRole('combobox', { name: 'Kind', exact: true });
    await status.selectOption('declined');
    await count.getByText('1 of 3 entries match', { exact: true }).waitFor();
    assert.deepEqual(await titles.allTextContents(), ['Share your phone number?']);
    await clear.waitFor();
    // Every entry matches, and the count still says a filter is set.
    await status.selectOption('');
    await kind.selectOption('elicitation');
    await count.getByText('3 of 3 entries match', { exact: true }).waitFor();
    await direction.selectOption('received');
    await server.selectOption('desk');
    await search.fill('no-such-entry-anywhere');
    await count.getByText('0 of 3 entries match', { exact: true }).waitFor();
    assert.equal(await titles.count(), 0);

    // Pressed from the keyboard, the button focused already.
    await clear.focus();
    await recordHeard(page);
    await clear.press('Enter');
    await count.getByText('3 entries', { exact: true }).waitFor();
    await titles.nth(2).waitFor();
    for (const field of [search, direction, status, server, kind]) assert.equal(await field.inputValue(), '');
    await clear.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.classList.contains('history-count'));
    await page.waitForFunction(() =>
      (window as unknown as { heard: string[] }).heard.some((text) => text.startsWith('Filters cleared'))
    );
    // Said once each: that the filters are cleared (announced), and the count (read as the focus lands on it).
    const heard = await page.evaluate(() => (window as unknown as { heard: string[] }).heard);
    assert.deepEqual(heard.toSorted(), ['3 entries', 'Filters cleared: every entry is shown.'], JSON.stringify(heard));
    assert.deepEqual(d.pageErrors, []);
  });
});
