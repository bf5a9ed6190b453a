import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import {
  saveUnreachableProvider,
  answered,
  echoServer,
  saveFakeProvider,
  settled
} from '../support/assistant-fixture.js';
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

/**
 * Retry on a failure's card by keyboard: the card goes as the conversation goes on, and the focus
 * with it. It lands in the conversation, not on the page: on the Approve of the call the model
 * makes now, else in the message box.
 */
describe('the Assistant’s Retry by keyboard, and where the focus goes after it', () => {
  let llm: FakeOpenAIServer;
  let d: DeskFixture;
  let page: Page;
  let conversationId: string;
  const pane = (): Locator => page.locator('section.chat-pane');
  const settings = (): Locator => pane().getByRole('form', { name: 'Conversation settings' });
  // By position: a select's label reads with its options, so it names no field exactly.
  const providerField = (): Locator => settings().locator('.chat-settings-grid select').nth(0);
  const error = (): Locator => pane().locator('.chat-error[data-error-kind="unreachable"]');
  /** What has the focus: its accessible name or its text, or "body" when the focus fell to the page. */
  const focused = () =>
    page.evaluate(() => {
      const now = document.activeElement;
      if (now === null || now === document.body) return 'body';
      return now.getAttribute('aria-label') ?? now.textContent ?? now.tagName;
    });
  /** Sends `text` on the provider nothing answers on, then puts the chat on the fake one by keyboard. */
  const failThenSwitch = async (text: string): Promise<void> => {
    await d.fixture.host.call('assistant.update', { conversationId, providerId: 'down', model: 'down-1' });
    await pane()
      .locator('.chat-header')
      .getByText(/^Down · down-1 · /)
      .waitFor();
    await pane().getByLabel('Your message').fill(text);
    await pane().getByLabel('Your message').press('Enter');
    await error().getByText('The provider cannot be reached').waitFor();
    await error().getByRole('button', { name: 'Retry' }).waitFor();

    await pane().getByRole('button', { name: 'Settings', exact: true }).focus();
    await page.keyboard.press('Enter');
    await settings().getByLabel('Title').waitFor();
    await page.keyboard.press('Tab');
    assert.ok(await providerField().evaluate((field) => field === document.activeElement), 'Tab to the provider');
    await providerField().selectOption({ label: 'Fake LLM' });
    for (let i = 0; i < 30 && (await focused()) !== 'Save settings'; i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await settings().waitFor({ state: 'detached' });
    await pane()
      .locator('.chat-header')
      .getByText(/^Fake LLM · fake-small · /)
      .waitFor();
    // On to Retry by Tab from Settings, as the person went.
    for (let i = 0; i < 20 && (await focused()) !== 'Retry'; i++) await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Retry', 'Tab reaches Retry');
  };

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    d = await startDesk(
      { work: echoServer('work') },
      { host: { keyStore: new InMemoryKeyStore() }, viewport: { width: 1280, height: 800 } }
    );
    page = d.page;
    const host = d.fixture.host;
    await saveFakeProvider(host, llm.baseURL);
    // A provider where nothing answers: its chat fails with "The provider cannot be reached".
    await host.call('providers.save', {
      id: 'down',
      name: 'Down',
      baseURL: 'http://127.0.0.1:9/v1',
      models: [{ name: 'down-1' }]
    });
    ({ id: conversationId } = await host.call('assistant.create', {
      title: 'Unreachable',
      providerId: 'down',
      model: 'down-1',
      serverIds: ['work']
    }));
    await page.getByRole('link', { name: 'Assistant', exact: true }).click();
    await pane().getByRole('heading', { name: 'Unreachable' }).waitFor();
  });

  after(async () => {
    await d?.close();
    await llm?.close();
  });

  it('puts the focus on Approve of the call the model makes once Retry by keyboard went on', async () => {
    await failThenSwitch('Please echo hello');
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'r1', name: 'work__echo', arguments: '{"message":"hello"}' }] },
      { kind: 'text', tokens: ['Echoed.'] }
    );
    await page.keyboard.press('Enter');
    const approval = pane().getByRole('group', { name: 'Approve echo?' });
    await approval.waitFor();
    await page.screenshot({ path: path.join(root, '.tmp/assistant-retry-approval.png') });
    assert.equal(await error().count(), 0, 'the failure is gone');
    assert.ok(
      await approval
        .getByRole('button', { name: 'Approve', exact: true })
        .evaluate((button) => button === document.activeElement),
      `the focus on Approve, not on ${await focused()}`
    );
    await page.keyboard.press('Enter');
    await pane().locator('[data-role="assistant"]').getByText('Echoed.').waitFor();
    await settled(d.fixture.host, conversationId, answered);
    assert.deepEqual(d.pageErrors, []);
  });

  it('puts the focus in the message box once Retry by keyboard went on and no call waits', async () => {
    await failThenSwitch('Just say hello');
    llm.enqueue({ kind: 'text', tokens: ['Hello again.'] });
    await page.keyboard.press('Enter');
    await error().waitFor({ state: 'detached' });
    assert.equal(await focused(), 'Your message', 'the focus in the message box as the failure goes');
    await pane().locator('[data-role="assistant"]').getByText('Hello again.').waitFor();
    await settled(d.fixture.host, conversationId, answered);
    assert.equal(await focused(), 'Your message', 'and still there once answered');
    assert.deepEqual(d.pageErrors, []);
  });
});
