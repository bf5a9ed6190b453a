import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { Host } from '../../app/host/host.js';
import { nextEvent } from '../support/host-fixture.js';
import { openEverythingDesk } from './everything-desk.js';

/**
 * A tool call's History entry and the question its server asked while it ran link to each other:
 * two calls of server-everything's trigger-elicitation-request ask the same question, and each
 * question's row says which call it was asked while, its detail linking to that call's entry.
 */
describe('History links a tool call and the question it ran into, in headless Chromium against the real core', () => {
  let host: Host;
  let page: Page;
  let close: () => Promise<void>;
  const pageErrors: string[] = [];

  before(async () => {
    ({ host, page, close } = await openEverythingDesk(pageErrors, { viewport: { width: 1100, height: 1400 } }));
  });
  after(async () => {
    await close?.();
  });

  /** Calls trigger-elicitation-request and declines its question; the call's and the question's History ids. */
  async function callAndDecline(): Promise<{ callId: string; questionId: string }> {
    const asked = nextEvent(host, 'inbox.added');
    const call = host.call('tools.call', {
      serverId: 'everything',
      name: 'trigger-elicitation-request',
      arguments: {}
    });
    const { item } = await asked;
    await host.call('inbox.answer', { id: item.id, answer: { action: 'decline' } });
    assert.equal((await call).type, 'result');
    const { entries } = await host.call('history.list', { filter: { serverId: 'everything' } });
    const called = entries.find((entry) => entry.kind === 'tool-call');
    const question = entries.find((entry) => entry.kind === 'elicitation');
    assert.ok(called && question, 'History keeps the call and its question');
    return { callId: called.id, questionId: question.id };
  }

  it('opens a call’s entry, follows the link to its question, and back', async () => {
    const first = await callAndDecline();
    const second = await callAndDecline();
    assert.notEqual(first.callId, second.callId);

    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'History', exact: true })
      .click();
    const history = page.getByRole('region', { name: 'History' });
    // The two questions read the same; each row says it was asked while a call ran (no more ties them).
    for (const { questionId } of [first, second]) {
      const mark = history.locator(`li[data-history-id="${questionId}"] .history-for-call`);
      await mark.waitFor();
      assert.equal(await mark.textContent(), 'while the call of trigger-elicitation-request ran');
    }
    // The search finds them by those words, and not the calls themselves.
    const search = history.getByLabel('Search');
    await search.fill('call of trigger-elicitation-request');
    await history.getByText('2 of 4 entries match', { exact: true }).waitFor();
    assert.deepEqual(
      (
        await history
          .locator('.history-list li[data-history-id]')
          .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-history-id')))
      ).sort(),
      [first.questionId, second.questionId].sort()
    );
    await search.fill('');
    await history.getByText('4 entries', { exact: true }).waitFor();

    await history.locator(`li[data-history-id="${second.callId}"] .history-title`).click();
    const detail = history.locator('.history-detail');
    await detail.and(page.locator(`[data-history-id="${second.callId}"]`)).waitFor();
    const asked = detail.locator('.history-asked a');
    await asked.waitFor();
    assert.equal(await asked.count(), 1, 'the call ran into one question');
    assert.equal(await asked.getAttribute('href'), `#history/${encodeURIComponent(second.questionId)}`);
    assert.equal(await asked.textContent(), 'Please provide inputs for the following fields:');

    await asked.click();
    await detail.and(page.locator(`[data-history-id="${second.questionId}"]`)).waitFor();
    const line = detail.locator('.history-for-call-line');
    await line.waitFor();
    assert.equal(await line.textContent(), 'Asked while Taskdesk’s call of trigger-elicitation-request ran.');
    // Its name is the words it shows (a name that hid them would not answer to them spoken).
    const back = line.getByRole('link', { name: 'call of trigger-elicitation-request', exact: true });
    assert.equal(await back.textContent(), 'call of trigger-elicitation-request');
    assert.equal(await back.getAttribute('aria-label'), null);
    assert.equal(await back.getAttribute('href'), `#history/${encodeURIComponent(second.callId)}`);

    await back.click();
    await detail.and(page.locator(`[data-history-id="${second.callId}"]`)).waitFor();
    await detail.locator('.history-asked a').waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
