import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { ManualClock } from '../support/manual-clock.js';
import { nextEvent, peerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { recordHeard } from './live-region.js';

const form = (message: string) => ({
  mode: 'form',
  message,
  requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] }
});

/** What a screen reader heard since {@link recordHeard}. */
const heardSoFar = (d: DeskFixture) => d.page.evaluate(() => (window as unknown as { heard: string[] }).heard);

/**
 * A newcomer's question of the Audit log, "what happened to the question about Ivanhoe?": found by
 * its words, the task said by them, its History entry one click away, and how it ended in words.
 */
describe('finding what happened to a task in the Audit log, in headless Chromium against the real core', () => {
  const clock = new ManualClock();
  const peer = peerServer('books-peer');
  let d: DeskFixture;
  let taskId: string;

  before(async () => {
    d = await startDesk({ books: peer }, { host: { clock } });
    const { host } = d.fixture;
    // A question asked as a task, left unanswered until its time runs out, and another beside it.
    for (const [message, ttl] of [
      ['Who wrote Ivanhoe?', 10_000],
      ['Which city?', 600_000]
    ] as const) {
      const added = nextEvent(host, 'inbox.added');
      const { task } = await peer.server.request(
        { method: 'elicitation/create', params: { ...form(message), task: { ttl } } },
        CreateTaskResultSchema
      );
      taskId ??= task.taskId;
      await added;
    }
    const changed = nextEvent(host, 'task.changed', (p) => p.taskId === taskId && p.task === undefined);
    await clock.advance(10_000);
    await changed;
  });

  after(async () => {
    await d?.close();
  });

  it('finds a task’s entries by its question’s words, says the count above the table, and says how it ended', async () => {
    const { page } = d;
    await page.locator('nav').getByRole('link', { name: 'Audit log', exact: true }).click();
    const audit = page.getByRole('region', { name: 'Audit log' });
    const count = audit.locator('.audit-count');
    const rows = audit.locator('table.audit tbody tr');
    // The count line is above the table, and counts every entry shown.
    await count.getByText(/^Showing all \d+ entries\.$/).waitFor();
    assert.equal(
      await count.evaluate(
        (line) =>
          !!(line.compareDocumentPosition(document.querySelector('table.audit')!) & Node.DOCUMENT_POSITION_FOLLOWING)
      ),
      true,
      'the count comes before the table'
    );
    const total = Number(/\d+/.exec((await count.textContent())!)![0]);
    assert.equal(await rows.count(), total);

    await recordHeard(page);
    await audit.getByRole('search', { name: 'Audit log' }).getByLabel('Search').fill('Ivanhoe');
    await count.getByText('2 entries match.', { exact: true }).waitFor();
    assert.equal(await rows.count(), 2);
    // Said as it came, as the counts of Tasks and History are.
    await page.waitForFunction(() => (window as unknown as { heard: string[] }).heard.includes('2 entries match.'));
    assert.equal(await audit.getByRole('button', { name: 'Clear filters' }).count(), 1);

    // Each row says the task by its question, and how the task ended: not "status working".
    const expired = rows.filter({ hasText: 'task.expired' });
    await expired
      .locator('.event-sentence')
      .getByText('Task expired unanswered: its time ran out before it ended', { exact: true })
      .waitFor();
    assert.equal(await expired.locator('td.detail').textContent(), '—');
    for (const row of await rows.all())
      assert.equal(await row.locator('td.task').textContent(), '“Who wrote Ivanhoe?”, sent as a task');
    // Nothing of the other task.
    assert.equal(await rows.filter({ hasText: 'Which city?' }).count(), 0);
    assert.deepEqual(d.pageErrors, []);
  });

  it('opens the task’s entry in History from the Task column', async () => {
    const { page } = d;
    const audit = page.getByRole('region', { name: 'Audit log' });
    const created = audit.locator('table.audit tbody tr', { hasText: 'task.created' });
    const link = created.locator('td.task').getByRole('link', { name: '“Who wrote Ivanhoe?”, sent as a task' });
    assert.equal(await link.getAttribute('href'), `#history/${encodeURIComponent(`received:${taskId}`)}`);
    await link.click();
    const history = page.getByRole('region', { name: 'History' });
    const detail = history.locator('section.history-detail');
    await detail.getByRole('heading', { name: /Who wrote Ivanhoe\?/ }).waitFor();
    assert.equal(await detail.getAttribute('data-history-id'), `received:${taskId}`);
    await detail.getByText('expired unanswered', { exact: false }).first().waitFor();
    assert.deepEqual(d.pageErrors, []);
  });

  it('says every entry is shown again once the filters are cleared, once', async () => {
    const { page } = d;
    await page.locator('nav').getByRole('link', { name: 'Audit log', exact: true }).click();
    const audit = page.getByRole('region', { name: 'Audit log' });
    const count = audit.locator('.audit-count');
    await count.getByText('2 entries match.', { exact: true }).waitFor();
    await recordHeard(page);
    await audit.getByRole('button', { name: 'Clear filters' }).click();
    await count.getByText(/^Showing all \d+ entries\.$/).waitFor();
    await page.waitForFunction(() => document.activeElement?.classList.contains('audit-count'));
    await page.waitForFunction(() =>
      (window as unknown as { heard: string[] }).heard.some((text) => text.startsWith('Filters cleared'))
    );
    const heard = await heardSoFar(d);
    // That the filters are cleared (announced), and the count (read as the focus lands on it), once each.
    assert.deepEqual(heard.filter((text) => /^Showing all \d+ entries\.$/.test(text)).length, 1, JSON.stringify(heard));

    // With no filter set, a new entry changes the count, which is no news: not said (it was, each time).
    const before = Number(/\d+/.exec((await count.textContent()) ?? '')?.[0]);
    await recordHeard(page);
    d.fixture.host.audit.record({ type: 'store.warning', detail: { message: 'a warning meanwhile' } });
    // The Desk is told of new entries on the host's clock, which this test drives.
    await clock.advance(10_000);
    await count.getByText(`Showing all ${before + 1} entries.`, { exact: true }).waitFor();
    await audit.locator('table.audit tbody tr').first().filter({ hasText: 'a warning meanwhile' }).waitFor();
    assert.deepEqual(await heardSoFar(d), []);
    assert.deepEqual(d.pageErrors, []);
  });
});
