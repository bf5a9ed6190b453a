import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CreateMessageResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Locator, Page } from 'playwright-core';
import type { ServerConfig } from '../../app/contract/host-api.js';
import { systemClock } from '../../app/core/clock.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { answered, echoServer, saveFakeProvider, settled } from '../support/assistant-fixture.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { peerServer, type PeerServer } from '../support/host-fixture.js';
import { stderrContaining } from '../support/stderr-wait.js';
import { createTaskToolPeer } from '../support/task-tool-server.js';
import { assertNoViolations, assertNoViolationsWideAndNarrow, weeklyReportQuestion, WIDE } from './axe-check.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { openToolForm } from './renderer-build.js';

/** Goes to a screen by its link in the navigation (`screen`: its address), and returns its region. */
async function go(page: Page, screen: string, name: string): Promise<Locator> {
  await page.locator(`nav a[data-screen="${screen}"]`).click();
  const region = page.getByRole('region', { name, exact: true });
  await region.waitFor();
  return region;
}

/** A model request a person approves, from `asker`: it waits in the Inbox. */
function modelRequest(asker: PeerServer, text: string) {
  return asker.server.request(
    {
      method: 'sampling/createMessage',
      params: {
        messages: [{ role: 'user', content: { type: 'text', text } }],
        systemPrompt: 'You are a terse assistant.',
        maxTokens: 60
      }
    },
    CreateMessageResultSchema
  );
}

/**
 * States of the Desk the screens with content do not show by themselves, checked by axe-core
 * against WCAG 2.0 and 2.1 A and AA in light and dark colours: a server that failed to start
 * with its stderr shown, a notice under the bar, answers streaming in (the assistant's, and a
 * model request's live text on the Inbox and Tasks screens), an Inbox model request with its
 * request editor open and a field to correct, its answer to review, a question with fields to
 * correct, a tool's form with a field to correct, and a Tasks filter that matches nothing.
 */
