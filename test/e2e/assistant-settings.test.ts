import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Locator, Page, Route } from 'playwright-core';
import { z } from 'zod';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { echoServer, saveFakeProvider } from '../support/assistant-fixture.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { accessibleDescription, root } from './renderer-build.js';

/** Where the settings' parts sit, measured in the page. */
interface SettingsLayout {
  /** The bottom edges of the title, provider, model and tool-round boxes, each row's once. */
  fieldBottoms: number[];
  promptWidth: number;
  gridWidth: number;
  titleWidth: number;
  providerWidth: number;
  roundsWidth: number;
  columnGap: number;
  /** Per server row: how far the centre of its policy choice is from the centre of its checkbox. */
  policyOffsets: number[];
  /** How much of the fields is out of sight below their own scroll box. */
  hiddenBelow: number;
  /** Whether Save settings shows within the form's box. */
  saveInSight: boolean;
}

// No function declared inside the page function: tsx would name it with a helper the page lacks.
function measure(settings: Locator): Promise<SettingsLayout> {
  return settings.evaluate((form) => {
    const boxes = Array.from(form.querySelectorAll('.chat-settings-grid input, .chat-settings-grid select'));
    const formBox = form.getBoundingClientRect();
    const save = form.querySelector('button[type="submit"]')!.getBoundingClientRect();
    const fields = form.querySelector('.chat-settings-fields')!;
    return {
      fieldBottoms: [...new Set(boxes.map((box) => Math.round(box.getBoundingClientRect().bottom)))],
      promptWidth: Math.round(form.querySelector('textarea')!.getBoundingClientRect().width),
      gridWidth: Math.round(form.querySelector('.chat-settings-grid')!.getBoundingClientRect().width),
      titleWidth: Math.round(boxes[0]!.getBoundingClientRect().width),
      providerWidth: Math.round(boxes[1]!.getBoundingClientRect().width),
      roundsWidth: Math.round(boxes[3]!.getBoundingClientRect().width),
      columnGap: parseFloat(getComputedStyle(form.querySelector('.chat-settings-grid')!).columnGap),
      policyOffsets: Array.from(form.querySelectorAll('.chat-server-row')).map((row) => {
        const select = row.querySelector('select')?.getBoundingClientRect();
        const checkbox = row.querySelector('input[type="checkbox"]')!.getBoundingClientRect();
        return select ? Math.abs(select.top + select.height / 2 - (checkbox.top + checkbox.height / 2)) : Infinity;
      }),
      hiddenBelow: fields.scrollHeight - fields.clientHeight,
      saveInSight: save.top >= formBox.top && save.bottom <= formBox.bottom + 0.5
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

  it('lines the fields up, gives the system prompt the row’s width but for the tool rounds, puts each server’s tool-call choice beside it, and keeps Save in sight', async () => {
    await page.getByRole('link', { name: 'Assistant', exact: true }).click();
    await page.getByRole('button', { name: '+ New chat' }).click();
    const pane = page.getByRole('region', { name: 'Conversation New chat' });
    await pane.getByRole('button', { name: 'Settings' }).click();
    const settings = pane.getByRole('form', { name: 'Conversation settings' });
    // Opened, the settings give the focus to their first field, the title.
    await settings.getByLabel('Title').and(page.locator(':focus')).waitFor({ timeout: 5_000 });
    for (const server of ['Server work', 'Server desk']) await settings.getByLabel(server, { exact: true }).check();
    for (const server of ['Server work', 'Server desk'])
      await settings.getByLabel(`Tool calls to ${server}`).and(page.locator(':enabled')).waitFor();
    // In the words of a server's sampling policy on the Servers screen.
    assert.deepEqual(await settings.getByLabel('Tool calls to Server work').locator('option').allTextContents(), [
      'Ask me first',
      'Refuse',
      'Run without asking'
    ]);

    // The title, the provider and the model in one even row, the prompt and the tool rounds under
    // them; narrower, the title on a row of its own, then two a row.
    for (const [width, rows] of [
      [1280, 2],
      [900, 3]
    ] as const) {
      await page.setViewportSize({ width, height: 800 });
      const layout = await measure(settings);
      assert.equal(layout.fieldBottoms.length, rows, `at ${width}: the four fields in ${rows} rows`);
      // The title, a sentence where the others hold a word or a number, is the widest in its row
      // (on a row of its own, the row's width).
      assert.ok(
        layout.titleWidth >= (rows === 2 ? 1.5 : 2) * layout.providerWidth,
        `at ${width}: the title ${layout.titleWidth}px, the provider ${layout.providerWidth}px`
      );
      assert.ok(
        Math.abs(layout.promptWidth + layout.columnGap + layout.roundsWidth - layout.gridWidth) <= 1.5,
        `at ${width}: the prompt as wide as the fields, but for the tool rounds beside it`
      );
      assert.equal(layout.policyOffsets.length, 2);
      for (const offset of layout.policyOffsets)
        assert.ok(offset <= 4, `at ${width}: a server's tool-call choice on its line (${offset})`);
      // At 900 the messages keep their few lines: the settings scroll inside, Save in sight at their foot.
      if (width === 1280)
        assert.ok(layout.hiddenBelow <= 0, `at ${width}: ${layout.hiddenBelow}px of the settings out of sight`);
      assert.ok(layout.saveInSight, `at ${width}: Save settings in sight`);
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

  it('closes the settings on Save, the focus back on their button, and names the chosen servers in the header', async () => {
    const pane = page.getByRole('region', { name: 'Conversation New chat' });
    const settings = pane.getByRole('form', { name: 'Conversation settings' });
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.waitFor({ state: 'detached' });
    await page.waitForFunction(() => document.activeElement?.textContent === 'Settings');
    await pane.getByText('Fake LLM · fake-small · tools of Server work, Server desk').waitFor();
    // Left for the next test: a title typed and not saved.
    await pane.getByRole('button', { name: 'Settings' }).click();
    await settings.getByLabel('Title').fill('Renamed');
    assert.deepEqual(d.pageErrors, []);
  });

  it('asks before closing settings that hold changes not saved: Keep editing keeps them, Discard drops them', async () => {
    const pane = page.getByRole('region', { name: 'Conversation New chat' });
    const settings = pane.getByRole('form', { name: 'Conversation settings' });
    const dialog = page.getByRole('dialog', { name: 'Discard your changes?' });
    // Left by the test before: a title typed and not saved.
    assert.equal(await settings.getByLabel('Title').inputValue(), 'Renamed');
    await pane.getByRole('button', { name: 'Close settings' }).click();
    assert.equal(
      await dialog.getByRole('button', { name: 'Cancel' }).count(),
      0,
      'no Cancel that would read as discard'
    );
    await dialog.getByRole('button', { name: 'Keep editing', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(await settings.getByLabel('Title').inputValue(), 'Renamed', 'Keep editing keeps the changes');

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

  it('closes the settings with Escape from anywhere in them, their button included, and gives the focus back to that button', async () => {
    const pane = page.getByRole('region', { name: 'Conversation New chat' });
    const settings = pane.getByRole('form', { name: 'Conversation settings' });
    const places: Array<[string, (() => Promise<void>) | undefined]> = [
      ['Title', undefined],
      // A Shift+Tab from the title: the button, which now says "Close settings".
      ['their button', () => pane.getByRole('button', { name: 'Close settings' }).focus()],
      ['Provider', () => settings.getByLabel('Provider').focus()],
      ['a server’s box', () => settings.getByRole('checkbox', { name: 'Server work' }).focus()],
      ['Save settings', () => settings.getByRole('button', { name: 'Save settings' }).focus()],
      ['Delete conversation', () => settings.getByRole('button', { name: 'Delete conversation' }).focus()]
    ];
    for (const [where, focus] of places) {
      await pane.getByRole('button', { name: 'Settings', exact: true }).click();
      await settings.waitFor();
      await focus?.();
      await page.keyboard.press('Escape');
      await settings
        .waitFor({ state: 'detached', timeout: 5_000 })
        .catch(() => assert.fail(`Escape on ${where} left the settings open`));
      await page.waitForFunction(() => document.activeElement?.textContent === 'Settings');
    }
    assert.deepEqual(d.pageErrors, []);
  });

  it('opens the settings with the focus on the title, not on Close settings in the place of Settings: a second Enter leaves them open', async () => {
    const pane = page.getByRole('region', { name: 'Conversation New chat' });
    const settings = pane.getByRole('form', { name: 'Conversation settings' });
    await pane.getByRole('button', { name: 'Settings', exact: true }).focus();
    await page.keyboard.press('Enter');
    await settings.getByLabel('Title').and(page.locator(':focus')).waitFor({ timeout: 5_000 });
    // Pressed twice: with nothing changed, Enter in the title neither saves nor closes.
    await settings.evaluate((form) =>
      form.addEventListener('submit', () => form.setAttribute('data-submitted', ''), { once: true })
    );
    await page.keyboard.press('Enter');
    assert.equal(await settings.getAttribute('data-submitted'), null, 'the second Enter submitted the settings');
    await page.keyboard.type(' renamed');
    assert.equal(await settings.getByLabel('Title').inputValue(), 'New chat renamed', 'typing goes to the title');
    await page.keyboard.press('Escape');
    await page
      .getByRole('dialog', { name: 'Discard your changes?' })
      .getByRole('button', { name: 'Discard changes' })
      .click();
    await settings.waitFor({ state: 'detached' });
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
    await settings.waitFor({ state: 'detached' });
    assert.ok(await focused(pane.getByRole('button', { name: 'Settings' })), 'Save gives the focus to Settings');
    await pane.getByRole('button', { name: 'Settings' }).click();
    await settings.getByRole('button', { name: 'Delete conversation' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete conversation' }).click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.activeElement?.classList.contains('chat-new') === true);
    assert.deepEqual(d.pageErrors, []);
  });

  it('shows a new chat’s message box at once: what is typed before the chat exists is kept, also after a failed start', async () => {
    const focusedOn = (label: string) =>
      page.waitForFunction((name) => document.activeElement?.getAttribute('aria-label') === name, label);
    const count = async () => (await d.fixture.host.call('assistant.list', {})).length;
    // Each assistant.create waits until the test lets it go (a slow host or disk), then runs or is refused.
    let gate: { held: Promise<void>; refuse: boolean } | undefined;
    const hold = (refuse: boolean): (() => void) => {
      let release!: () => void;
      gate = { held: new Promise<void>((resolve) => (release = resolve)), refuse };
      return release;
    };
    const holdCreate = async (route: Route) => {
      const call = route.request().postDataJSON() as { method?: string };
      const now = gate;
      if (call.method !== 'assistant.create' || !now) return route.fallback();
      await now.held;
      if (!now.refuse) return route.fallback();
      await route.fulfill({
        status: 200,
        json: { ok: false, error: { code: -32603, message: 'The conversation store is busy.' } }
      });
    };
    await page.route('**/api/call', holdCreate);
    const newChat = page.getByRole('button', { name: '+ New chat' });
    const starting = page.getByRole('region', { name: 'New chat, starting' });
    const before = await count();

    let release = hold(true);
    await newChat.focus();
    await page.keyboard.press('Enter');
    await starting.waitFor();
    await focusedOn('Your message');
    await page.keyboard.type('Hello', { delay: 20 });
    await page.keyboard.press('Enter');
    assert.equal(
      await starting.getByLabel('Your message').inputValue(),
      'Hello',
      'nothing is sent before the chat exists'
    );
    assert.equal(await starting.getByRole('button', { name: 'Send' }).getAttribute('aria-disabled'), 'true');
    release();
    await starting.waitFor({ state: 'detached' });
    await page.locator('.chat-list [role="alert"]').getByText('No chat was started.').waitFor();
    await page.waitForFunction(() => document.activeElement?.classList.contains('chat-new') === true);
    assert.equal(await count(), before);

    // The next New chat starts with what was typed, and the chat's own box takes it over.
    release = hold(false);
    await page.keyboard.press('Enter');
    await starting.waitFor();
    await focusedOn('Your message');
    assert.equal(await starting.getByLabel('Your message').inputValue(), 'Hello');
    await page.keyboard.type(' there', { delay: 20 });
    release();
    const pane = page.locator('section.chat-pane[data-conversation-id]');
    await pane.getByRole('heading', { name: 'New chat' }).waitFor();
    await focusedOn('Your message');
    await page.keyboard.type('!');
    assert.equal(await pane.getByLabel('Your message').inputValue(), 'Hello there!', 'the caret after what was typed');
    assert.equal(await count(), before + 1);
    gate = undefined;
    await page.unroute('**/api/call', holdCreate);
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
    assert.equal(await box.getByRole('button', { name: 'Hide message' }).count(), 0);
    await page.unroute('**/api/call', refuse);
    await box.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('region', { name: 'Conversation Opened later' }).waitFor();
    assert.deepEqual(d.pageErrors, []);
  });
});

describe('the Assistant as a person works in it: settings open while chatting, new chats, search, delete, a short window', () => {
  let llm: FakeOpenAIServer;
  let d: DeskFixture;
  let page: Page;
  const pane = (): Locator => page.locator('section.chat-pane');
  const settings = (): Locator => pane().getByRole('form', { name: 'Conversation settings' });
  const header = (): Locator => pane().locator('.chat-header p');
  const list = (): Locator => page.getByRole('navigation', { name: 'Conversations' });
  const currentId = async (): Promise<string> => (await pane().getAttribute('data-conversation-id'))!;
  const send = async (text: string): Promise<void> => {
    await pane().getByLabel('Your message').fill(text);
    await pane().getByLabel('Your message').press('Enter');
  };

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    d = await startDesk(
      { work: peerServer('work'), desk: peerServer('desk') },
      { host: { keyStore: new InMemoryKeyStore() }, viewport: { width: 1280, height: 800 } }
    );
    page = d.page;
    await saveFakeProvider(d.fixture.host, llm.baseURL);
    await page.getByRole('link', { name: 'Assistant', exact: true }).click();
  });

  after(async () => {
    await d?.close();
    await llm?.close();
  });

  it('keeps open settings in step with what the core changes and the person has not edited, and asks before closing only after an edit', async () => {
    await page.getByRole('button', { name: '+ New chat' }).click();
    await pane().getByRole('heading', { name: 'New chat' }).waitFor();
    await pane().getByRole('button', { name: 'Settings' }).click();
    // The first message names the conversation while its settings are open.
    await send('Hello, what tools do you have?');
    await pane().getByRole('heading', { name: 'Hello, what tools do you have?' }).waitFor();
    await pane().locator('[data-role="assistant"]').getByText('Hello from the fake model.').waitFor();
    assert.equal(await settings().getByLabel('Title').inputValue(), 'Hello, what tools do you have?');

    // Another window changes the prompt while the person edits the title: each keeps its own.
    await settings().getByLabel('Title').fill('Mine');
    const id = await currentId();
    await d.fixture.host.call('assistant.update', { conversationId: id, systemPrompt: 'Answer briefly.' });
    await page.waitForFunction(
      () => document.querySelector<HTMLTextAreaElement>('.chat-settings textarea')?.value === 'Answer briefly.'
    );
    assert.equal(await settings().getByLabel('Title').inputValue(), 'Mine');
    await settings().getByRole('button', { name: 'Save settings' }).click();
    await pane().getByRole('heading', { name: 'Mine' }).waitFor();
    const saved = await d.fixture.host.call('assistant.get', { conversationId: id });
    assert.equal(saved.title, 'Mine');
    assert.equal(saved.systemPrompt, 'Answer briefly.');

    // Saved: closed without a question.
    await settings().waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('dialog', { name: 'Discard your changes?' }).count(), 0);
    assert.deepEqual(d.pageErrors, []);
  });

  it('starts a new chat with the servers of the last conversation (the ready ones at first), and saves a server ticked in the open settings when the person sends', async () => {
    // The first chat started with every ready server.
    const first = await d.fixture.host.call('assistant.get', { conversationId: await currentId() });
    assert.deepEqual([...first.serverIds].sort(), ['desk', 'work']);
    await pane().getByRole('button', { name: 'Settings' }).click();
    await settings().getByLabel('Server work', { exact: true }).uncheck();
    await settings().getByRole('button', { name: 'Save settings' }).click();
    await header().getByText('Fake LLM · fake-small · tools of Server desk', { exact: true }).waitFor();

    await page.getByRole('button', { name: '+ New chat' }).click();
    await pane().getByRole('heading', { name: 'New chat' }).waitFor();
    await header().getByText('Fake LLM · fake-small · tools of Server desk', { exact: true }).waitFor();

    // Ticked, not saved, and the person sends: the message goes with the settings they see.
    await pane().getByRole('button', { name: 'Settings' }).click();
    await settings().getByLabel('Server work', { exact: true }).check();
    await send('Use both servers');
    await pane().locator('[data-role="assistant"]').getByText('Hello from the fake model.').waitFor();
    await header().getByText('Fake LLM · fake-small · tools of Server desk, Server work', { exact: true }).waitFor();
    const second = await d.fixture.host.call('assistant.get', { conversationId: await currentId() });
    assert.deepEqual([...second.serverIds].sort(), ['desk', 'work']);
    assert.equal(second.title, 'Use both servers');
    await pane().getByRole('button', { name: 'Close settings' }).click();
    await settings().waitFor({ state: 'detached' });
    assert.deepEqual(d.pageErrors, []);
  });

  it('sends nothing when the open settings’ changes could not be saved first, and says so by the message box', async () => {
    const refuse = async (route: Route) => {
      const call = route.request().postDataJSON() as { method?: string };
      if (call.method !== 'assistant.update') return route.fallback();
      await route.fulfill({ status: 200, json: { ok: false, error: { code: -32603, message: 'The disk is full.' } } });
    };
    await page.route('**/api/call', refuse);
    const before = (await d.fixture.host.call('assistant.get', { conversationId: await currentId() })).messages.length;
    await pane().getByRole('button', { name: 'Settings' }).click();
    await settings().getByLabel('Title').fill('Not saved');
    await send('Will this go?');
    const failure = pane().locator('.chat-composer .action-error:not([hidden])');
    await failure.waitFor();
    assert.equal(
      await failure.locator('.action-error-what').textContent(),
      'Your message was not sent: the changes to the settings were not saved. The disk is full.'
    );
    assert.equal(await pane().getByLabel('Your message').inputValue(), 'Will this go?', 'the message stays');
    const now = await d.fixture.host.call('assistant.get', { conversationId: await currentId() });
    assert.equal(now.messages.length, before, 'nothing was sent');
    await page.unroute('**/api/call', refuse);
    await pane().getByLabel('Your message').fill('');
    await settings().getByLabel('Title').fill(now.title);
    await pane().getByRole('button', { name: 'Close settings' }).click();
    await settings().waitFor({ state: 'detached' });
    assert.deepEqual(d.pageErrors, []);
  });

  it('asks before a delete with a button marked dangerous, and says the conversation was deleted', async () => {
    const title = (await pane().locator('.chat-title').textContent())!;
    if ((await settings().count()) === 0) await pane().getByRole('button', { name: 'Settings', exact: true }).click();
    await settings().getByRole('button', { name: 'Delete conversation' }).click();
    const confirm = page.getByRole('dialog').getByRole('button', { name: 'Delete conversation' });
    assert.match((await confirm.getAttribute('class')) ?? '', /\bdanger\b/);
    await confirm.click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.locator('.sr-only[aria-live="polite"]').getByText(`Conversation “${title}” deleted.`).waitFor();
    await list().getByText(title, { exact: true }).waitFor({ state: 'detached' });
    assert.deepEqual(d.pageErrors, []);
  });

  it('New chat while the list is searched clears the search: the new chat is shown and chosen', async () => {
    await list().getByRole('searchbox').fill('no such title');
    await list().getByText('No title matches “no such title”.').waitFor();
    await page.getByRole('button', { name: '+ New chat' }).click();
    await pane().getByRole('heading', { name: 'New chat' }).waitFor();
    // The new chat's event may show it (as the newest) a moment before New chat's answer clears the search.
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('.chat-search')?.value === '');
    const chosen = list().getByRole('option', { selected: true });
    await chosen.getByText('New chat', { exact: true }).waitFor();
    assert.equal(await chosen.getAttribute('data-conversation-id'), await currentId());
    assert.deepEqual(d.pageErrors, []);
  });

  it('makes the conversation list one Tab stop: the arrow keys, Home and End move in it, Enter and Space open a conversation', async () => {
    for (const title of ['Third', 'Fourth'])
      await d.fixture.host.call('assistant.create', { title, providerId: 'fake', model: 'fake-small', serverIds: [] });
    const options = list().getByRole('listbox', { name: 'Conversations' }).getByRole('option');
    await options.filter({ hasText: 'Fourth' }).waitFor();
    const titles = await options.locator('.chat-list-title').allTextContents();
    assert.ok(titles.length >= 4, `four conversations or more: ${titles.join(', ')}`);
    const opened = await currentId();
    const focusedTitle = () =>
      page.evaluate(() => document.activeElement?.querySelector('.chat-list-title')?.textContent ?? null);
    const focusedRole = () => page.evaluate(() => document.activeElement?.getAttribute('role') ?? null);

    // From the search, Tab goes to the open conversation, and the next Tab leaves the list.
    await list().getByRole('searchbox').focus();
    await page.keyboard.press('Tab');
    assert.equal(await focusedRole(), 'option');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-selected')), 'true');
    const openedTitle = await focusedTitle();
    await page.keyboard.press('Tab');
    assert.notEqual(await focusedRole(), 'option', 'one Tab stop for the whole list');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focusedTitle(), openedTitle);

    await page.keyboard.press('Home');
    assert.equal(await focusedTitle(), titles[0]);
    await page.keyboard.press('ArrowUp');
    assert.equal(await focusedTitle(), titles[0], 'no wrapping past the first');
    await page.keyboard.press('ArrowDown');
    assert.equal(await focusedTitle(), titles[1]);
    await page.keyboard.press('End');
    assert.equal(await focusedTitle(), titles.at(-1));
    await page.keyboard.press('ArrowDown');
    assert.equal(await focusedTitle(), titles.at(-1), 'no wrapping past the last');
    assert.equal(await currentId(), opened, 'moving opens nothing');

    await page.keyboard.press('Enter');
    await pane()
      .getByRole('heading', { name: titles.at(-1) })
      .waitFor();
    assert.equal(await focusedTitle(), titles.at(-1), 'the focus stays in the list');
    await page.keyboard.press('Home');
    await page.keyboard.press(' ');
    await pane().getByRole('heading', { name: titles[0] }).waitFor();
    assert.equal(await options.first().getAttribute('aria-selected'), 'true');
    await page.screenshot({ path: path.join(root, '.tmp/assistant-list-keys.png') });

    // Back into the list from the chat: on the conversation open now.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focusedTitle(), titles[1], 'the option last moved to keeps the Tab stop');
    assert.deepEqual(d.pageErrors, []);
  });

  it('moves in the conversation list to the next title that starts with what is typed (typeahead), opening nothing', async () => {
    for (const title of ['Kiwi one', 'Kiwi two', 'Kumquat'])
      await d.fixture.host.call('assistant.create', { title, providerId: 'fake', model: 'fake-small', serverIds: [] });
    const options = list().getByRole('listbox', { name: 'Conversations' }).getByRole('option');
    await options.filter({ hasText: 'Kumquat' }).waitFor();
    const titles = await options.locator('.chat-list-title').allTextContents();
    const ks = titles.filter((t) => t.startsWith('K'));
    assert.equal(ks.length, 3, titles.join(', '));
    assert.ok(!titles.at(-1)!.startsWith('K'), 'the oldest is not one of them');
    const opened = await currentId();
    const focusedTitle = () =>
      page.evaluate(() => document.activeElement?.querySelector('.chat-list-title')?.textContent ?? null);

    await list().getByRole('searchbox').focus();
    await page.keyboard.press('Tab');
    // From the last, one letter again and again goes through the titles that start with it, and round.
    await page.keyboard.press('End');
    for (const expected of [...ks, ks[0]]) {
      await page.keyboard.press('k');
      assert.equal(await focusedTitle(), expected);
    }
    // Letters typed in a row are one search, a space in it too (it opens nothing), capitals or not.
    await page.keyboard.press('End');
    await page.keyboard.type('kiwi t');
    assert.equal(await focusedTitle(), 'Kiwi two');
    await page.keyboard.press('End');
    await page.keyboard.type('KUm');
    assert.equal(await focusedTitle(), 'Kumquat');
    await page.keyboard.type('x');
    assert.equal(await focusedTitle(), 'Kumquat', 'no match: the focus stays');
    assert.equal(await currentId(), opened, 'typing opens nothing');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('tabindex')), '0', 'the Tab stop');

    await page.keyboard.press('Enter');
    await pane().getByRole('heading', { name: 'Kumquat' }).waitFor();
    assert.deepEqual(d.pageErrors, []);
  });

  it('at 800×700 with the settings open, Save settings stays in sight and the messages keep room to read', async () => {
    for (let i = 0; i < 3; i++) {
      await pane().and(page.locator('[data-status="idle"]')).waitFor();
      llm.enqueue({ kind: 'text', tokens: [`Answer ${i}: ${'a few words more '.repeat(40)}`] });
      await send(`Question ${i}`);
      await pane().locator('[data-role="assistant"]').getByText(`Answer ${i}:`).waitFor();
    }
    await page.setViewportSize({ width: 800, height: 700 });
    await pane().getByRole('button', { name: 'Settings' }).click();
    await settings().getByLabel('Server work', { exact: true }).waitFor();
    const layout = await pane().evaluate((section) => {
      const form = section.querySelector('.chat-settings')!.getBoundingClientRect();
      const save = section.querySelector('.chat-settings button[type="submit"]')!.getBoundingClientRect();
      const messages = section.querySelector('.chat-messages')!;
      const send = section.querySelector('.chat-composer textarea')!.getBoundingClientRect();
      const box = section.getBoundingClientRect();
      return {
        saveInSight: save.top >= form.top && save.bottom <= form.bottom + 0.5 && save.bottom <= innerHeight,
        messages: messages.clientHeight,
        line: parseFloat(getComputedStyle(messages).lineHeight),
        composerInPane: send.top >= box.top && send.bottom <= box.bottom + 0.5
      };
    });
    await page.screenshot({ path: path.join(root, '.tmp/assistant-settings-800x700.png') });
    assert.ok(layout.saveInSight, 'Save settings in sight without scrolling the settings');
    assert.ok(layout.messages >= 5 * layout.line, `the messages get ${layout.messages}px, not five lines`);
    assert.ok(layout.composerInPane, 'the message box in the pane');
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual(d.pageErrors, []);
  });

  it('keeps the list’s Tab stop on the conversation shown, after New chat, a search and a delete too, and shows a cut title whole in its tooltip', async () => {
    const options = list().getByRole('listbox', { name: 'Conversations' }).getByRole('option');
    const focusedOption = () =>
      page.evaluate(() => {
        const option = document.activeElement?.closest('[role="option"]');
        return {
          title: option?.querySelector('.chat-list-title')?.textContent ?? null,
          selected: option?.getAttribute('aria-selected') ?? null,
          tabindex: option?.getAttribute('tabindex') ?? null
        };
      });
    /** Tab from the search box into the list lands on the conversation shown, its one Tab stop. */
    const tabStopIsShown = async (when: string) => {
      const shown = (await pane().locator('.chat-title').textContent())!;
      await list().getByRole('searchbox').focus();
      await page.keyboard.press('Tab');
      assert.deepEqual(await focusedOption(), { title: shown, selected: 'true', tabindex: '0' }, when);
    };

    // One conversation opened with a click, then a new chat started and written in.
    await options.filter({ hasText: 'Kiwi one' }).click();
    await pane().getByRole('heading', { name: 'Kiwi one' }).waitFor();
    await page.getByRole('button', { name: '+ New chat' }).click();
    await pane().getByRole('heading', { name: 'New chat' }).waitFor();
    const long = 'Quick question number one about the weekly report';
    await send(long);
    await pane().getByRole('heading', { name: long }).waitFor();
    await pane().locator('[data-role="assistant"]').getByText('Hello from the fake model.').waitFor();
    await options.filter({ hasText: long }).waitFor();
    await tabStopIsShown('after New chat');
    await page.keyboard.press('Enter');
    await pane().getByRole('heading', { name: long }).waitFor();

    // The title the line cuts shows whole in its tooltip; the option's name says it once.
    const title = options.filter({ hasText: long }).locator('.chat-list-title');
    assert.ok(await title.evaluate((span) => span.scrollWidth > span.clientWidth), 'the title is cut in the list');
    assert.equal(await title.getAttribute('title'), long);
    assert.equal(
      await list()
        .getByRole('option', { name: new RegExp(`^${long} fake-small · `) })
        .count(),
      1
    );
    assert.equal(
      await list()
        .getByRole('option', { name: new RegExp(`${long}.*${long}`) })
        .count(),
      0
    );
    assert.ok(!(await accessibleDescription(options.filter({ hasText: long }))), 'no description repeating it');

    // Moved elsewhere in the list, then the list searched: the Tab stop is the conversation shown.
    await page.keyboard.press('Home'); // ends any search typed before
    await page.keyboard.type('kum');
    assert.deepEqual(await focusedOption(), { title: 'Kumquat', selected: 'false', tabindex: '0' });
    await list().getByRole('searchbox').fill('qu');
    await options.filter({ hasText: 'Third' }).waitFor({ state: 'detached' });
    assert.deepEqual((await options.locator('.chat-list-title').allTextContents()).sort(), ['Kumquat', long].sort());
    await tabStopIsShown('after a search');
    await list().getByRole('searchbox').fill('');
    await options.filter({ hasText: 'Third' }).waitFor();
    await tabStopIsShown('after the search is cleared');

    // Moved elsewhere again, then the conversation shown deleted: the next one shown holds the Tab stop.
    await page.keyboard.press('Home'); // ends any search typed before
    await page.keyboard.type('kiwi t');
    assert.deepEqual(await focusedOption(), { title: 'Kiwi two', selected: 'false', tabindex: '0' });
    if ((await settings().count()) === 0) await pane().getByRole('button', { name: 'Settings', exact: true }).click();
    await settings().getByRole('button', { name: 'Delete conversation' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete conversation' }).click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await options.filter({ hasText: long }).waitFor({ state: 'detached' });
    await pane().getByRole('heading', { name: long }).waitFor({ state: 'detached' });
    assert.notEqual(await pane().locator('.chat-title').textContent(), 'Kiwi two', 'another one is shown');
    await tabStopIsShown('after a delete');
    assert.deepEqual(d.pageErrors, []);
  });
});

describe('the Assistant at a small window (800×600), and at 1280×800 with a notice under the bar', () => {
  let llm: FakeOpenAIServer;
  let d: DeskFixture;
  let page: Page;
  const asker = peerServer('desk');
  const pane = (): Locator => page.locator('section.chat-pane');
  const settings = (): Locator => pane().getByRole('form', { name: 'Conversation settings' });
  const send = async (text: string): Promise<void> => {
    await pane().getByLabel('Your message').fill(text);
    await pane().getByLabel('Your message').press('Enter');
  };
  /** How much room the message box's placeholder needs (wrapped at the box's width) and how much it has. */
  const placeholderRoom = (): Promise<{ text: string; needed: number; room: number }> =>
    pane()
      .getByLabel('Your message')
      .evaluate((field: HTMLTextAreaElement) => {
        const style = getComputedStyle(field);
        const probe = document.createElement('div');
        probe.textContent = field.placeholder;
        Object.assign(probe.style, {
          position: 'absolute',
          visibility: 'hidden',
          boxSizing: 'content-box',
          width: `${field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)}px`,
          font: style.font,
          letterSpacing: style.letterSpacing,
          lineHeight: style.lineHeight,
          whiteSpace: 'pre-wrap',
          overflowWrap: 'break-word'
        });
        document.body.append(probe);
        const needed = probe.getBoundingClientRect().height;
        probe.remove();
        return {
          text: field.placeholder,
          needed: Math.round(needed),
          room: Math.round(field.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom))
        };
      });
  /** Whether Stop (or Send) shows whole beside the message box, within the pane. */
  const actionBeside = (): Promise<boolean> =>
    pane().evaluate((section) => {
      const box = section.getBoundingClientRect();
      const field = section.querySelector('.chat-input-row textarea')!.getBoundingClientRect();
      const button = section.querySelector('.chat-input-row > button:last-child')!.getBoundingClientRect();
      return (
        button.width > 0 && button.left >= field.right && button.right <= box.right && button.bottom <= box.bottom + 0.5
      );
    });

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    d = await startDesk(
      { work: echoServer('work'), desk: asker },
      { host: { keyStore: new InMemoryKeyStore() }, viewport: { width: 800, height: 600 } }
    );
    page = d.page;
    await saveFakeProvider(d.fixture.host, llm.baseURL);
    await page.getByRole('link', { name: 'Assistant', exact: true }).click();
    await page.getByRole('button', { name: '+ New chat' }).click();
    await pane().getByRole('heading', { name: 'New chat' }).waitFor();
  });

  after(async () => {
    await d?.close();
    await llm?.close();
  });

  it('at 800×600 keeps a few lines of the messages under open settings, which scroll inside with Save in sight; the messages as they were when closed', async () => {
    await page.screenshot({ path: path.join(root, '.tmp/assistant-800x600-chat.png') });
    for (let i = 0; i < 3; i++) {
      await pane().and(page.locator('[data-status="idle"]')).waitFor();
      llm.enqueue({ kind: 'text', tokens: [`Answer ${i}: ${'a few words more '.repeat(40)}`] });
      await send(`Question ${i}`);
      await pane().locator('[data-role="assistant"]').getByText(`Answer ${i}:`).waitFor();
    }
    const messages = pane().getByRole('log', { name: 'Messages' });
    const fromEnd = () => messages.evaluate((log) => log.scrollHeight - log.scrollTop - log.clientHeight);
    assert.ok((await fromEnd()) <= 1, 'the reader at the end of the messages');
    const lastAnswer = pane().locator('[data-role="assistant"]').last();

    await pane().getByRole('button', { name: 'Settings' }).click();
    await settings().getByLabel('Server work', { exact: true }).waitFor();
    const open = await pane().evaluate((section) => {
      const form = section.querySelector<HTMLElement>('.chat-settings')!;
      const box = form.getBoundingClientRect();
      const log = section.querySelector<HTMLElement>('.chat-messages')!;
      const logStyle = getComputedStyle(log);
      const save = form.querySelector('button[type="submit"]')!.getBoundingClientRect();
      const close = section.querySelector('.chat-header > button')!.getBoundingClientRect();
      const composer = section.querySelector('.chat-composer')!.getBoundingClientRect();
      const answers = log.querySelectorAll('[data-role="assistant"]');
      const last = answers[answers.length - 1]!.getBoundingClientRect();
      const shown = log.getBoundingClientRect();
      return {
        settings: Math.round(box.height),
        settingsContent: form.querySelector('.chat-settings-fields')!.scrollHeight,
        settingsRoom: form.querySelector('.chat-settings-fields')!.clientHeight,
        // The messages' own room, inside their padding, in lines of their text.
        lines:
          (log.clientHeight - parseFloat(logStyle.paddingTop) - parseFloat(logStyle.paddingBottom)) /
          parseFloat(logStyle.lineHeight),
        lastAnswerShown:
          last.bottom > shown.top && last.top < shown.bottom && getComputedStyle(log).visibility !== 'hidden',
        saveInSight: save.top >= box.top && save.bottom <= box.bottom + 0.5 && save.bottom <= innerHeight,
        closeInSight: close.top >= 0 && close.bottom <= innerHeight,
        composerInPane: composer.bottom <= section.getBoundingClientRect().bottom + 0.5
      };
    });
    await page.screenshot({ path: path.join(root, '.tmp/assistant-800x600-settings.png') });
    // They were 0 px tall here (their content 895 px): not one line of the conversation showed.
    assert.ok(open.lines >= 3, `the messages keep ${open.lines.toFixed(1)} lines`);
    assert.ok(open.lastAnswerShown, 'the end of the conversation in sight under the settings');
    assert.ok(open.settings >= 160, `the settings keep ${open.settings}px`);
    assert.ok(open.settingsContent > open.settingsRoom, 'the settings scroll inside');
    assert.ok(open.saveInSight, 'Save settings in sight');
    assert.ok(open.closeInSight, 'Close settings in sight');
    assert.ok(open.composerInPane, 'the message box in the pane');
    assert.ok(await actionBeside(), 'the message box and Send still in the pane');
    // Still usable: a field further down is scrolled to and changed, and Save stays in sight.
    const server = settings().getByLabel('Server work', { exact: true });
    await server.scrollIntoViewIfNeeded();
    const checked = await server.isChecked();
    await server.setChecked(!checked);
    assert.equal(await server.isChecked(), !checked);
    await server.setChecked(checked);
    assert.ok(await settings().getByRole('button', { name: 'Save settings' }).isVisible());

    await pane().getByRole('button', { name: 'Close settings' }).click();
    await settings().waitFor({ state: 'detached' });
    await lastAnswer.getByText('Answer 2:').waitFor();
    const closed = await messages.evaluate((log) => ({
      height: log.clientHeight,
      line: parseFloat(getComputedStyle(log).lineHeight)
    }));
    assert.ok(closed.height >= 10 * closed.line, `the messages back with ${closed.height}px`);
    assert.ok((await fromEnd()) <= 1, 'still at the end of the messages');
    assert.deepEqual(d.pageErrors, []);
  });

  it('at 800×600 shows the message box’s placeholder whole beside Stop while the model answers and while a tool call waits for approval', async () => {
    llm.enqueue({ kind: 'hold' });
    await send('Tell me a story');
    const held = await llm.nextHeld();
    await pane().getByRole('button', { name: '■ Stop' }).waitFor();
    const answering = await placeholderRoom();
    assert.equal(answering.text, 'The model is answering: wait, or stop it.');
    assert.ok(
      answering.needed <= answering.room + 1,
      `“${answering.text}”: ${answering.needed}px in ${answering.room}px`
    );
    assert.ok(await actionBeside(), 'Stop beside the message box, in the pane');
    held.push('Once');
    held.finish();
    await pane().getByRole('button', { name: 'Send' }).waitFor();

    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'e1', name: 'work__echo', arguments: '{"message":"hello"}' }] },
      { kind: 'text', tokens: ['Echoed.'] }
    );
    await send('Please echo hello');
    await pane().getByRole('group', { name: 'Approve echo?' }).waitFor();
    await pane().getByRole('button', { name: '■ Stop' }).waitFor();
    await page.screenshot({ path: path.join(root, '.tmp/assistant-800x600-approval.png') });
    const approval = await placeholderRoom();
    assert.equal(approval.text, 'Approve or deny the call above, or stop.');
    // No taller than the box while the model answers (it once took three lines here).
    assert.ok(approval.needed <= answering.needed, `“${approval.text}”: ${approval.needed}px`);
    assert.ok(approval.needed <= approval.room + 1, `“${approval.text}”: ${approval.needed}px in ${approval.room}px`);
    assert.ok(await actionBeside(), 'Stop beside the message box, in the pane');
    await pane()
      .getByRole('group', { name: 'Approve echo?' })
      .getByRole('button', { name: 'Approve', exact: true })
      .click();
    await pane().locator('[data-role="assistant"]').getByText('Echoed.').waitFor();
    assert.deepEqual(d.pageErrors, []);
  });

  it('at 1280×800 keeps the page from scrolling with a conversation longer than the pane, and while a notice shows under the bar', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    // The conversation of the tests before: longer than its box (the words for screen readers in
    // it once sat below the window, and the page scrolled).
    const log = pane().getByRole('log', { name: 'Messages' });
    assert.ok(await log.evaluate((box) => box.scrollHeight > box.clientHeight + 300), 'a long conversation');
    const layout = () =>
      page.evaluate(() => {
        const box = document.querySelector('.chat-pane')!.getBoundingClientRect();
        return {
          page: document.documentElement.scrollHeight,
          window: innerHeight,
          paneTop: Math.round(box.top),
          paneBottom: Math.round(box.bottom)
        };
      });
    const plain = await layout();
    assert.ok(plain.page <= plain.window, `the page ${plain.page}px in a ${plain.window}px window`);

    // A question its server withdraws before it is answered: a notice under the bar, on every screen.
    const controller = new AbortController();
    const asked = asker.server
      .elicitInput(
        {
          mode: 'form',
          message: 'Which region should the report cover?',
          requestedSchema: { type: 'object', properties: { region: { type: 'string' } } }
        },
        { signal: controller.signal }
      )
      .catch((error: unknown) => error);
    await page.locator('.sections a[href="#inbox"] .badge:not([hidden])').waitFor();
    controller.abort('the server gave up');
    await asked;
    const notice = page.locator('.notice-withdrawn');
    await notice.waitFor();
    const withNotice = await layout();
    await page.screenshot({ path: path.join(root, '.tmp/assistant-1280x800-notice.png') });
    assert.ok(
      withNotice.page <= withNotice.window,
      `with a notice the page is ${withNotice.page}px in a ${withNotice.window}px window: it scrolls`
    );
    assert.ok(withNotice.paneTop > plain.paneTop, 'the chat under the notice');
    assert.ok(withNotice.paneBottom >= plain.paneBottom - 1, 'the chat down to where it was');

    await notice.getByRole('button', { name: 'Close notice' }).click();
    await notice.waitFor({ state: 'detached' });
    assert.deepEqual(await layout(), plain, 'the chat as before once the notice is dismissed');
    assert.deepEqual(d.pageErrors, []);
  });
});

