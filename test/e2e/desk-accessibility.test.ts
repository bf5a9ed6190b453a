import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Locator, Page } from 'playwright-core';
import { systemClock } from '../../app/core/clock.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { answered, echoServer, saveFakeProvider, settled } from '../support/assistant-fixture.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { inboxHolds, nextEvent, peerServer, type PeerServer } from '../support/host-fixture.js';
import { createTaskToolServer } from '../support/task-tool-server.js';
import { assertNoViolationsWideAndNarrow, WIDE, weeklyReportQuestion } from './axe-check.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { openToolForm, toolCallCard } from './renderer-build.js';
import { openServerSettings } from './server-settings.js';

/** An SDK `McpServer` with tools that run as tasks, as a peer of the in-memory host. */
function taskToolPeer(): PeerServer {
  const { server } = createTaskToolServer({ clock: systemClock, pollInterval: 50 });
  return { server: server.server, notifications: [], nextNotification: () => new Promise(() => undefined) };
}

/**
 * Every screen of the Desk with something on it, checked by axe-core against WCAG 2.0 and 2.1
 * A and AA, in light and dark colours, in a 1200×900 window and again in an 800×600 one (the
 * sections in a narrow row, the chat list folded behind its button, and opened): the Inbox with
 * three kinds of card waiting, a task's detail, a tool's form and result (plain and as a task),
 * History with an entry open, a server's settings and the Add a server form, a provider's card
 * and its test, the audit log, and a chat with a message and a tool call, with its settings and a
 * confirmation dialog open.
 */
