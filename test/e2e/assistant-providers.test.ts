import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { answered, saveFakeProvider, settled } from '../support/assistant-fixture.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { root } from './renderer-build.js';

/**
 * The Assistant's conversations and the providers they run on: removing a provider says which
 * conversations it leaves without one, and a conversation left so leads to its settings, which
 * offer only providers that list a model.
 */
describe('the Assistant’s conversations when their provider is removed or lists no model', () => {
  let llm: FakeOpenAIServer;
  let d: DeskFixture;
  let page: Page;
  const pane = (): Locator => page.locator('section.chat-pane');
  const settings = (): Locator => pane().getByRole('form', { name: 'Conversation settings' });
  // By position: a select's label reads with its options, so it names no field exactly.
  const providerField = (): Locator => settings().locator('.chat-settings-grid select').nth(0);
  const modelField = (): Locator => settings().locator('.chat-settings-grid select').nth(1);
  const list = (): Locator => page.getByRole('navigation', { name: 'Conversations' });

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    d = await startDesk({}, { host: { keyStore: new InMemoryKeyStore() }, viewport: { width: 1200, height: 800 } });
    page = d.page;
    const host = d.fixture.host;
    await saveFakeProvider(host, llm.baseURL);
    const save = (id: string, name: string, models: string[], baseURL = llm.baseURL) =>
      host.call('providers.save', { id, name, baseURL, models: models.map((model) => ({ name: model })) });
    await save('picker', 'Picker', ['pick-1', 'pick-2']);
    await save('lonely', 'Lonely', ['solo']);
    await save('second', 'Second', ['second-a', 'second-b']);
    // Saved with no model where nothing answers: asked for its models, it lists none.
    await save('bare', 'Bad one', [], 'http://127.0.0.1:9/v1');
    // Saved with no model where the server answers: its models are listed, and it can be chosen.
    await save('auto', 'Auto listed', []);
    for (const title of ['Picked A', 'Picked B'])
      await host.call('assistant.create', { title, providerId: 'picker', model: 'pick-1', serverIds: [] });
    await host.call('assistant.create', { title: 'Alone', providerId: 'lonely', model: 'solo', serverIds: [] });
    // A model named by hand on a provider where nothing answers: its chat cannot reach it.
    await host.call('providers.save', {
      id: 'down',
      name: 'Down',
      baseURL: 'http://127.0.0.1:9/v1',
      models: [{ name: 'down-1' }]
    });
    await host.call('assistant.create', { title: 'Unreachable', providerId: 'down', model: 'down-1', serverIds: [] });
  });

  after(async () => {
    await d?.close();
    await llm?.close();
  });

  it('says in the Remove confirmation how many conversations use the provider, and that they will need another', async () => {
    await page.getByRole('link', { name: 'LLM providers' }).click();
    const dialog = page.getByRole('dialog');
    const body = async (name: string): Promise<string> => {
      await page.getByRole('button', { name: `Remove ${name}` }).click();
      // This provider's dialog, not the last one's still closing: its title names it.
      await dialog.filter({ hasText: `Remove ${name}?` }).waitFor();
      const text = (await dialog.locator('.dialog-body').textContent()) ?? '';
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      return text;
    };
    assert.match(await body('Picker'), /2 conversations use it: they will need another provider\./);
    assert.match(await body('Lonely'), /1 conversation uses it: it will need another provider\./);
    assert.doesNotMatch(await body('Second'), /conversation/);

    await page.getByRole('button', { name: 'Remove Picker' }).click();
    await page.screenshot({ path: path.join(root, '.tmp/assistant-providers-remove.png') });
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('heading', { name: 'Picker', exact: true }).waitFor({ state: 'detached' });
    assert.deepEqual(d.pageErrors, []);
  });

  it('leads a chat whose provider is gone to its settings with Choose a provider, not a Retry that cannot work; Retry comes back once one is chosen', async () => {
    await page.getByRole('link', { name: 'Assistant', exact: true }).click();
    await list().getByText('Picked A', { exact: true }).click();
    await pane().getByRole('heading', { name: 'Picked A' }).waitFor();
    // Where the chat's provider and model are shown, it says the provider is gone (not its raw id).
    const header = pane().locator('.chat-header p');
    await header.getByText('Provider removed: choose another in the settings · no tools', { exact: true }).waitFor();
    assert.doesNotMatch((await header.textContent()) ?? '', /picker|pick-1/);
    const item = (title: string): Locator => list().getByRole('option').filter({ hasText: title });
    assert.match((await item('Picked A').locator('.chat-list-meta').textContent()) ?? '', /^Provider removed · /);
    assert.match((await item('Alone').locator('.chat-list-meta').textContent()) ?? '', /^solo · /);
    // Changed today: its time alone, in few words (the whole date was cut off), the whole date in its tooltip.
    const when = item('Alone').locator('.chat-list-meta time');
    assert.doesNotMatch((await when.textContent()) ?? '', /\d{4}/);
    assert.match((await when.getAttribute('title')) ?? '', /\d{4}.* ago\)$|\d{4}.*\(now\)$/);
    assert.ok(
      await item('Alone')
        .locator('.chat-list-meta')
        .evaluate((meta) => meta.scrollWidth <= meta.clientWidth),
      'the line is not cut'
    );
    await pane().getByLabel('Your message').fill('Hello');
    await pane().getByLabel('Your message').press('Enter');
    const error = pane().locator('.chat-error');
    await error.getByText('The provider of this conversation was removed: choose another one.').waitFor();
    assert.equal(await error.getByRole('button', { name: 'Retry' }).count(), 0, 'no Retry while it cannot work');
    await page.screenshot({ path: path.join(root, '.tmp/assistant-providers-error.png') });

    await error.getByRole('button', { name: 'Choose a provider' }).click();
    await settings().waitFor();
    await page.waitForFunction(() => document.activeElement?.matches('.chat-settings-grid select') === true);
    assert.ok(await providerField().evaluate((element) => element === document.activeElement), 'on the provider');
    assert.equal(await pane().getByRole('button', { name: 'Close settings' }).getAttribute('aria-expanded'), 'true');
    assert.equal(await providerField().locator('option:checked').textContent(), 'Provider removed: choose another');

    await providerField().selectOption({ label: 'Fake LLM' });
    assert.equal(await modelField().inputValue(), 'fake-small');
    await settings().getByRole('button', { name: 'Save settings' }).click();
    await settings().waitFor({ state: 'detached' });
    await pane().locator('.chat-header').getByText('Fake LLM · fake-small · no tools', { exact: true }).waitFor();

    await error.getByRole('button', { name: 'Retry' }).click();
    await pane().locator('[data-role="assistant"]').getByText('Hello from the fake model.').waitFor();
    await settled(d.fixture.host, (await pane().getAttribute('data-conversation-id'))!, answered);
    assert.deepEqual(d.pageErrors, []);
  });

  it('offers a provider that lists no model disabled, saying so, and picks the chosen provider’s first model', async () => {
    await list().getByText('Alone', { exact: true }).click();
    await pane().getByRole('heading', { name: 'Alone' }).waitFor();
    await pane().getByRole('button', { name: 'Settings' }).click();
    const bare = providerField().locator('option', { hasText: 'Bad one' });
    assert.equal(await bare.textContent(), 'Bad one (no models: add one under LLM providers)');
    assert.equal(await bare.isDisabled(), true);
    assert.equal(await providerField().locator('option:not([disabled])', { hasText: 'Second' }).count(), 1);
    const auto = providerField().locator('option', { hasText: 'Auto listed' });
    assert.equal(await auto.textContent(), 'Auto listed', 'listed at its save: offered as any other');
    assert.equal(await auto.isDisabled(), false);
    await providerField().selectOption({ label: 'Auto listed' });
    assert.deepEqual(await modelField().locator('option').allTextContents(), ['fake-small']);

    await providerField().selectOption({ label: 'Second' });
    assert.equal(await modelField().inputValue(), 'second-a');
    assert.deepEqual(await modelField().locator('option').allTextContents(), ['second-a', 'second-b']);
    await page.screenshot({ path: path.join(root, '.tmp/assistant-providers-settings.png') });
    await settings().getByRole('button', { name: 'Save settings' }).click();
    await pane().locator('.chat-header').getByText('Second · second-a · no tools', { exact: true }).waitFor();
    await settings().waitFor({ state: 'detached' });
    assert.deepEqual(d.pageErrors, []);
  });

  it('offers the way to LLM providers beside Retry when the provider cannot be reached', async () => {
    await page.getByRole('link', { name: 'Assistant', exact: true }).click();
    await list().getByText('Unreachable', { exact: true }).click();
    await pane().getByRole('heading', { name: 'Unreachable' }).waitFor();
    await pane().getByLabel('Your message').fill('Hello');
    await pane().getByLabel('Your message').press('Enter');
    const error = pane().locator('.chat-error[data-error-kind="unreachable"]');
    await error.getByText('The provider cannot be reached').waitFor();
    await error.getByRole('button', { name: 'Retry' }).waitFor();
    await error.getByRole('link', { name: 'Open LLM providers' }).click();
    await page.getByRole('heading', { name: 'LLM providers', level: 2 }).waitFor();
    // To the card of the provider that failed, its heading focused and in sight; it says Failing.
    const card = page.locator('#screen-providers li[data-provider-id="down"]');
    await page.waitForFunction(
      () => document.activeElement?.closest('li.provider')?.querySelector('h3') === document.activeElement
    );
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Down');
    const box = await card.locator('h3').boundingBox();
    assert.ok(box && box.y >= 0 && box.y < (page.viewportSize()?.height ?? 0), `its heading in sight (${box?.y})`);
    await card.locator('[data-health="failing"]').waitFor();
    await page.getByRole('link', { name: 'Assistant', exact: true }).click();
    await pane().getByRole('heading', { name: 'Unreachable' }).waitFor();
    assert.deepEqual(d.pageErrors, []);
  });

  it('says where to add one when no provider is left, with a link there', async () => {
    for (const providerId of ['fake', 'second', 'lonely', 'auto', 'down'])
      await d.fixture.host.call('providers.remove', { providerId });
    const header = pane().locator('.chat-header p');
    await header.getByText('Provider removed: add one under LLM providers · no tools', { exact: true }).waitFor();
    // New chat can do nothing now, yet the keyboard reaches it and hears why (its description, also shown).
    const newChat = page.getByRole('button', { name: '+ New chat' });
    await page.waitForFunction(() => document.querySelector('.chat-new')?.getAttribute('aria-disabled') === 'true');
    const hint = page.locator('#chat-new-hint');
    // Left: a provider that lists no model, which can start no chat; said so, not tried and failed.
    assert.equal(
      await hint.innerText(),
      'None of your providers lists a model: add a model to one, then start a chat.'
    );
    await d.fixture.host.call('providers.remove', { providerId: 'bare' });
    await hint.getByText('Add an LLM provider, then start a chat.', { exact: true }).waitFor();
    assert.ok(await hint.isVisible(), 'the reason is shown, not only a tooltip');
    assert.equal(await newChat.getAttribute('aria-describedby'), 'chat-new-hint');
    await page.getByRole('navigation', { name: 'Conversations' }).getByLabel('Search conversations by title').focus();
    // Back past the hint's link: the keyboard reaches New chat.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    assert.ok(await newChat.evaluate((element) => element === document.activeElement), 'Tab reaches New chat');
    const ids = async () => (await d.fixture.host.call('assistant.list', {})).map((c) => c.id).sort();
    const before = await ids();
    await page.keyboard.press('Enter');
    await newChat.click({ force: true });
    assert.ok(await newChat.evaluate((element) => element === document.activeElement), 'the focus stays on it');
    assert.equal(
      await page.locator('.chat-list .action-error:not([hidden])').count(),
      0,
      'no failure: it does nothing'
    );
    assert.deepEqual(await ids(), before, 'no chat was started');
    await header.getByRole('link', { name: 'LLM providers' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'LLM providers', level: 2 }).waitFor();
    await page.getByRole('link', { name: 'Assistant', exact: true }).click();
    await pane().getByRole('heading', { name: 'Unreachable' }).waitFor();
    assert.deepEqual(d.pageErrors, []);
  });
});
