import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Locator, Page } from 'playwright-core';
import { peerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { hash, question, scrollTo } from './detail-return.js';

/**
 * Screens stay mounted while hidden, and keep their state: an entry's detail open on the History
 * screen is open again, where it was, on coming back to History by its link, as a task's on Tasks.
 */
describe('a History entry’s detail kept while another screen is shown, in headless Chromium against the real core', () => {
  const asker = peerServer('asker');
  let d: DeskFixture;
  let page: Page;
  let history: Locator;

  before(async () => {
    // Short enough that a detail scrolls the page.
    d = await startDesk({ asker }, { viewport: { width: 1280, height: 600 } });
    page = d.page;
    history = page.getByRole('region', { name: 'History' });
  });

  after(async () => {
    await d?.close();
  });

  const nav = (name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name });
  /** Follows a link of the bar as a person's click does (Playwright's click would scroll the page first). */
  const follow = (name: string) => nav(name).evaluate((link: HTMLElement) => link.click());
  const detail = () => history.locator('.history-detail');

  it('shows the entry that was open, at its scroll place, after a visit to the Inbox by its link; Back closes it', async () => {
    const asked = await asker.server.request(question('Which region is the report for?'), CreateTaskResultSchema);
    const id = `received:${asked.task.taskId}`;
    const address = `#history/${encodeURIComponent(id)}`;
    await nav('History').click();
    const row = history.locator(`li[data-history-id="${id}"]`);
    await row.getByRole('button', { name: 'Which region is the report for?' }).click();
    await detail().getByRole('heading', { name: 'Timeline' }).waitFor();
    assert.equal(await hash(page), address);
    const place = await scrollTo(page, 300);
    assert.equal(place, 300);

    await follow('Inbox');
    await page.getByRole('heading', { name: 'Inbox', level: 2 }).waitFor();
    assert.equal(await hash(page), '#inbox');
    await follow('History');
    // Shown again as it was, the address naming it.
    await page.waitForFunction((wanted) => location.hash === wanted, address);
    await detail().getByRole('heading', { name: 'Timeline' }).waitFor();
    assert.equal(await detail().getAttribute('data-history-id'), id);
    assert.equal(await page.evaluate(() => scrollY), place);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'history-detail-title');

    // Back to the Inbox, Back to the entry, Back to the list, the detail closed.
    await page.goBack();
    await page.waitForFunction(() => location.hash === '#inbox');
    await page.goBack();
    await page.waitForFunction((wanted) => location.hash === wanted, address);
    await detail().getByRole('heading', { name: 'Timeline' }).waitFor();
    await page.goBack();
    await page.waitForFunction(() => location.hash === '#history');
    await detail().waitFor({ state: 'detached' });

    // Closed, it stays closed: back from the Inbox, the list alone.
    await row.getByRole('button', { name: 'Which region is the report for?' }).click();
    await detail().getByRole('button', { name: 'Close' }).click();
    await detail().waitFor({ state: 'detached' });
    await follow('Inbox');
    await page.getByRole('heading', { name: 'Inbox', level: 2 }).waitFor();
    await follow('History');
    await page.waitForFunction(() => document.activeElement?.id === 'heading-history');
    assert.equal(await hash(page), '#history');
    assert.equal(await detail().count(), 0);
    assert.deepEqual(d.pageErrors, []);
  });

  it('shows the list on Back onto an older #history, not the entry kept', async () => {
    const asked = await asker.server.request(question('Which shelf?'), CreateTaskResultSchema);
    const id = `received:${asked.task.taskId}`;
    await follow('History');
    await page.waitForFunction(() => location.hash === '#history');
    await history.locator(`li[data-history-id="${id}"]`).getByRole('button', { name: 'Which shelf?' }).click();
    await detail().getByRole('heading', { name: 'Which shelf?' }).waitFor();
    await follow('Inbox');
    await page.getByRole('heading', { name: 'Inbox', level: 2 }).waitFor();
    // Back twice: the entry's address, then the plain #history before it.
    await page.goBack();
    await page.goBack();
    await page.waitForFunction(() => location.hash === '#history');
    await detail().waitFor({ state: 'detached' });
    assert.deepEqual(d.pageErrors, []);
  });

  it('moves the focus to the first entry "Show more" brought, where a keyboard reads on', async () => {
    // Fifty newer questions: the two of the tests above go to the second page.
    for (let index = 0; index < 50; index++)
      await asker.server.request(question(`Newer question ${index}?`), CreateTaskResultSchema);
    await follow('History');
    await page.waitForFunction(() => location.hash === '#history');
    await history.getByText('52 entries, showing 50', { exact: true }).waitFor();
    await history.getByRole('button', { name: 'Show more' }).focus();
    await page.keyboard.press('Enter');
    // The button went with the last page: the focus is on the first entry it brought, not the page.
    await history.getByRole('button', { name: 'Show more' }).waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Which shelf?');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Which region is the report for?');
    assert.deepEqual(d.pageErrors, []);
  });
});

/**
 * A Decline given in the Inbox waits out its undo window before it is sent: meanwhile its task's
 * History entry says so, as its Tasks row does, not that the task waits for the person.
 */
describe('a History entry while its question’s Decline waits out its undo window, in headless Chromium against the real core', () => {
  const asker = peerServer('asker');
  let d: DeskFixture;
  let page: Page;

  before(async () => {
    // The page's clock is driven here: the undo window passes only when the test says.
    d = await startDesk({ asker }, { beforeLoad: (page) => page.clock.install() });
    page = d.page;
  });

  after(async () => {
    await d?.close();
  });

  it('says “Declining” in its badge and that it can still be undone, in its row and its detail', async () => {
    const asked = await asker.server.request(question('Which shelf is it on?'), CreateTaskResultSchema);
    const id = `received:${asked.task.taskId}`;
    const nav = (name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name });
    const history = page.getByRole('region', { name: 'History' });
    const row = history.locator(`li[data-history-id="${id}"]`);
    await nav('History').click();
    await row.locator('.status').getByText('Waiting for you').waitFor();

    await nav('Inbox').click();
    const card = page.getByRole('article', { name: 'Which shelf is it on?' });
    await card.getByRole('button', { name: 'Decline' }).click();
    await page.locator('.inbox-held').waitFor();
    await nav('History').click();
    await row.locator('.status').getByText('Declining', { exact: true }).waitFor();
    assert.equal(await row.locator('.history-held').textContent(), 'Declined: you can still undo it in the Inbox.');
    assert.equal(await row.getByText('Waiting for you').count(), 0);

    await row.getByRole('button', { name: 'Which shelf is it on?' }).click();
    const detail = history.locator('.history-detail');
    await detail.locator('.status').getByText('Declining', { exact: true }).waitFor();
    assert.equal(await detail.locator('.history-held').textContent(), 'Declined: you can still undo it in the Inbox.');
    // Not the message Taskdesk gave its server while the task waited (its timeline keeps that step).
    assert.equal(await detail.locator('.meta').getByText('Waiting for your answer in the Inbox').count(), 0);
    await detail.getByRole('link', { name: 'undo it in the Inbox' }).click();
    await page.waitForFunction(() => document.activeElement?.textContent === 'Undo');

    // Undone, it waits for the person again.
    await page.keyboard.press('Enter');
    await card.waitFor();
    await nav('History').click();
    await row.locator('.status').getByText('Waiting for you').waitFor();
    assert.equal(await row.locator('.history-held').count(), 0);
    assert.deepEqual(d.pageErrors, []);
  });
});