describe('the Assistant at 800×600 gives the chat the width: the list behind Conversations, a waiting call shown from its header', () => {
  let llm: FakeOpenAIServer;
  let d: DeskFixture;
  let page: Page;
  const TOOL = 'publish-quarterly-report-to-everyone';
  const FIELDS = ['title', 'region', 'quarter', 'audience', 'currency', 'summary', 'author', 'reviewer', 'channel'];
  /** A server whose one tool has a long name and many arguments: its approval card's arguments are taller than the box can show with the rest of the card. */
  const reportServer = (): PeerServer => {
    const mcp = new McpServer({ name: 'reports', version: '1.0.0' }, { capabilities: { tools: {} } });
    mcp.registerTool(TOOL, { inputSchema: Object.fromEntries(FIELDS.map((f) => [f, z.string()])) }, async () => ({
      content: [{ type: 'text', text: 'Published.' }]
    }));
    return { ...peerServer('reports'), server: mcp.server };
  };
  const pane = (): Locator => page.locator('section.chat-pane');
  const list = (): Locator => page.getByRole('navigation', { name: 'Conversations' });
  const toggle = (): Locator => list().getByRole('button', { name: /^Conversations/ });
  const listbox = (): Locator => list().getByRole('listbox', { name: 'Conversations' });
  const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);
  const focusedTitle = () =>
    page.evaluate(() => document.activeElement?.querySelector('.chat-list-title')?.textContent ?? null);
  /** How many lines each element's text takes (distinct tops of its line boxes). */
  const lines = (locator: Locator) =>
    locator.evaluateAll((elements) =>
      elements.map((element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        const tops = new Set(
          Array.from(range.getClientRects())
            .filter((rect) => rect.width > 0)
            .map((rect) => Math.round(rect.top))
        );
        return `${element.textContent}: ${tops.size}`;
      })
    );
  const send = async (text: string): Promise<void> => {
    await pane().getByLabel('Your message').fill(text);
    await pane().getByLabel('Your message').press('Enter');
  };

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    d = await startDesk(
      { reports: reportServer() },
      { host: { keyStore: new InMemoryKeyStore() }, viewport: { width: 800, height: 600 } }
    );
    page = d.page;
    await saveFakeProvider(d.fixture.host, llm.baseURL);
    for (const title of ['Apples', 'Pears'])
      await d.fixture.host.call('assistant.create', {
        title,
        providerId: 'fake',
        model: 'fake-small',
        serverIds: ['reports']
      });
    await page.getByRole('link', { name: 'Assistant', exact: true }).click();
    await pane().getByRole('heading', { name: 'Pears' }).waitFor();
  });

  after(async () => {
    await d?.close();
    await llm?.close();
  });

  it('at 800×600 gives the chat most of the width; the list opens from a Conversations button naming the one shown, by keyboard, over the chat', async () => {
    const paneBox = () => pane().evaluate((section) => section.getBoundingClientRect().toJSON() as DOMRect);
    const closed = await paneBox();
    await page.screenshot({ path: path.join(root, '.tmp/assistant-800x600-folded.png') });
    assert.ok(closed.width >= 0.85 * 800, `the chat is ${Math.round(closed.width)}px of the 800`);
    assert.equal(await listbox().count(), 0, 'the list folded away');
    assert.equal(await toggle().getAttribute('aria-expanded'), 'false');
    assert.equal(await toggle().textContent(), 'Conversations: Pears');

    // Tab from New chat reaches the button; Enter opens the list on the conversation shown.
    await list().getByRole('button', { name: '+ New chat' }).focus();
    await page.keyboard.press('Tab');
    assert.ok(await isFocused(toggle()), 'Tab from New chat to Conversations');
    await page.keyboard.press('Enter');
    await listbox().waitFor();
    assert.equal(await toggle().getAttribute('aria-expanded'), 'true');
    await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'option');
    assert.equal(await focusedTitle(), 'Pears');
    await page.screenshot({ path: path.join(root, '.tmp/assistant-800x600-list-open.png') });
    assert.deepEqual(await paneBox(), closed, 'the list lies over the chat, which stays as it was');

    // The arrow keys and Enter open another; the list folds and the focus is back on its button.
    await page.keyboard.press('ArrowDown');
    assert.equal(await focusedTitle(), 'Apples');
    await page.keyboard.press('Enter');
    await pane().getByRole('heading', { name: 'Apples' }).waitFor();
    await listbox().waitFor({ state: 'hidden' });
    assert.ok(await isFocused(toggle()), 'the focus back on Conversations');
    assert.equal(await toggle().textContent(), 'Conversations: Apples');

    // Escape folds it too, the focus back on its button.
    await page.keyboard.press('Enter');
    await listbox().waitFor();
    await page.keyboard.press('Escape');
    await listbox().waitFor({ state: 'hidden' });
    assert.ok(await isFocused(toggle()), 'Escape: the focus back on Conversations');

    // A wide window has the room: the list beside the chat, no button.
    await page.setViewportSize({ width: 1280, height: 800 });
    await listbox().waitFor();
    assert.equal(await toggle().count(), 0);
    await page.setViewportSize({ width: 800, height: 600 });
    await listbox().waitFor({ state: 'hidden' });
    assert.deepEqual(d.pageErrors, []);
  });

  it('at 800×600 shows a call waiting for approval from its card’s header, each part of it and each button on a line; Stop before it ran says Stopped', async () => {
    for (let i = 0; i < 2; i++) {
      await pane().and(page.locator('[data-status="idle"]')).waitFor();
      llm.enqueue({ kind: 'text', tokens: [`Answer ${i}: ${'a few words more '.repeat(30)}`] });
      await send(`Question ${i}`);
      await pane().locator('[data-role="assistant"]').getByText(`Answer ${i}:`).waitFor();
    }
    await pane().and(page.locator('[data-status="idle"]')).waitFor();
    const args = Object.fromEntries(FIELDS.map((field) => [field, `the ${field} of the report`]));
    llm.enqueue({
      kind: 'tool-calls',
      calls: [{ id: 'r1', name: `reports__${TOOL}`, arguments: JSON.stringify(args) }]
    });
    await send('Publish the quarterly report');
    const card = pane().locator('[data-tool-call-id="r1"]');
    const approval = card.getByRole('group', { name: `Approve ${TOOL}?` });
    await approval.waitFor();
    // Laid out and painted as it first shows.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.screenshot({ path: path.join(root, '.tmp/assistant-800x600-approval-head.png') });
    const seen = await card.evaluate((element) => {
      const log = element.closest('.chat-messages')!.getBoundingClientRect();
      const head = element.querySelector('.chat-tool-head')!.getBoundingClientRect();
      return {
        whole: element.getBoundingClientRect().top >= log.top && element.getBoundingClientRect().bottom <= log.bottom,
        headInView: head.top >= log.top && head.bottom <= log.bottom
      };
    });
    // Its arguments scroll in a box of their own: the card fits, header to buttons.
    assert.ok(seen.whole, 'the card whole within the message box');
    assert.ok(seen.headInView, 'the card’s header in view: what is called, on which server');
    assert.deepEqual(
      await lines(card.locator('.chat-tool-head > *')),
      [TOOL, ' on Server reports', 'Waiting for your approval'].map((part) => `${part}: 1`)
    );
    // "Always allow" names its tool to assistive technology; on screen the line above names it.
    const always = approval.getByRole('button', { name: `Always allow ${TOOL}`, exact: true });
    assert.equal(await always.textContent(), 'Always allow');
    assert.deepEqual(
      await lines(approval.locator('.actions > button')),
      ['Approve', 'Edit arguments', 'Always allow', 'Deny…'].map((name) => `${name}: 1`)
    );

    await pane().getByRole('button', { name: '■ Stop' }).click();
    await card.and(page.locator('[data-state="cancelled"]')).waitFor();
    // Stopped while it waited: it never ran, so nothing was cancelled.
    assert.equal(await card.locator('.chat-tool-state').textContent(), 'Stopped');
    assert.deepEqual(d.pageErrors, []);
  });

  it('at 800×600 shows a call with long arguments from its header to its buttons, the arguments in a box of their own to scroll; Approve runs it', async () => {
    await pane().and(page.locator('[data-status="idle"]')).waitFor();
    const args = Object.fromEntries(FIELDS.map((field) => [field, `the ${field} of the report`]));
    args.summary = 'Sales rose in every region this quarter, and costs fell. '.repeat(20);
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'r2', name: `reports__${TOOL}`, arguments: JSON.stringify(args) }] },
      { kind: 'text', tokens: ['It is published.'] }
    );
    await send('Publish the quarterly report with its summary');
    const card = pane().locator('[data-tool-call-id="r2"]');
    const approval = card.getByRole('group', { name: `Approve ${TOOL}?` });
    const approve = approval.getByRole('button', { name: 'Approve', exact: true });
    await approve.waitFor();
    // Laid out and painted as it first shows.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.screenshot({ path: path.join(root, '.tmp/approval-800.png') });
    // Within the message box (its own scroll clips what the window would still show), and so within the window.
    const inView = (locator: Locator) =>
      locator.evaluate((element) => {
        const log = element.closest('.chat-messages')!.getBoundingClientRect();
        const box = element.getBoundingClientRect();
        return box.top >= log.top && box.bottom <= log.bottom && box.bottom <= window.innerHeight;
      });
    assert.ok(
      await inView(card.locator('.chat-tool-head')),
      'the card’s header in view: what is called, on which server'
    );
    for (const name of ['Approve', 'Edit arguments', `Always allow ${TOOL}`, 'Deny…'])
      assert.ok(await inView(approval.getByRole('button', { name, exact: true })), `${name} in view`);
    // The arguments scroll in their own box, which the keyboard reaches and which says what it holds.
    const shown = approval.getByRole('region', { name: 'Arguments' });
    assert.ok(await shown.evaluate((element) => element.scrollHeight > element.clientHeight), 'more than it shows');
    await shown.focus();
    await page.keyboard.press('End');
    await page.waitForFunction(() => (document.activeElement?.scrollTop ?? 0) > 0);
    assert.match(await shown.innerText(), /"summary": "Sales rose/);

    await approve.click();
    await card.locator('.chat-result').getByText('Published.').waitFor();
    await pane().locator('[data-role="assistant"]').getByText('It is published.').waitFor();
    const tool = (llm.chatRequests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>).findLast(
      (m) => m.role === 'tool'
    );
    assert.equal(tool?.content, 'Published.');
    assert.deepEqual(d.pageErrors, []);
  });
});

