import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { peerServer, tempDir } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { recordHeard } from './live-region.js';

/** Entries an earlier run of Taskdesk wrote: more than the screen shows at first. */
const EARLIER = 450;

/** Waits until a screen reader has heard words matching `pattern` since `recordHeard`, and says how often. */
async function heardTimes(d: DeskFixture, pattern: RegExp): Promise<number> {
  await d.page.waitForFunction(
    ([source, flags]) =>
      (window as unknown as { heard: string[] }).heard.some((text) => new RegExp(source, flags).test(text)),
    [pattern.source, pattern.flags] as const
  );
  const heard = await d.page.evaluate(() => (window as unknown as { heard: string[] }).heard);
  return heard.filter((text) => pattern.test(text)).length;
}

describe('the Audit log shows older entries on request, in headless Chromium against the real core', () => {
  const data = tempDir();
  let d: DeskFixture;

  before(async () => {
    const lines = Array.from({ length: EARLIER }, (_, i) =>
      JSON.stringify({
        at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
        type: 'store.warning',
        detail: { message: `earlier warning ${i}` }
      })
    );
    fs.mkdirSync(path.join(data.dir, 'audit'), { recursive: true });
    fs.writeFileSync(path.join(data.dir, 'audit', 'audit.log'), `${lines.join('\n')}\n`);
    d = await startDesk({ desk: peerServer('audit-peer') }, { host: { dir: data.dir } });
  });

  after(async () => {
    await d?.close();
    data.remove();
  });

  it('says how much it shows, shows a page more at each Show more, and keeps the focus when nothing older is left', async () => {
    const { page } = d;
    await page.getByRole('link', { name: 'Audit log' }).click();
    const audit = page.getByRole('region', { name: 'Audit log' });
    const rows = audit.locator('table.audit tbody tr');
    // Said above the table, and again under it by Show more.
    const count = audit.locator('.audit-count');
    const line = audit.locator('.audit-shown p');
    await count.getByText('Showing the newest 200 entries; older ones are kept too.').waitFor();
    await line.getByText('Showing the newest 200 entries; older ones are kept too.').waitFor();
    assert.equal(await rows.count(), 200);
    // The oldest of the earlier run's entries is not among them yet.
    assert.equal(await audit.getByText('earlier warning 0', { exact: true }).count(), 0);

    await recordHeard(page);
    const more = audit.getByRole('button', { name: 'Show more' });
    await more.click();
    await count.getByText('Showing the newest 400 entries; older ones are kept too.').waitFor();
    assert.equal(await rows.count(), 400);
    // Said once, by the count line.
    assert.equal(await heardTimes(d, /^Showing the newest 400 entries; older ones are kept too\.$/), 1);
    assert.equal(await more.evaluate((button) => button === document.activeElement), true);

    // The last page: every entry, the button gone, the focus on the line that says so.
    await more.click();
    const all = line.getByText(/^Showing all \d+ entries\.$/);
    await all.waitFor();
    const total = Number(/\d+/.exec((await all.textContent())!)![0]);
    assert.ok(total > EARLIER, `${total} entries: the earlier run's and this one's`);
    assert.equal(await rows.count(), total);
    await audit.getByText('earlier warning 0', { exact: true }).waitFor();
    assert.equal(await more.count(), 0);
    assert.equal(await all.evaluate((focused) => focused === document.activeElement), true);
    assert.ok((await heardTimes(d, /^Showing all \d+ entries\.$/)) >= 1);
  });

  it('goes back to the newest page when the search changes, and counts the matching entries', async () => {
    const { page } = d;
    const audit = page.getByRole('region', { name: 'Audit log' });
    const search = audit.getByRole('search', { name: 'Audit log' }).getByLabel('Search');
    const count = audit.locator('.audit-count');
    await search.fill('earlier warning');
    await count.getByText('Showing the newest 200 matching entries; older ones are kept too.').waitFor();
    assert.equal(await audit.locator('table.audit tbody tr').count(), 200);
    await search.fill('earlier warning 449');
    await count.getByText('1 entry matches.', { exact: true }).waitFor();
    // Nothing pages: the count is said above the table only.
    assert.equal(await audit.locator('.audit-shown').count(), 0);
    assert.deepEqual(d.pageErrors, []);
  });

  it('keeps each row with its entry as newer ones come, and past the first page reads them on Refresh only', async () => {
    const { page } = d;
    const audit = page.getByRole('region', { name: 'Audit log' });
    const rows = audit.locator('table.audit tbody tr');
    await audit.getByRole('search', { name: 'Audit log' }).getByLabel('Search').fill('');
    await audit.locator('.audit-count').getByText('Showing the newest 200 entries; older ones are kept too.').waitFor();
    const row = await rows.filter({ hasText: 'earlier warning 449' }).elementHandle();
    d.fixture.host.audit.record({ type: 'store.warning', detail: { message: 'a newer warning' } });
    await rows.first().filter({ hasText: 'a newer warning' }).waitFor();
    // The row element of an entry stays that entry's (keyed by its index, it would show the newer one now).
    assert.match((await row.textContent()) ?? '', /earlier warning 449/);

    await audit.getByRole('button', { name: 'Show more' }).click();
    await audit.locator('.audit-count').getByText('Showing the newest 400 entries; older ones are kept too.').waitFor();
    d.fixture.host.audit.record({ type: 'store.warning', detail: { message: 'a warning while paged' } });
    const line = audit.locator('.audit-shown p');
    await line.filter({ hasText: 'Newer entries were recorded since: Refresh shows them.' }).waitFor();
    assert.equal(await rows.filter({ hasText: 'a warning while paged' }).count(), 0);
    assert.equal(await rows.count(), 400);
    await audit.getByRole('button', { name: 'Refresh' }).click();
    await rows.first().filter({ hasText: 'a warning while paged' }).waitFor();
    assert.equal(await line.textContent(), 'Showing the newest 400 entries; older ones are kept too.');
    assert.deepEqual(d.pageErrors, []);
  });
});
