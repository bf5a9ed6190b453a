import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { systemClock } from '../../app/core/clock.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { echoServer, saveFakeProvider } from '../support/assistant-fixture.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { nextEvent } from '../support/host-fixture.js';
import { ClockedTaskStore } from '../support/requestor-task-store.js';
import { createTaskToolPeer } from '../support/task-tool-server.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';

describe('a tool call of the assistant on the Tasks and History screens: from which conversation', () => {
  const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 50 });
  const { peer: work } = createTaskToolPeer({ clock: systemClock, store });
  let llm: FakeOpenAIServer;
  let d: DeskFixture;
  let page: Page;
  let conversationId: string;
  let fromChat: string;
  let byHand: string;
  /** The links to the conversation that land on each of its calls: the task's (c1) and the plain call's (c2). */
  let taskHref: string;
  let callHref: string;

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    d = await startDesk(
      { work, tools: echoServer('tools') },
      { host: { keyStore: new InMemoryKeyStore() }, viewport: { width: 1200, height: 1200 } }
    );
    page = d.page;
    const host = d.fixture.host;
    await saveFakeProvider(host, llm.baseURL);
    for (const serverId of ['work', 'tools'])
      await host.call('assistant.setPolicy', { serverId, policy: { mode: 'auto', alwaysAllow: [] } });
    const chat = await host.call('assistant.create', {
      title: 'Quarterly numbers',
      providerId: 'fake',
      model: 'fake-small',
      serverIds: ['work', 'tools']
    });
    conversationId = chat.id;
    llm.enqueue(
      {
        kind: 'tool-calls',
        calls: [
          { id: 'c1', name: 'work__work-required', arguments: '{"durationMs":100,"label":"numbers"}' },
          { id: 'c2', name: 'tools__echo', arguments: '{"message":"from the chat"}' }
        ]
      },
      { kind: 'text', tokens: ['Both ran.'] },
      { kind: 'text', tokens: ['Done.'] }
    );
    const ended = nextEvent(
      host,
      'outbound.changed',
      (event) => event.type === 'changed' && event.task.toolName === 'work-required' && event.task.outcome !== undefined
    );
    await host.call('assistant.send', { conversationId, text: 'Run the numbers' });
    const event = await ended;
    fromChat = event.type === 'changed' ? event.task.outboundId : assert.fail('no task');
    // Each call by the Assistant's own id for it (the model's ids may repeat across turns).
    const calls = (await host.call('assistant.get', { conversationId })).messages.flatMap((m) =>
      m.role === 'assistant' ? m.toolCalls : []
    );
    const linkTo = (id: string) =>
      `#assistant/${encodeURIComponent(conversationId)}/${encodeURIComponent(calls.find((c) => c.id === id)!.callId!)}`;
    taskHref = linkTo('c1');
    callHref = linkTo('c2');
    // The person's own call of the same tool, from the Tools screen's path.
    const own = await host.call('tools.call', {
      serverId: 'work',
      name: 'work-required',
      arguments: { durationMs: 50 }
    });
    byHand = own.type === 'task' ? own.task.outboundId : assert.fail('not a task');
    // A second conversation: the link has to pick the right one, not just open the screen.
    await host.call('assistant.create', {
      title: 'Holiday plans',
      providerId: 'fake',
      model: 'fake-small',
      serverIds: []
    });
  });

  after(async () => {
    await d?.close();
    await llm?.close();
    store.close();
  });

  /** The conversation the detail names: its words, and the link's fragment (none when there is no link). */
  async function origin(detail: Locator): Promise<{ text: string; href: string | null }> {
    const line = detail.locator('.call-origin');
    await line.waitFor();
    const links = line.getByRole('link');
    return {
      text: ((await line.textContent()) ?? '').trim(),
      href: (await links.count()) === 0 ? null : await links.getAttribute('href')
    };
  }

  it('the Tasks detail of the assistant’s task names its conversation and links to it; the person’s task says nothing', async () => {
    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    const row = (outboundId: string) => tasks.locator(`tr[data-task-key="requested:${outboundId}"]`);
    await row(byHand).waitFor();
    // A small word in the row, not the conversation: the detail names it.
    assert.match((await row(fromChat).locator('td.kind').textContent()) ?? '', /Requested · by the Assistant/);
    assert.doesNotMatch((await row(byHand).locator('td.kind').textContent()) ?? '', /Assistant/);

    await row(fromChat)
      .getByRole('button', { name: /^Details of Tool call work-required / })
      .click();
    const detail = tasks.locator(`.task-detail[data-task-key="requested:${fromChat}"]`);
    assert.deepEqual(await origin(detail), { text: 'From the Assistant, in “Quarterly numbers”', href: taskHref });
    await detail.getByRole('button', { name: 'Close' }).click();

    await row(byHand)
      .getByRole('button', { name: /^Details of Tool call work-required / })
      .click();
    const own = tasks.locator(`.task-detail[data-task-key="requested:${byHand}"]`);
    await own.getByRole('heading', { name: 'Timeline' }).waitFor();
    assert.equal(await own.locator('.call-origin').count(), 0);
    await own.getByRole('button', { name: 'Close' }).click();
  });

  it('the History entries of its task and of its plain call name the conversation; its link opens the Assistant', async () => {
    await page.locator('nav').getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    const task = history.locator(`li[data-history-id="requested:${fromChat}"]`);
    const call = history.locator('li[data-history-id^="call:"]');
    await call.waitFor();
    assert.match((await task.locator('.meta').textContent()) ?? '', / · by the Assistant · /);
    assert.match((await call.locator('.meta').textContent()) ?? '', / · by the Assistant · /);
    assert.doesNotMatch(
      (await history.locator(`li[data-history-id="requested:${byHand}"] .meta`).textContent()) ?? '',
      /Assistant/
    );

    const detail = history.locator('.history-detail');
    const expected = { text: 'From the Assistant, in “Quarterly numbers”', href: taskHref };
    await call.locator('.history-title').click();
    await detail.getByRole('heading', { name: 'Tool call: echo', exact: true }).waitFor();
    assert.deepEqual(await origin(detail), { ...expected, href: callHref });
    await detail.getByRole('button', { name: 'Close' }).click();

    await task.locator('.history-title').click();
    await history.locator(`.history-detail[data-history-id="requested:${fromChat}"]`).waitFor();
    assert.deepEqual(await origin(detail), expected);
    await detail.locator('.call-origin').getByRole('link', { name: '“Quarterly numbers”' }).click();
    assert.equal(await page.evaluate(() => location.hash), expected.href);
    await page.locator('section.chat-pane').getByRole('heading', { name: 'Quarterly numbers' }).waitFor();
  });

  it('its link shows that conversation on the Assistant, each time it is followed, in a narrow window too', async () => {
    const list = page.getByRole('navigation', { name: 'Conversations' });
    const pane = page.locator('section.chat-pane');
    const href = taskHref;
    /** Shows the other conversation first, so that only the link can bring this one back. */
    async function showOther(folded: boolean) {
      await page.locator('nav').getByRole('link', { name: 'Assistant', exact: true }).click();
      if (folded) await list.getByRole('button', { name: /^Conversations/ }).click();
      await list.getByRole('option').filter({ hasText: 'Holiday plans' }).click();
      await pane.getByRole('heading', { name: 'Holiday plans' }).waitFor();
    }
    async function followFromTasks() {
      await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
      const tasks = page.getByRole('region', { name: 'Tasks' });
      await tasks
        .locator(`tr[data-task-key="requested:${fromChat}"]`)
        .getByRole('button', { name: /^Details of Tool call work-required / })
        .click();
      await tasks
        .locator(`.task-detail[data-task-key="requested:${fromChat}"] .call-origin`)
        .getByRole('link', { name: '“Quarterly numbers”' })
        .click();
    }
    async function followFromHistory() {
      await page.locator('nav').getByRole('link', { name: 'History', exact: true }).click();
      const history = page.getByRole('region', { name: 'History' });
      await history.locator(`li[data-history-id="requested:${fromChat}"] .history-title`).click();
      await history
        .locator(`.history-detail[data-history-id="requested:${fromChat}"] .call-origin`)
        .getByRole('link', { name: '“Quarterly numbers”' })
        .click();
    }
    /** The Assistant shows the linked conversation, its messages, with the focus on the call the link names. */
    async function showsLinked() {
      assert.equal(await page.evaluate(() => location.hash), href);
      await pane.getByRole('heading', { name: 'Quarterly numbers' }).waitFor();
      assert.equal(await pane.getAttribute('data-conversation-id'), conversationId);
      await pane.locator('[data-role="user"]').getByText('Run the numbers').waitFor();
      const callId = decodeURIComponent(href.slice(href.lastIndexOf('/') + 1));
      await page.waitForFunction((id) => (document.activeElement as HTMLElement | null)?.dataset.callId === id, callId);
      assert.equal(
        await page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
        'Tool call work-required on Server work'
      );
    }

    await showOther(false);
    await followFromTasks();
    await showsLinked();
    assert.equal(
      await list.getByRole('option', { selected: true }).getAttribute('data-conversation-id'),
      conversationId
    );
    // Followed again after another screen, the link opens it again.
    await followFromTasks();
    await showsLinked();
    // The person's own choice then holds, and the address stops naming the linked conversation.
    await list.getByRole('option').filter({ hasText: 'Holiday plans' }).click();
    await pane.getByRole('heading', { name: 'Holiday plans' }).waitFor();
    assert.equal(await page.evaluate(() => location.hash), '#assistant');
    await followFromHistory();
    await showsLinked();

    // Narrow, the list folds behind its button: that names the linked conversation too.
    await page.setViewportSize({ width: 800, height: 1200 });
    try {
      await showOther(true);
      await followFromHistory();
      await showsLinked();
      assert.match(
        (await list.getByRole('button', { name: /^Conversations/ }).textContent()) ?? '',
        /Quarterly numbers/
      );
    } finally {
      await page.setViewportSize({ width: 1200, height: 1200 });
    }

    // An address naming no conversation says so, as Tasks does for a task it does not know.
    await page.evaluate(() => {
      location.hash = '#assistant/no-such-conversation';
    });
    const gone = page.getByText('Taskdesk no longer holds this conversation', { exact: false });
    await gone.waitFor();
    await page.waitForFunction(() => document.activeElement?.textContent?.startsWith('Taskdesk no longer holds'));
    assert.equal(await pane.count(), 0);
    assert.equal(await list.getByRole('option', { selected: true }).count(), 0);
    assert.equal(await list.getByRole('option').count(), 2);
    assert.deepEqual(d.pageErrors, []);
  });

  it('once the conversation is deleted, its calls say so, without a link', async () => {
    const gone = nextEvent(
      d.fixture.host,
      'assistant.changed',
      (event) => event.conversationId === conversationId && !event.conversation
    );
    await d.fixture.host.call('assistant.delete', { conversationId });
    await gone;
    await page.locator('nav').getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    const detail = history.locator('.history-detail');
    await history.locator(`li[data-history-id="requested:${fromChat}"] .history-title`).click();
    await detail.locator('.call-origin', { hasText: 'since deleted' }).waitFor();
    assert.deepEqual(await origin(detail), {
      text: 'From the Assistant (a conversation since deleted)',
      href: null
    });
    assert.deepEqual(d.pageErrors, []);
  });
});
