import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { Host } from '../../app/host/host.js';
import { nextEvent } from '../support/host-fixture.js';
import { openToolForm } from './renderer-build.js';
import { openEverythingDesk } from './everything-desk.js';
import { recordHeard } from './live-region.js';

/** Whether the element has the focus and its top is in the window, below the sticky bar. */
function focusedInSight(element: Locator): Promise<{ focused: boolean; top: number; bar: number; height: number }> {
  return element.evaluate((node) => ({
    focused: node === document.activeElement,
    top: node.getBoundingClientRect().top,
    bar: document.querySelector('.top-area')!.getBoundingClientRect().bottom,
    height: window.innerHeight
  }));
}

describe('links from Tools into a task’s detail, and what Tasks says of what waits on the person', () => {
  let host: Host;
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let tools: Locator;
  let tasks: Locator;
  const pageErrors: string[] = [];

  before(async () => {
    ({ host, page, close } = await openEverythingDesk(pageErrors, { viewport: { width: 1100, height: 800 } }));
    await page.locator('nav').getByRole('link', { name: 'Tools', exact: true }).click();
    tools = page.getByRole('region', { name: 'Tools' });
    tasks = page.getByRole('region', { name: 'Tasks' });
  });

  after(async () => {
    await close?.();
  });

  it('"its detail on Tasks", followed from far down Tools, shows the detail’s heading in sight, focused', async () => {
    const form = await openToolForm(tools, 'simulate-research-query');
    await form.getByLabel('topic').fill('tides');
    await form.getByRole('button', { name: 'Call tool' }).click();
    const link = form.getByRole('link', { name: 'its detail on Tasks' });
    await link.waitFor();
    // Far down the page, as a person reading the result under the form is.
    await link.evaluate((node) => node.scrollIntoView({ block: 'end' }));
    assert.ok((await page.evaluate(() => window.scrollY)) > 300, 'Tools is scrolled down');
    await link.click();
    const heading = tasks.locator('.task-detail h3').first();
    await heading.waitFor();
    await page.waitForFunction(() => document.activeElement?.closest('.task-detail') !== null);
    const seen = await focusedInSight(heading);
    assert.ok(seen.focused, 'the detail’s heading has the focus');
    assert.ok(seen.top >= 0, `the heading is in the window (top ${seen.top})`);
    assert.ok(seen.top >= seen.bar - 1, `below the sticky bar (top ${seen.top}, bar ${seen.bar})`);
    assert.ok(seen.top < seen.height, 'not below the window');
    assert.deepEqual(pageErrors, []);
  });

  it('a started task waiting on its server’s question says so under the form, with the way to it in the Inbox', async () => {
    await page.locator('nav').getByRole('link', { name: 'Tools', exact: true }).click();
    const form = await openToolForm(tools, 'simulate-research-query');
    await form.getByLabel('topic').fill('python');
    await form.getByRole('combobox', { name: 'ambiguous', exact: true }).selectOption('true');
    const asked = nextEvent(host, 'inbox.added');
    await form.getByRole('button', { name: 'Call tool' }).click();
    const { item } = await asked;
    const waiting = form.locator('.started-task-waiting');
    await waiting.waitFor();
    assert.match((await waiting.textContent()) ?? '', /^\S.* has a question for you in the Inbox\.$/);
    assert.equal(
      await waiting.getByRole('link', { name: 'in the Inbox' }).getAttribute('href'),
      `#inbox/${encodeURIComponent(item.id)}`
    );
    await form.locator('.started-task [data-status="input_required"]').waitFor();
    assert.deepEqual(pageErrors, []);
  });

  it('a received model request waiting in the Inbox reads as one, from its server, and as waiting for you', async () => {
    const form = await openToolForm(tools, 'trigger-sampling-request-async');
    await form.getByLabel('prompt').fill('Name a colour');
    const asked = nextEvent(host, 'inbox.added', (event) => event.item.kind === 'sampling');
    await form.getByRole('button', { name: 'Call tool' }).click();
    const { item } = await asked;
    assert.ok(item.taskId);
    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const row = tasks.locator(`tr[data-task-key="received:${item.taskId}"]`);
    await row.waitFor();
    assert.equal(await row.locator('.status').textContent(), 'Waiting for you');
    assert.equal(await row.locator('.status').getAttribute('data-status'), 'working', 'the protocol status is kept');
    assert.match(
      (await row.locator('.task-title').first().textContent()) ?? '',
      new RegExp(`^Model request from ${item.serverName}: `)
    );
    await row.getByRole('button', { name: /^Details of / }).click();
    const detail = tasks.locator('.task-detail');
    await detail.locator('.detail-status .status', { hasText: 'Waiting for you' }).waitFor();
    assert.equal(await detail.locator('.protocol-status').textContent(), 'Status: Working');
    await detail.getByRole('button', { name: 'Close' }).click();
    assert.deepEqual(pageErrors, []);
  });

  it('"Clear filters", beside a count of none matching, sets every filter back and says so', async () => {
    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const count = tasks.locator('.tasks-count');
    const clear = tasks.getByRole('button', { name: 'Clear filters' });
    await count.getByText(/^\d+ tasks$/).waitFor();
    const all = (await count.textContent())!;
    assert.equal(await clear.count(), 0, 'no filter set: nothing to clear');
    await tasks.getByRole('searchbox').fill('no-such-task-anywhere');
    await tasks.getByRole('combobox', { name: 'Kind' }).selectOption('tool-call');
    await count.getByText(/^0 of \d+ tasks match$/).waitFor();
    // Pressed from the keyboard, the button focused already.
    await clear.focus();
    await recordHeard(page);
    await clear.press('Enter');
    await count.getByText(all, { exact: true }).waitFor();
    assert.equal(await tasks.getByRole('searchbox').inputValue(), '');
    assert.equal(await tasks.getByRole('combobox', { name: 'Kind' }).inputValue(), '');
    await clear.waitFor({ state: 'detached' });
    assert.ok(await count.evaluate((node) => node === document.activeElement), 'the focus on the count, not the page');
    await page.waitForFunction(() =>
      (window as unknown as { heard: string[] }).heard.some((text) => text.startsWith('Filters cleared'))
    );
    // Said once each: that the filters are cleared (announced), and the count (read as the focus
    // lands on it). What the Desk says of the earlier tests' calls meanwhile ("… is running.") is
    // no part of it.
    const heard = await page.evaluate(() => (window as unknown as { heard: string[] }).heard);
    assert.deepEqual(
      heard.filter((text) => !text.endsWith(' is running.')),
      [all, 'Filters cleared: every task is shown.'],
      `heard: ${JSON.stringify(heard)}`
    );
    assert.deepEqual(pageErrors, []);
  });
});