describe('the Desk’s states beyond its screens with content pass axe-core’s WCAG 2.x A and AA rules', () => {
  let llm: FakeOpenAIServer;
  let d: DeskFixture;
  let page: Page;
  const asker = peerServer('asker-peer');
  const runner = peerServer('runner-peer');
  const { peer: jobs } = createTaskToolPeer({ clock: systemClock, pollInterval: 50 });
  const peers: Record<string, PeerServer> = { asker, runner, work: echoServer('work'), jobs };
  const pending: Array<Promise<unknown>> = [];
  /** The in-memory peers by id, and a real child process for any other server (one that fails). */
  const transportFactory = (config: ServerConfig): Transport => {
    const peer = peers[config.id];
    if (!peer) {
      if (config.transport.type !== 'stdio') throw new Error(`${config.id} is not a stdio server`);
      const { command, args } = config.transport;
      return new StdioClientTransport({ command, args: args ?? [], stderr: 'pipe' });
    }
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    void peer.server.connect(serverSide);
    return clientSide;
  };

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    d = await startDesk(peers, {
      host: { keyStore: new InMemoryKeyStore(), transportFactory },
      viewport: WIDE
    });
    page = d.page;
    await saveFakeProvider(d.fixture.host, llm.baseURL);
  });

  after(async () => {
    await d?.close();
    await Promise.allSettled(pending);
    await llm?.close();
  });

  it('Servers: a server that failed to start, its stderr shown', async () => {
    const host = d.fixture.host;
    await host.call('servers.add', {
      id: 'broken',
      name: 'Broken',
      transport: {
        type: 'stdio',
        command: process.execPath,
        args: ['-e', "console.error('Error: missing API_KEY\\n    at start (server.js:3:9)'); process.exit(1)"]
      },
      autoConnect: false
    });
    assert.equal((await host.call('servers.connect', { serverId: 'broken' })).state.status, 'failed');
    await stderrContaining(host, 'broken', 'missing API_KEY');
    const servers = await go(page, 'servers', 'Servers');
    const card = servers.locator('li[data-server-id="broken"]');
    await card.locator('[data-status="failed"]').waitFor();
    await card.getByText('Server output (stderr)').click();
    await card.getByLabel('stderr of Broken').getByText('missing API_KEY').waitFor();
    await assertNoViolations(page, 'a failed server’s card with its stderr');
  });

  it('the notices under the bar: a question the server withdrew', async () => {
    const inbox = await go(page, 'inbox', 'Inbox');
    const controller = new AbortController();
    const asked = asker.server
      .elicitInput(
        {
          mode: 'form',
          message: 'Which archive should I open?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } }
        },
        { signal: controller.signal }
      )
      .catch((error: unknown) => error);
    await inbox.getByRole('article', { name: 'Which archive should I open?' }).waitFor();
    controller.abort('the server gave up');
    await asked;
    await page.locator('.notices .notice-withdrawn').filter({ hasText: 'Which archive should I open?' }).waitFor();
    // Narrow, the strip keeps compact within the bar's area.
    await assertNoViolationsWideAndNarrow(page, 'the notices strip');
  });

  it('Inbox: a question with fields to correct', async () => {
    pending.push(weeklyReportQuestion(asker));
    const inbox = await go(page, 'inbox', 'Inbox');
    const card = inbox.getByRole('article', { name: 'Where should the weekly report go?' });
    await card.getByLabel('Email address').fill('not-an-address');
    await card.getByLabel('Copies').fill('9');
    await card.getByRole('button', { name: 'Submit' }).click();
    await card.getByText('Must be an email address').waitFor();
    await card.getByText('Must be at most 5').waitFor();
    await assertNoViolations(page, 'an Inbox question with fields to correct');
    await card.getByRole('button', { name: 'Decline' }).click();
    await card.waitFor({ state: 'detached' });
  });

  it('Inbox: a model request with its request editor open and no model chosen, then its answer to review', async () => {
    const host = d.fixture.host;
    // A second provider: the card offers a choice of provider, and another one needs a model named.
    await host.call('providers.save', {
      id: 'other',
      name: 'Other LLM',
      baseURL: llm.baseURL,
      models: [{ name: 'fake-small' }]
    });
    const asked = modelRequest(asker, 'Summarise this **week** in one sentence.');
    pending.push(asked);
    const inbox = await go(page, 'inbox', 'Inbox');
    const card = inbox.getByRole('article', { name: 'Server asker asks to run a model' });
    await card.getByRole('button', { name: 'Edit request…' }).click();
    await card.getByLabel('Provider', { exact: true }).selectOption('other');
    await card.getByLabel('Model', { exact: true }).fill('');
    await card.getByRole('button', { name: 'Approve' }).click();
    await card.getByText('Choose the model to run.').waitFor();
    await assertNoViolations(page, 'an Inbox model request, its editor open and a field to correct');

    await card.getByRole('button', { name: 'Write the reply yourself…' }).click();
    await card.getByRole('button', { name: 'Run a model instead' }).waitFor();
    await assertNoViolations(page, 'an Inbox model request, its reply written by hand');
    await card.getByRole('button', { name: 'Run a model instead' }).click();

    llm.enqueue({ kind: 'text', tokens: ['A calm ', 'week.'] });
    await card.getByLabel('Model', { exact: true }).fill('fake-small');
    await card.getByRole('button', { name: 'Approve' }).click();
    const review = inbox.getByRole('button', { name: 'Send answer' });
    await review.waitFor();
    await assertNoViolations(page, 'an Inbox model answer to review');
    await review.click();
    await asked;
  });

  it('Tools: a tool’s form with fields to correct', async () => {
    const tools = await go(page, 'tools', 'Tools');
    await tools.getByLabel('Server', { exact: true }).selectOption('jobs');
    const form = await openToolForm(tools, 'work-required');
    await form.getByLabel('durationMs').fill('-5');
    await form.getByRole('button', { name: 'Call tool' }).click();
    await form.getByText('Must be 0 or more').waitFor();
    await assertNoViolations(page, 'a tool’s form with a field to correct');
  });

  it('Tasks: a filter that matches nothing', async () => {
    const tasks = await go(page, 'tasks', 'Tasks');
    await tasks.getByRole('search', { name: 'Tasks' }).getByLabel('Search').fill('no task is called this');
    await tasks.getByText(/^0 of \d+ tasks match/).waitFor();
    await assertNoViolations(page, 'the Tasks screen, a filter that matches nothing');
  });

  it('a model request run without asking: its text streaming in on the Inbox and Tasks screens', async () => {
    const host = d.fixture.host;
    await host.call('sampling.setPolicy', { serverId: 'runner', policy: { mode: 'auto', reviewCompletion: false } });
    llm.enqueue({ kind: 'hold' });
    const { task } = await runner.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'Write a long poem about autumn.' } }],
          maxTokens: 400,
          task: { ttl: 60_000 }
        }
      },
      CreateTaskResultSchema
    );
    const held = await llm.nextHeld();
    // More lines than the live box shows, in one token: the host passes the first update at once.
    held.push(Array.from({ length: 30 }, (_, n) => `Autumn line ${n + 1}, leaves falling slowly.`).join('\n'));
    const inbox = await go(page, 'inbox', 'Inbox');
    await inbox
      .locator(`[data-live-task-id="${task.taskId}"] .live-text`)
      .getByText(/Autumn line 30/)
      .waitFor();
    await assertNoViolations(page, 'the Inbox, a model writing');
    const tasks = await go(page, 'tasks', 'Tasks');
    await tasks.getByRole('search', { name: 'Tasks' }).getByLabel('Search').fill('');
    const row = tasks.locator(`tr[data-task-id="${task.taskId}"]`);
    await row
      .locator('.live-text')
      .getByText(/Autumn line 30/)
      .waitFor();
    // The box holds more than it shows: the keyboard has to be able to scroll it.
    assert.ok(await row.locator('.live-text').evaluate((box) => box.scrollHeight > box.clientHeight));
    await assertNoViolations(page, 'the Tasks screen, a model writing');
    await row.getByRole('button', { name: /^Details of / }).click();
    await tasks
      .locator('.task-detail .live-text')
      .getByText(/Autumn line 30/)
      .waitFor();
    await assertNoViolations(page, 'a task’s detail, a model writing');
    held.finish();
    await row.locator('[data-status="completed"]').waitFor();
  });

  it('the Assistant: an answer streaming in', async () => {
    const host = d.fixture.host;
    const chat = await host.call('assistant.create', {
      title: 'Streaming',
      providerId: 'fake',
      model: 'fake-small',
      serverIds: []
    });
    llm.enqueue({ kind: 'hold' });
    await host.call('assistant.send', { conversationId: chat.id, text: 'Tell me about the week' });
    const held = await llm.nextHeld();
    // In one token: the host passes the first update at once.
    held.push('The week was **calm**:\n\n- one meeting\n- two reports\n');
    await go(page, 'assistant', 'Assistant');
    await page
      .getByRole('listbox', { name: 'Conversations' })
      .getByRole('option', { name: /Streaming/ })
      .click();
    const pane = page.locator('section.chat-pane');
    await pane.locator('[data-streaming="true"]').getByText('two reports').waitFor();
    await assertNoViolations(page, 'the Assistant, an answer streaming in');
    held.finish();
    await settled(host, chat.id, answered);
    assert.deepEqual(d.pageErrors, []);
  });
});
