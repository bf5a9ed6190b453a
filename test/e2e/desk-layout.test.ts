import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { edgeGaps } from './renderer-build.js';

/** How much wider a field's placeholder is than the room inside the field (≤ 0: it fits). */
function placeholderOverflow(input: Locator): Promise<number> {
  return input.evaluate((field: HTMLInputElement) => {
    const style = getComputedStyle(field);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = style.font;
    const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return context.measureText(field.placeholder).width - room;
  });
}

describe('a fresh Desk as a newcomer sees it: empty screens say so, fields read as fields', () => {
  let d: DeskFixture;
  let page: Page;

  before(async () => {
    d = await startDesk({}, { viewport: { width: 1280, height: 800 } });
    page = d.page;
  });

  after(async () => {
    await d?.close();
  });

  it('types in normal weight inside bold labels, and shows each filter bar’s search placeholder whole', async () => {
    for (const [screen, name] of [
      ['Tasks', 'Tasks'],
      ['History', 'History'],
      ['Audit log', 'Audit log']
    ] as const) {
      await page.getByRole('link', { name: screen, exact: true }).click();
      const search = page.getByRole('search', { name }).getByLabel('Search');
      await search.waitFor();
      assert.equal(
        await search.evaluate((field) => getComputedStyle(field).fontWeight),
        '400',
        `${screen}: typed text`
      );
      const overflow = await placeholderOverflow(search);
      assert.ok(overflow <= 0, `${screen}: the placeholder runs ${Math.round(overflow)}px past the field`);
    }
  });

  it('says that History, the audit log and Tools are empty, rather than “0 entries” or an empty table', async () => {
    await page.getByRole('link', { name: 'History', exact: true }).click();
    await page.getByText('Nothing yet: a task comes here once a server gives Taskdesk one').waitFor();
    await page.getByRole('search', { name: 'History' }).getByLabel('Search').fill('refund');
    await page.getByText('No entry matches.').waitFor();
    await page.getByRole('search', { name: 'History' }).getByLabel('Search').fill('');

    await page.getByRole('link', { name: 'Audit log', exact: true }).click();
    await page.getByText('Nothing recorded yet.').waitFor();
    assert.equal(await page.getByRole('table', { name: 'Audit log entries' }).isVisible(), false);

    // The Tools screen without a server says where to add one, with the way there.
    await page.getByRole('link', { name: 'Tools', exact: true }).click();
    const tools = page.getByRole('region', { name: 'Tools' });
    await tools.getByText('No server is configured: add one on the Servers screen.').waitFor();
    await tools.getByRole('status').getByRole('link', { name: 'Servers' }).click();
    assert.equal(await page.evaluate(() => location.hash), '#servers');
  });

  it('levels the boxes of fields side by side, one with a hint and one without, and pads a card evenly', async () => {
    await page.getByRole('link', { name: 'LLM providers', exact: true }).click();
    const form = page.getByRole('form', { name: 'Add a provider' });
    for (const width of [1280, 900]) {
      await page.setViewportSize({ width, height: 800 });
      const id = await form.getByRole('textbox', { name: 'Id', exact: true }).boundingBox();
      const name = await form.getByRole('textbox', { name: 'Name', exact: true }).boundingBox();
      assert.ok(id && name && Math.abs(id.y - name.y) <= 1, `at ${width}: Id at ${id?.y}, Name at ${name?.y}`);
    }
    const gaps = await edgeGaps(page.getByRole('region', { name: 'Local servers' }));
    assert.ok(Math.abs(gaps.top - gaps.bottom) <= 1, `the Local servers card's room: ${JSON.stringify(gaps)}`);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('puts the retention heading above its fields, and says “Saved.” once they are kept', async () => {
    await page.getByRole('link', { name: 'History', exact: true }).click();
    const retention = page.getByRole('form', { name: 'Retention' });
    const days = retention.getByLabel('Days');
    await days.and(page.locator('[value="30"]')).waitFor();
    const heading = await retention.getByRole('heading', { name: 'Keep history' }).boundingBox();
    const label = await retention.locator('label').first().boundingBox();
    assert.ok(heading && label && heading.y + heading.height <= label.y, 'the heading is above the first label');
    assert.equal(await days.evaluate((field) => getComputedStyle(field).fontWeight), '400');

    await days.fill('14');
    await retention.getByRole('button', { name: 'Save' }).click();
    await retention.getByText('Saved.').waitFor();
    assert.deepEqual(await d.fixture.host.call('history.getRetention', {}), { days: 14, maxEntries: 20000 });
    await days.fill('15');
    await retention.getByText('Saved.').waitFor({ state: 'detached' });
    assert.deepEqual(d.pageErrors, []);
  });
});
