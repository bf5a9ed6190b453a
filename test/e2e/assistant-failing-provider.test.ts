import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { saveUnreachableProvider } from '../support/assistant-fixture.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { root } from './renderer-build.js';

/**
 * A chat on a provider whose last call failed says so before the first message, with the way to
 * its card; and New chat passes over such a provider for the first one in the person's order that
 * is not failing, as an approval card's draft does.
 */
describe('the Assistant and a provider whose last call failed, in headless Chromium against the real core', () => {
  let llm: FakeOpenAIServer;
  let d: DeskFixture;
  let page: Page;
  const list = (): Locator => page.getByRole('navigation', { name: 'Conversations' });

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    d = await startDesk({}, { host: { keyStore: new InMemoryKeyStore() }, viewport: { width: 1200, height: 800 } });
    page = d.page;
    const host = d.fixture.host;
    // First in the person's order, and failing: its connection test could not connect.
    await saveUnreachableProvider(host);
    await host.call('providers.save', {
      id: 'working',
      name: 'Working',
      baseURL: llm.baseURL,
      models: [{ name: 'fake-small' }],
      defaultModel: 'fake-small'
    });
    assert.equal((await host.call('providers.test', { providerId: 'broken' })).ok, false);
    await host.call('assistant.create', {
      title: 'On the broken one',
      providerId: 'broken',
      model: 'gpt-test',
      serverIds: []
    });
  });

  after(async () => {
    await d?.close();
    await llm?.close();
  });

  it('warns in an empty chat on a failing provider, with a link to its card', async () => {
    await page.getByRole('link', { name: 'Assistant', exact: true }).click();
    await list()
      .getByRole('option', { name: /On the broken one/ })
      .click();
    const pane = page.getByRole('region', { name: 'Conversation On the broken one' });
    const warning = pane.locator('.chat-empty .provider-failing');
    await warning.waitFor();
    assert.match(
      (await warning.textContent()) ?? '',
      /^Broken local’s last call failed \(failing since .+\): .+ Open Broken local in LLM providers\.$/
    );
    await page.screenshot({ path: path.join(root, '.tmp/assistant-failing-provider.png') });
    await warning.getByRole('link', { name: 'Open Broken local in LLM providers' }).click();
    await page.waitForURL(/#providers\/broken$/);
    await page.goBack();
    await pane.waitFor();
    assert.deepEqual(d.pageErrors, []);
  });

  it('starts New chat on the first provider that is not failing, not on the failing one of the chat before', async () => {
    await page.getByRole('button', { name: '+ New chat' }).click();
    const pane = page.getByRole('region', { name: 'Conversation New chat' });
    await pane.waitFor();
    const summaries = await d.fixture.host.call('assistant.list', {});
    const created = summaries.find((s) => s.title === 'New chat');
    assert.ok(created, 'the new chat was made');
    assert.deepEqual([created.providerId, created.model], ['working', 'fake-small']);
    assert.equal(await pane.locator('.provider-failing').count(), 0, 'its provider does not fail');
    assert.deepEqual(d.pageErrors, []);
  });
});
