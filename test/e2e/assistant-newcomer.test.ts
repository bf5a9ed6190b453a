import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { echoServer } from '../support/assistant-fixture.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import type { PeerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { root } from './renderer-build.js';

type ChatMessage = { role: string; content?: unknown };

/**
 * What a newcomer met in the Assistant at 800×600: a new chat's model and servers, Save in the
 * settings, a call that comes to wait for approval while the settings are open, Enter in the
 * message box while a call waits, and Enter in an approval's argument form.
 */
describe('the Assistant as a newcomer meets it, at 800×600', () => {
  let llm: FakeOpenAIServer;
  let d: DeskFixture;
  let page: Page;
  // Read when a server connects: one added later is put in here before it is added.
  const peers: Record<string, PeerServer> = { work: echoServer('work'), desk: echoServer('desk') };
  const pane = (): Locator => page.locator('section.chat-pane');
  const settings = (): Locator => pane().getByRole('form', { name: 'Conversation settings' });
  const header = (): Locator => pane().locator('.chat-header');
  const currentId = async (): Promise<string> => (await pane().getAttribute('data-conversation-id'))!;
  const focusedName = () =>
    page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent);
  const newChat = async () => {
    const before = (await pane().count()) > 0 ? await currentId() : null;
    await page.getByRole('button', { name: '+ New chat' }).click();
    await page.waitForFunction((old) => {
      const id = document.querySelector('section.chat-pane')?.getAttribute('data-conversation-id');
      return id != null && id !== old;
    }, before);
  };

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small', 'fake-large'] });
    d = await startDesk(peers, { host: { keyStore: new InMemoryKeyStore() }, viewport: { width: 800, height: 600 } });
    page = d.page;
    await d.fixture.host.call('providers.save', {
      id: 'fake',
      name: 'Fake LLM',
      baseURL: llm.baseURL,
      models: [{ name: 'fake-small' }, { name: 'fake-large' }],
      defaultModel: 'fake-large'
    });
    await page.locator('nav').getByRole('link', { name: 'Assistant', exact: true }).click();
  });

  after(async () => {
    await d?.close();
    await llm?.close();
  });

  it('starts a new chat on the provider’s default model, then on the model of the chat the person was in; Save closes the settings', async () => {
    await newChat();
    await header().getByText('Fake LLM · fake-large · tools of Server work, Server desk', { exact: true }).waitFor();

    await pane().getByRole('button', { name: 'Settings', exact: true }).click();
    await settings().locator('.chat-settings-grid select').nth(1).selectOption('fake-small');
    await settings().getByRole('button', { name: 'Save settings' }).click();
    await settings().waitFor({ state: 'detached' });
    assert.equal(await focusedName(), 'Settings', 'the focus back on the button that opened them');
    await header().getByText('Fake LLM · fake-small · tools of Server work, Server desk', { exact: true }).waitFor();

    await newChat();
    await header().getByText('Fake LLM · fake-small · tools of Server work, Server desk', { exact: true }).waitFor();
    assert.equal(
      (await d.fixture.host.call('assistant.get', { conversationId: await currentId() })).model,
      'fake-small'
    );
    assert.deepEqual(d.pageErrors, []);
  });

  it('offers a new chat a server added since the last chat was made, and leaves unticked one that chat left out', async () => {
    await pane().getByRole('button', { name: 'Settings', exact: true }).click();
    await settings().getByLabel('Server desk', { exact: true }).uncheck();
    await settings().getByRole('button', { name: 'Save settings' }).click();
    await header().getByText('Fake LLM · fake-small · tools of Server work', { exact: true }).waitFor();

    peers.late = echoServer('late');
    await d.fixture.host.call('servers.add', {
      id: 'late',
      name: 'Server late',
      transport: { type: 'stdio', command: 'in-memory-late' }
    });
    await d.fixture.host.call('servers.connect', { serverId: 'late' });
    await newChat();
    await header().getByText('Fake LLM · fake-small · tools of Server work, Server late', { exact: true }).waitFor();
    const chat = await d.fixture.host.call('assistant.get', { conversationId: await currentId() });
    assert.deepEqual(chat.serverIds, ['work', 'late']);

    // From this chat on, the person had their chance: their choice stands.
    await pane().getByRole('button', { name: 'Settings', exact: true }).click();
    await settings().getByLabel('Server late', { exact: true }).uncheck();
    await settings().getByRole('button', { name: 'Save settings' }).click();
    await header().getByText('Fake LLM · fake-small · tools of Server work', { exact: true }).waitFor();
    await newChat();
    await header().getByText('Fake LLM · fake-small · tools of Server work', { exact: true }).waitFor();
    assert.deepEqual(d.pageErrors, []);
  });

  it('sets the open settings aside when a call comes to wait for approval, in sight at 800×600; Settings brings them back as they were', async () => {
    await pane().getByRole('button', { name: 'Settings', exact: true }).click();
    await settings().getByLabel('Title').fill('Half typed');
    await page.screenshot({ path: path.join(root, '.tmp/assistant-newcomer-settings-open.png') });
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'a1', name: 'work__echo', arguments: '{"message":"hello"}' }] },
      { kind: 'text', tokens: ['Echoed.'] }
    );
    // Sent from elsewhere (another window), while the person types in the settings here.
    await d.fixture.host.call('assistant.send', { conversationId: await currentId(), text: 'Please echo hello' });
    const approval = pane().getByRole('group', { name: 'Approve echo?' });
    await approval.waitFor();
    await settings().waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.activeElement?.textContent === 'Settings');
    assert.equal(
      await pane().getByRole('button', { name: 'Settings', exact: true }).getAttribute('aria-expanded'),
      'false'
    );
    await page
      .locator('.sr-only[aria-live="polite"]')
      .getByText('A tool call waits for your approval: the settings are set aside, Settings shows them again.')
      .waitFor({ state: 'attached' });
    // No function declared inside the page function: tsx would name it with a helper the page lacks.
    const seen = await approval.evaluate((group) => {
      const log = group.closest('.chat-messages')!.getBoundingClientRect();
      return [group.querySelector('p')!, group.querySelector('button.primary')!]
        .map((part) => part.getBoundingClientRect())
        .map((box) => box.height > 0 && box.top >= log.top - 0.5 && box.bottom <= log.bottom + 0.5);
    });
    await page.screenshot({ path: path.join(root, '.tmp/assistant-newcomer-approval-arrived.png') });
    assert.deepEqual(seen, [true, true], 'the call’s line and its Approve in sight in the messages');

    await pane().getByRole('button', { name: 'Settings', exact: true }).click();
    await settings().waitFor();
    assert.equal(await settings().getByLabel('Title').inputValue(), 'Half typed', 'what was typed is kept');
    await pane().getByRole('button', { name: 'Close settings' }).click();
    await page
      .getByRole('dialog', { name: 'Discard your changes?' })
      .getByRole('button', { name: 'Discard changes' })
      .click();
    await settings().waitFor({ state: 'detached' });
    assert.deepEqual(d.pageErrors, []);
  });

  it('says by the message box why Enter sends nothing while a call waits for approval, keeping the text', async () => {
    const box = pane().getByLabel('Your message');
    await box.fill('And then?');
    await box.press('Enter');
    const note = pane().locator('.chat-composer').getByText('Approve or deny the call above first, or Stop.', {
      exact: true
    });
    await note.waitFor({ timeout: 10_000 });
    await page
      .locator('.sr-only[aria-live="polite"]')
      .getByText('Not sent. Approve or deny the call above first, or Stop.')
      .waitFor({ state: 'attached' });
    assert.equal(await box.inputValue(), 'And then?', 'the text stays');
    assert.equal(
      await box.evaluate((field) => document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent),
      'Approve or deny the call above first, or Stop.'
    );
    const inPane = await pane().evaluate((section) => {
      const box = section.getBoundingClientRect();
      const line = section.querySelector('.chat-held-note')!.getBoundingClientRect();
      return line.top >= box.top && line.bottom <= box.bottom + 0.5;
    });
    assert.ok(inPane, 'the note in sight at 800×600');
    await page.screenshot({ path: path.join(root, '.tmp/assistant-newcomer-enter-held.png') });

    await pane()
      .getByRole('group', { name: 'Approve echo?' })
      .getByRole('button', { name: 'Approve', exact: true })
      .click();
    await pane().locator('[data-role="assistant"]').getByText('Echoed.').waitFor();
    await note.waitFor({ state: 'detached' });
    llm.enqueue({ kind: 'text', tokens: ['Then this.'] });
    await box.press('Enter');
    await pane().locator('[data-role="assistant"]').getByText('Then this.').waitFor();
    // The box empties once the host has taken the message (its answer to the send), which may come
    // after the answer's first words, streamed on the event stream.
    await page.waitForFunction((field) => (field as HTMLTextAreaElement).value === '', await box.elementHandle());
    assert.deepEqual(d.pageErrors, []);
  });

  it('approves with the edits on Enter in a one-line field of the arguments form', async () => {
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'a2', name: 'work__echo', arguments: '{"message":"from the model"}' }] },
      { kind: 'text', tokens: ['Echoed again.'] }
    );
    const box = pane().getByLabel('Your message');
    await box.fill('Echo once more');
    await box.press('Enter');
    const approval = pane().getByRole('group', { name: 'Approve echo?' });
    await approval.getByRole('button', { name: 'Edit arguments' }).click();
    const message = approval.getByRole('group', { name: 'Arguments', exact: true }).getByLabel('message');
    await message.fill('typed, then Enter');
    await message.press('Enter');
    await pane().locator('[data-tool-call-id="a2"][data-state="completed"]').waitFor({ timeout: 10_000 });
    await pane().locator('[data-role="assistant"]').getByText('Echoed again.').waitFor();
    const tool = (llm.chatRequests.at(-1)!.body.messages as ChatMessage[]).findLast((m) => m.role === 'tool');
    assert.match(String(tool?.content), /Echo: typed, then Enter$/);
    assert.deepEqual(d.pageErrors, []);
  });

  it('starts a new chat on the provider of the chat the person was in, not the first one configured', async () => {
    await d.fixture.host.call('providers.save', {
      id: 'other',
      name: 'Other LLM',
      baseURL: llm.baseURL,
      models: [{ name: 'other-model' }]
    });
    await pane().getByRole('button', { name: 'Settings', exact: true }).click();
    await settings().locator('.chat-settings-grid select').first().selectOption('other');
    await settings().getByRole('button', { name: 'Save settings' }).click();
    await header()
      .getByText(/^Other LLM · other-model · /)
      .waitFor();
    await newChat();
    await header()
      .getByText(/^Other LLM · other-model · /)
      .waitFor();
    assert.equal(
      (await d.fixture.host.call('assistant.get', { conversationId: await currentId() })).providerId,
      'other'
    );
    assert.deepEqual(d.pageErrors, []);
  });

  it('says in a chat’s header which of its servers was removed, by the id it had', async () => {
    const { host } = d.fixture;
    const { id } = await host.call('assistant.create', {
      title: 'Gone server',
      providerId: 'fake',
      model: 'fake-small',
      serverIds: ['work', 'late']
    });
    // At 800 px the list is folded behind its button.
    const list = page.getByRole('navigation', { name: 'Conversations' });
    await list.getByRole('button', { name: /^Conversations/ }).click();
    await list.getByText('Gone server', { exact: true }).click();
    await page.waitForFunction(
      (wanted) => document.querySelector('section.chat-pane')?.getAttribute('data-conversation-id') === wanted,
      id
    );
    await header().getByText('Fake LLM · fake-small · tools of Server work, Server late', { exact: true }).waitFor();
    await host.call('servers.remove', { serverId: 'late' });
    await header().getByText('Fake LLM · fake-small · tools of Server work, late (removed)', { exact: true }).waitFor();
    assert.deepEqual(d.pageErrors, []);
  });

  it('says in a chat’s header which of its servers is not connected, as its settings do, until it is again', async () => {
    const { host } = d.fixture;
    await host.call('servers.disconnect', { serverId: 'work' });
    await header()
      .getByText('Fake LLM · fake-small · tools of Server work (not connected), late (removed)', { exact: true })
      .waitFor();
    await pane().getByRole('button', { name: 'Settings', exact: true }).click();
    await settings().getByText('(not connected: its tools are not offered)').waitFor();
    await pane().getByRole('button', { name: 'Close settings' }).click();
    await settings().waitFor({ state: 'detached' });
    await host.call('servers.connect', { serverId: 'work' });
    await header().getByText('Fake LLM · fake-small · tools of Server work, late (removed)', { exact: true }).waitFor();
    assert.deepEqual(d.pageErrors, []);
  });

  it('+ New chat in a chat just started, with nothing sent, replaces it: one "New chat" is listed, made with today’s settings', async () => {
    const { host } = d.fixture;
    await newChat();
    const untouched = await host.call('assistant.get', { conversationId: await currentId() });
    assert.equal(untouched.serverIds.includes('fresh'), false);
    const listed = (await host.call('assistant.list', {})).map((s) => s.id);
    // Added after the untouched chat was made: a chat made now offers it (see `startingServers`).
    peers.fresh = echoServer('fresh');
    await host.call('servers.add', {
      id: 'fresh',
      name: 'Server fresh',
      transport: { type: 'stdio', command: 'in-memory-fresh' }
    });
    await host.call('servers.connect', { serverId: 'fresh' });
    await newChat();
    const made = await host.call('assistant.get', { conversationId: await currentId() });
    assert.notEqual(made.id, untouched.id);
    assert.equal(made.serverIds.includes('fresh'), true, 'the new chat has the server added since');
    await header()
      .getByText(/Server fresh/)
      .waitFor();
    const now = (await host.call('assistant.list', {})).map((s) => s.id);
    assert.deepEqual(
      now.filter((id) => id !== made.id).sort(),
      listed.filter((id) => id !== untouched.id).sort(),
      'the untouched chat is gone, nothing else changed'
    );
    // As any new chat: its message box has the focus.
    const focused = await page.waitForFunction(() => {
      const box = document.activeElement;
      if (box?.getAttribute('aria-label') !== 'Your message') return undefined;
      return box.closest('section.chat-pane')?.getAttribute('data-conversation-id') ?? undefined;
    });
    assert.equal(await focused.jsonValue(), made.id);
    assert.deepEqual(d.pageErrors, []);
  });
});