describe('every Desk screen, with content on it, wide and narrow, passes axe-core’s WCAG 2.x A and AA rules', () => {
  let llm: FakeOpenAIServer;
  let d: DeskFixture;
  let page: Page;
  const asker: PeerServer = peerServer('asker-peer');
  const peers: Record<string, PeerServer> = { asker, work: echoServer('work'), jobs: taskToolPeer() };
  let questionTaskId: string;
  const pending: Array<Promise<unknown>> = [];
  /** Goes to a screen by its link in the navigation (`screen`: its address), and returns its region. */
  const go = async (screen: string, name: string): Promise<Locator> => {
    await page.locator(`nav a[data-screen="${screen}"]`).click();
    const region = page.getByRole('region', { name, exact: true });
    await region.waitFor();
    return region;
  };

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    d = await startDesk(peers, {
      host: { keyStore: new InMemoryKeyStore() },
      viewport: WIDE
    });
    page = d.page;
    await saveFakeProvider(d.fixture.host, llm.baseURL);
    // A question as a task: it waits in the Inbox, and its task in the Tasks screen.
    const created = await weeklyReportQuestion(asker);
    questionTaskId = created.task.taskId;
    // A model request a person approves, and a link to open over http (its warning shows). They
    // wait unanswered while the file runs: longer than the SDK's default minute for a request.
    const waitsAll = { timeout: 600_000 };
    pending.push(
      asker.server.request(
        {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'Summarise this **week** in one sentence.' } }],
            systemPrompt: 'You are a terse assistant.',
            maxTokens: 60
          }
        },
        CreateMessageResultSchema,
        waitsAll
      ),
      asker.server.request(
        {
          method: 'elicitation/create',
          params: {
            mode: 'url',
            message: 'Connect your calendar account',
            url: 'http://accounts.example.test/connect',
            elicitationId: 'el-1'
          }
        },
        ElicitResultSchema,
        waitsAll
      )
    );
    await inboxHolds(d.fixture.host, 3);
  });

  after(async () => {
    await d?.close();
    // Ended unanswered by the close.
    await Promise.allSettled(pending);
    await llm?.close();
  });

  it('the Inbox, with a question, a model request and a link to open waiting', async () => {
    const inbox = await go('inbox', 'Inbox');
    await inbox.getByRole('article', { name: 'Where should the weekly report go?' }).waitFor();
    await inbox.getByRole('article', { name: 'Server asker asks to run a model' }).waitFor();
    await inbox.getByRole('article', { name: 'Connect your calendar account' }).waitFor();
    await assertNoViolationsWideAndNarrow(page, 'the Inbox');
  });

  it('the Tasks screen, with a task and its detail open', async () => {
    const tasks = await go('tasks', 'Tasks');
    const row = tasks.locator(`tr[data-task-id="${questionTaskId}"]`);
    await row.getByRole('button', { name: /^Details of Question/ }).click();
    await tasks.locator('.task-detail .request-view').waitFor();
    await assertNoViolationsWideAndNarrow(page, 'the Tasks screen');
  });

  it('the Tools screen, with a tool’s form and its result', async () => {
    const tools = await go('tools', 'Tools');
    await tools.getByLabel('Server', { exact: true }).selectOption('work');
    const form = await openToolForm(tools, 'echo');
    await form.getByLabel('message').fill('hello');
    await form.getByRole('button', { name: 'Call tool' }).click();
    await form.locator('.call-result').getByText('Echo: hello').waitFor();
    // A call as a task: its card in the Tool calls list, with its result.
    await tools.getByLabel('Server', { exact: true }).selectOption('jobs');
    const taskForm = await openToolForm(tools, 'work-required');
    await taskForm.getByLabel('durationMs').fill('0');
    await taskForm.getByLabel('label').fill('weekly');
    await taskForm.getByRole('button', { name: 'Call tool' }).click();
    const card = toolCallCard(page.getByRole('region', { name: 'Tool calls' }), 'work-required');
    await card.locator('[data-status="completed"]').waitFor();
    await card.locator('.tool-result').waitFor();
    await assertNoViolationsWideAndNarrow(page, 'the Tools screen');
  });

  it('the History screen, with an entry open', async () => {
    const history = await go('history', 'History');
    await history.locator('li[data-history-id] .history-title').first().click();
    await history.locator('.history-detail').waitFor();
    await assertNoViolationsWideAndNarrow(page, 'the History screen');
  });

  it('the Servers screen, with a server’s settings open and the Add a server form', async () => {
    const servers = await go('servers', 'Servers');
    await openServerSettings(servers.locator('li[data-server-id="asker"]'));
    await page.evaluate(() => (location.hash = '#servers/add'));
    const form = page.getByRole('form', { name: 'Add a server' });
    await page.waitForFunction(() => document.activeElement?.id === 'heading-add-server');
    await form.getByLabel('Id').fill('notes');
    await assertNoViolationsWideAndNarrow(page, 'the Servers screen');
  });

  it('the LLM providers screen, with a provider’s card and its connection tested', async () => {
    const providers = await go('providers', 'LLM providers');
    const card = providers.locator('li[data-provider-id="fake"]');
    await card.getByRole('heading', { name: 'Fake LLM' }).waitFor();
    await card.getByRole('button', { name: 'Test connection to Fake LLM' }).click();
    await card.locator('.test-result[data-test="ok"]').waitFor();
    await assertNoViolationsWideAndNarrow(page, 'the LLM providers screen');
  });

  it('the Audit log, with entries', async () => {
    const audit = await go('audit', 'Audit log');
    await audit.locator('table.audit tbody tr').first().waitFor();
    await assertNoViolationsWideAndNarrow(page, 'the Audit log');
  });

  it('the Assistant, with a chat that has a message and a tool call, its settings open, and the confirmation of a Delete', async () => {
    const host = d.fixture.host;
    const chat = await host.call('assistant.create', {
      title: 'Weekly report',
      providerId: 'fake',
      model: 'fake-small',
      serverIds: ['work']
    });
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'call_echo', name: 'work__echo', arguments: '{"message":"hi"}' }] },
      { kind: 'text', tokens: ['The tool said ', '**Echo: hi**.'] }
    );
    const approval = nextEvent(host, 'assistant.approval', (event) => event.conversationId === chat.id);
    await host.call('assistant.send', { conversationId: chat.id, text: 'Say hi through the tool' });
    await approval;
    await go('assistant', 'Assistant');
    await page
      .getByRole('listbox', { name: 'Conversations' })
      .getByRole('option', { name: /Weekly report/ })
      .click();
    const pane = page.locator('section.chat-pane');
    const card = pane.getByRole('group', { name: 'Approve echo?' });
    await card.waitFor();
    // Narrow, the conversation list folds behind its button: opened, it lies over the chat.
    const toggle = page.getByRole('button', { name: /^Conversations/ });
    await assertNoViolationsWideAndNarrow(page, 'the Assistant, a tool call waiting for approval', async () => {
      await toggle.click();
      await page.getByRole('listbox', { name: 'Conversations' }).waitFor();
      assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
      return async () => {
        // Escape folds it again (the focus on its button).
        await page.keyboard.press('Escape');
        await page.waitForFunction(() => document.querySelector('.chat-list-open') === null);
      };
    });

    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    await settled(host, chat.id, answered);
    await pane.getByText('Echo: hi', { exact: true }).first().waitFor();
    await assertNoViolationsWideAndNarrow(page, 'the Assistant, a tool call done and answered');

    await pane.getByRole('button', { name: 'Settings', exact: true }).click();
    await pane.getByRole('form', { name: 'Conversation settings' }).waitFor();
    await assertNoViolationsWideAndNarrow(page, 'the Assistant, the chat’s settings');

    // The confirmation a Delete asks for, answered No.
    await pane.getByRole('button', { name: 'Delete conversation' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this conversation?' });
    await dialog.waitFor();
    await assertNoViolationsWideAndNarrow(page, 'the confirmation dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.deepEqual(d.pageErrors, []);
  });
});