/** Where a focused control of the settings shows: its name, and what keeps it from being seen whole. */
interface FocusedControl {
  name: string;
  /** Whether its box lies wholly within the window and every box that clips it (the settings' scroll area). */
  withinSight: boolean;
  /** Whether Save settings' bar covers part of it (never said of the bar's own buttons). */
  underSaveBar: boolean;
  /** Whether the control itself is what shows at its centre. */
  onTop: boolean;
}

// No function declared inside the page function: tsx would name it with a helper the page lacks.
function focusedInSettings(page: Page): Promise<FocusedControl | null> {
  return page.evaluate(() => {
    const control = document.activeElement as HTMLElement | null;
    const form = control?.closest('.chat-settings');
    if (!control || !form) return null;
    const box = control.getBoundingClientRect();
    // The part of the window that shows: the window, cut by each box that clips what overflows it.
    let top = 0;
    let left = 0;
    let bottom = innerHeight;
    let right = innerWidth;
    for (let box = control.parentElement; box; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const outer = box.getBoundingClientRect();
      top = Math.max(top, outer.top + box.clientTop);
      left = Math.max(left, outer.left + box.clientLeft);
      bottom = Math.min(bottom, outer.top + box.clientTop + box.clientHeight);
      right = Math.min(right, outer.left + box.clientLeft + box.clientWidth);
    }
    const bar = form.querySelector(':scope > .actions')!.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const label = (control as HTMLInputElement).labels?.[0]?.textContent ?? control.getAttribute('aria-label');
    return {
      name: `${control.tagName.toLowerCase()} “${(label ?? control.textContent ?? '').trim()}”`,
      withinSight:
        box.top >= top - 0.5 && box.bottom <= bottom + 0.5 && box.left >= left - 0.5 && box.right <= right + 0.5,
      underSaveBar:
        !control.closest('.chat-settings > .actions') &&
        box.bottom > bar.top + 0.5 &&
        box.top < bar.bottom - 0.5 &&
        box.right > bar.left &&
        box.left < bar.right,
      onTop: hit !== null && (hit === control || control.contains(hit))
    };
  });
}

