import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page, Route } from 'playwright-core';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { saveFakeProvider } from '../support/assistant-fixture.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { peerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

/** Where the settings' parts sit, measured in the page. */
interface SettingsLayout {
  /** The bottom edges of the title, provider, model and tool-round boxes, each row's once. */
  fieldBottoms: number[];
  promptWidth: number;
  gridWidth: number;
  /** Per server row: how far the centre of its policy choice is from the centre of its checkbox. */
  policyOffsets: number[];
  /** How much of the form is out of sight below its own scroll box. */
  hiddenBelow: number;
}

// No function declared inside the page function: tsx would name it with a helper the page lacks.
function measure(settings: Locator): Promise<SettingsLayout> {
  return settings.evaluate((form) => {
    const boxes = Array.from(form.querySelectorAll('.chat-settings-grid input, .chat-settings-grid select'));
    return {
      fieldBottoms: [...new Set(boxes.map((box) => Math.round(box.getBoundingClientRect().bottom)))],
      promptWidth: Math.round(form.querySelector('textarea')!.getBoundingClientRect().width),
      gridWidth: Math.round(form.querySelector('.chat-settings-grid')!.getBoundingClientRect().width),
      policyOffsets: Array.from(form.querySelectorAll('.chat-server-row')).map((row) => {
        const select = row.querySelector('select')?.getBoundingClientRect();
        const checkbox = row.querySelector('input[type="checkbox"]')!.getBoundingClientRect();
        return select ? Math.abs(select.top + select.height / 2 - (checkbox.top + checkbox.height / 2)) : Infinity;
      }),
      hiddenBelow: form.scrollHeight - form.clientHeight
    };
  });
}

