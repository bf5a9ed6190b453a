import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { root } from './renderer-build.js';

/**
 * The person's order of LLM providers, whose first is the default (what a model request runs on
 * when the server's preferences choose none, and a first chat): Move up and Move down on each
 * card, by keyboard, the focus staying on the card moved.
 */
describe('the order of LLM providers, in headless Chromium against the real core', () => {
  let d: DeskFixture;
  let page: Page;
  const cards = (): Locator => page.getByRole('list', { name: 'LLM providers' }).locator('li.provider');
  const names = async () => cards().locator('h3').allTextContents();
  const focused = (name: string) =>
    page.getByRole('button', { name, exact: true }).evaluate((button) => button === document.activeElement);

  before(async () => {
    d = await startDesk({}, { host: { keyStore: new InMemoryKeyStore() } });
    page = d.page;
    for (const [id, name] of [
      ['first', 'First'],
      ['second', 'Second'],
      ['third', 'Third']
    ] as const)
      await d.fixture.host.call('providers.save', {
        id,
        name,
        baseURL: `http://127.0.0.1:9/${id}`,
        models: [{ name: `${id}-model` }]
      });
  });

  after(async () => {
    await d?.close();
  });

  it('moves a provider up and down by keyboard, keeps the focus on it, and marks the first as the default', async () => {
    await page.getByRole('link', { name: 'LLM providers' }).click();
    await page.waitForFunction(() => document.querySelectorAll('li.provider').length === 3);
    assert.deepEqual(await names(), ['First', 'Second', 'Third']);
    assert.equal(await cards().nth(0).locator('.status-default').textContent(), 'Default');
    assert.equal(await page.locator('.status-default').count(), 1);
    // At the ends, only the way that is open.
    assert.equal(await page.getByRole('button', { name: 'Move First up' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Move Third down' }).count(), 0);

    await page.getByRole('button', { name: 'Move Third up' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelectorAll('li.provider')[1]?.getAttribute('data-provider-id') === 'third'
    );
    assert.deepEqual(await names(), ['First', 'Third', 'Second']);
    assert.equal(await focused('Move Third up'), true);

    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelectorAll('li.provider')[0]?.getAttribute('data-provider-id') === 'third'
    );
    assert.deepEqual(await names(), ['Third', 'First', 'Second']);
    // At the top, Move up is gone: the focus is on Move down, on the same card.
    await page.getByRole('button', { name: 'Move Third down' }).and(page.locator(':focus')).waitFor();
    assert.equal(await cards().nth(0).locator('.status-default').textContent(), 'Default');
    assert.equal(await page.locator('.status-default').count(), 1);
    await page.screenshot({ path: path.join(root, '.tmp/providers-order.png') });

    // The core keeps the order: what a model request runs on when nothing else chooses.
    const listed = await d.fixture.host.call('providers.list', {});
    assert.deepEqual(
      listed.map((provider) => provider.id),
      ['third', 'first', 'second']
    );
    const audit = await d.fixture.host.call('audit.read', { type: 'provider.moved' });
    assert.equal(audit.length, 2);
    assert.deepEqual(audit.map((entry) => entry.detail?.position).sort(), [1, 2]);

    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelectorAll('li.provider')[1]?.getAttribute('data-provider-id') === 'third'
    );
    assert.equal(await focused('Move Third down'), true);
    assert.deepEqual(d.pageErrors, []);
  });

  it('refuses to move a provider that is not there, and puts one asked past the end last', async () => {
    await assert.rejects(
      d.fixture.host.call('providers.move', { providerId: 'nobody', position: 0 }),
      /Unknown provider nobody/
    );
    await d.fixture.host.call('providers.move', { providerId: 'first', position: 99 });
    const listed = await d.fixture.host.call('providers.list', {});
    assert.equal(listed.at(-1)!.id, 'first');
  });
});