describe('the Assistant’s conversation settings by keyboard: each control in sight as it takes the focus', () => {
  let llm: FakeOpenAIServer;
  let d: DeskFixture;
  let page: Page;
  const pane = (): Locator => page.locator('section.chat-pane');
  const settings = (): Locator => pane().getByRole('form', { name: 'Conversation settings' });
  const servers = ['Server work', 'Server desk', 'Server more'];

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    d = await startDesk(
      { work: peerServer('work'), desk: peerServer('desk'), more: peerServer('more') },
      { host: { keyStore: new InMemoryKeyStore() }, viewport: { width: 1280, height: 800 } }
    );
    page = d.page;
    await saveFakeProvider(d.fixture.host, llm.baseURL);
    await page.getByRole('link', { name: 'Assistant', exact: true }).click();
  });

  after(async () => {
    await d?.close();
    await llm?.close();
  });

  it('scrolls each control to the focus whole, none under the Save settings bar, at 1280×800, 800×800, 1280×600 and 800×600', async () => {
    await page.getByRole('button', { name: '+ New chat' }).click();
    // Enter sends once the chat has started (the starting pane keeps what is typed, and sends
    // nothing): under load CI pressed it before, and the answer never came.
    await page.locator('section.chat-pane:not([data-status="starting"])').waitFor();
    await pane().getByLabel('Your message').fill('Please echo something for me.');
    await pane().getByLabel('Your message').press('Enter');
    await pane().locator('[data-role="assistant"]').getByText('Hello from the fake model.').waitFor();
    await pane().getByRole('button', { name: 'Settings' }).click();
    for (const server of servers) await settings().getByLabel(server, { exact: true }).check();
    await settings().getByRole('button', { name: 'Save settings' }).click();
    await settings().waitFor({ state: 'detached' });

    for (const [width, height] of [
      [1280, 800],
      [800, 800],
      [1280, 600],
      [800, 600]
    ] as const) {
      await page.setViewportSize({ width, height });
      await pane().getByRole('button', { name: 'Settings', exact: true }).click();
      for (const server of servers)
        await settings().getByLabel(`Tool calls to ${server}`).and(page.locator(':enabled')).waitFor();
      await settings().getByLabel('Title').and(page.locator(':focus')).waitFor();
      const seen: FocusedControl[] = [];
      for (let control = await focusedInSettings(page); control; control = await focusedInSettings(page)) {
        seen.push(control);
        // The control the walk-through found half under the bar.
        if (control.name.includes('Send tool-result images'))
          await page.screenshot({ path: path.join(root, `.tmp/assistant-settings-images-${width}x${height}.png`) });
        await page.keyboard.press('Tab');
      }
      const names = seen.map((control) => control.name);
      for (const expected of [
        'Send tool-result images to the model',
        'Tool calls to Server more',
        'Save settings',
        'Delete conversation'
      ])
        assert.ok(
          names.some((name) => name.includes(expected)),
          `at ${width}×${height}: Tab reaches “${expected}” (${names.join(', ')})`
        );
      const hidden = seen.filter((control) => !control.withinSight || control.underSaveBar || !control.onTop);
      assert.deepEqual(hidden, [], `at ${width}×${height}: controls not shown whole as they take the focus`);
      await pane().getByRole('button', { name: 'Close settings' }).click();
      await settings().waitFor({ state: 'detached' });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual(d.pageErrors, []);
  });
});