describe('the Assistant’s conversation settings, laid out at 1280×800 and at 900×800', () => {
  let llm: FakeOpenAIServer;
  let d: DeskFixture;
  let page: Page;

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    d = await startDesk(
      { work: peerServer('work'), desk: peerServer('desk') },
      { host: { keyStore: new InMemoryKeyStore() }, viewport: { width: 1280, height: 800 } }
    );
    page = d.page;
    await saveFakeProvider(d.fixture.host, llm.baseURL);
  });

  after(async () => {
    await d?.close();
    await llm?.close();
  });

  it('lines the fields up, gives the system prompt the full width, puts each server’s tool-call choice beside it, and shows it all down to Save', async () => {
    await page.getByRole('link', { name: 'Assistant', exact: true }).click();
    await page.getByRole('button', { name: '+ New chat' }).click();
    const pane = page.getByRole('region', { name: 'Conversation New chat' });
    await pane.getByRole('button', { name: 'Settings' }).click();
    const settings = pane.getByRole('form', { name: 'Conversation settings' });
    for (const server of ['Server work', 'Server desk']) await settings.getByLabel(server, { exact: true }).check();
    for (const server of ['Server work', 'Server desk'])
      await settings.getByLabel(`Tool calls to ${server}`).and(page.locator(':enabled')).waitFor();

    for (const [width, rows] of [
      [1280, 1],
      [900, 2]
    ] as const) {
      await page.setViewportSize({ width, height: 800 });
      const layout = await measure(settings);
      assert.equal(layout.fieldBottoms.length, rows, `at ${width}: the four fields in ${rows} even row(s)`);
      assert.ok(Math.abs(layout.promptWidth - layout.gridWidth) <= 1, `at ${width}: the prompt as wide as the fields`);
      assert.equal(layout.policyOffsets.length, 2);
      for (const offset of layout.policyOffsets)
        assert.ok(offset <= 4, `at ${width}: a server's tool-call choice on its line (${offset})`);
      assert.ok(layout.hiddenBelow <= 0, `at ${width}: ${layout.hiddenBelow}px of the settings out of sight`);
      assert.ok(await settings.getByRole('button', { name: 'Save settings' }).isVisible());
      const composer = pane.getByLabel('Your message');
      const overflow = await composer.evaluate((field: HTMLTextAreaElement) => {
        const style = getComputedStyle(field);
        const context = document.createElement('canvas').getContext('2d')!;
        context.font = style.font;
        const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return context.measureText(field.placeholder).width - room;
      });
      assert.ok(overflow <= 0, `at ${width}: the message box's placeholder runs ${Math.round(overflow)}px past it`);
    }
    // A short window: the settings scroll inside, and the message box and Send stay in the pane.
    await page.setViewportSize({ width: 800, height: 600 });
    const inPane = await pane.evaluate((section) => {
      const box = section.getBoundingClientRect();
      return ['textarea', '.chat-composer button[type="submit"]'].map((selector) => {
        const part = section.querySelector(selector)!.getBoundingClientRect();
        return part.top >= box.top && part.bottom <= box.bottom + 0.5;
      });
    });
    assert.deepEqual(inPane, [true, true], 'at 800×600: the message box and Send within the pane');
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual(d.pageErrors, []);
  });

  it('says “Saved.” after Save until the next change, and names the chosen servers in the header', async () => {
    const pane = page.getByRole('region', { name: 'Conversation New chat' });
    const settings = pane.getByRole('form', { name: 'Conversation settings' });
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Saved.', { exact: true }).waitFor();
    await pane.getByText('Fake LLM · fake-small · tools of Server work, Server desk').waitFor();
    await settings.getByLabel('Title').fill('Renamed');
    await settings.getByText('Saved.', { exact: true }).waitFor({ state: 'detached' });
    assert.deepEqual(d.pageErrors, []);
  });

  it('asks before closing settings that hold changes not saved: Cancel keeps them, Discard drops them', async () => {
    const pane = page.getByRole('region', { name: 'Conversation New chat' });
    const settings = pane.getByRole('form', { name: 'Conversation settings' });
    const dialog = page.getByRole('dialog', { name: 'Discard your changes?' });
    // Left by the test before: a title typed and not saved.
    assert.equal(await settings.getByLabel('Title').inputValue(), 'Renamed');
    await pane.getByRole('button', { name: 'Close settings' }).click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await settings.getByLabel('Title').inputValue(), 'Renamed', 'Cancel keeps the changes');

    await settings.getByLabel('Title').press('Escape');
    await dialog.getByRole('button', { name: 'Discard changes' }).click();
    await settings.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.textContent === 'Settings');
    await pane.getByRole('button', { name: 'Settings' }).click();
    assert.equal(await settings.getByLabel('Title').inputValue(), 'New chat', 'the change was dropped');
    // Nothing changed: closed without a question.
    await pane.getByRole('button', { name: 'Close settings' }).click();
    await settings.waitFor({ state: 'detached' });
    assert.equal(await dialog.count(), 0);
    assert.deepEqual(d.pageErrors, []);
  });

  it('keeps the focus where the person works: on the message box of a new chat and after Send, on New chat after a delete', async () => {
    const focused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);
    await page.getByRole('button', { name: '+ New chat' }).click();
    // Not by its name: the first message names the conversation.
    const pane = page.locator('section.chat-pane');
    await pane.getByRole('heading', { name: 'New chat' }).waitFor();
    const message = pane.getByLabel('Your message');
    await message.waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Your message');

    await message.fill('Hello');
    await pane.getByRole('button', { name: 'Send' }).click();
    await pane.locator('[data-role="assistant"]').getByText('Hello from the fake model.').waitFor();
    assert.ok(await focused(message), 'the message box has the focus after Send');
    await pane.getByRole('heading', { name: 'Hello', exact: true }).waitFor();
    await page.getByRole('navigation', { name: 'Conversations' }).getByText('Hello', { exact: true }).waitFor();

    await pane.getByRole('button', { name: 'Settings' }).click();
    const settings = pane.getByRole('form', { name: 'Conversation settings' });
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Saved.', { exact: true }).waitFor();
    assert.ok(await focused(settings.getByRole('button', { name: 'Save settings' })), 'Save keeps the focus');
    await settings.getByRole('button', { name: 'Delete conversation' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete conversation' }).click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.activeElement?.classList.contains('chat-new') === true);
    assert.deepEqual(d.pageErrors, []);
  });

  it('says so with Retry, and no Dismiss, when a conversation could not be opened', async () => {
    const { id } = await d.fixture.host.call('assistant.create', {
      title: 'Opened later',
      providerId: 'fake',
      model: 'fake-small',
      serverIds: []
    });
    // Every read of this conversation is refused until the route goes (a page may read it more than once).
    const refuse = async (route: Route) => {
      const call = route.request().postDataJSON() as { method?: string; params?: { conversationId?: string } };
      if (call.method !== 'assistant.get' || call.params?.conversationId !== id) return route.fallback();
      await route.fulfill({
        status: 200,
        json: { ok: false, error: { code: -32603, message: 'The conversation store is busy.' } }
      });
    };
    await page.route('**/api/call', refuse);
    await page.reload();
    await page.locator('#app[data-ready="true"]').waitFor();
    await page.getByRole('link', { name: 'Assistant', exact: true }).click();
    await page.getByRole('navigation', { name: 'Conversations' }).getByText('Opened later', { exact: true }).click();
    const box = page.locator('.chat-pane .action-error:not([hidden])');
    await box.waitFor();
    assert.equal(
      await box.locator('.action-error-what').textContent(),
      'Could not open this conversation. The conversation store is busy.'
    );
    // Nothing of it is shown: dismissed, the pane would read as still loading.
    assert.equal(await box.getByRole('button', { name: 'Dismiss this message' }).count(), 0);
    await page.unroute('**/api/call', refuse);
    await box.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('region', { name: 'Conversation Opened later' }).waitFor();
    assert.deepEqual(d.pageErrors, []);
  });
});
