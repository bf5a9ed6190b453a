import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { type Browser, type Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { peerServer, startHostWith, type InMemoryHostFixture, type PeerServer } from '../support/host-fixture.js';
import { buildRenderer, root, openDesk } from './renderer-build.js';
import { openServerSettings } from './server-settings.js';
import { recordSaid, said, saidTimes } from './live-region.js';
import { passUndoWindow } from './undo-window.js';

const SCREENSHOT = path.join(root, '.tmp/sampling-approval-edit.png');

describe('sampling policy, request editing and live text in the UI', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let llm: FakeOpenAIServer;
  let peer: PeerServer;
  let fixture: InMemoryHostFixture;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
    llm = await FakeOpenAIServer.start({ models: ['fake-small', 'fake-large'] });
    peer = peerServer('policy-peer');
    fixture = await startHostWith({ p: peer }, { keyStore: new InMemoryKeyStore() });
    await fixture.host.call('providers.save', {
      id: 'fake',
      name: 'Fake LLM',
      baseURL: llm.baseURL,
      models: [{ name: 'fake-small' }, { name: 'fake-large' }],
      defaultModel: 'fake-small'
    });
    await fixture.host.call('providers.save', {
      id: 'other',
      name: 'Other LLM',
      baseURL: llm.baseURL,
      models: [{ name: 'other-model' }]
    });
    // The page's clock installed, so that a test ends a held answer's undo window at once (passUndoWindow).
    ({ server, browser, page } = await openDesk(fixture.host, built.dir, pageErrors, {
      viewport: { width: 1100, height: 1300 },
      beforeLoad: (opened) => opened.clock.install()
    }));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await fixture?.dispose();
    await llm?.close();
    built?.remove();
  });

  function ask(text: string, extra: Record<string, unknown> = {}) {
    return peer.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text } }],
          maxTokens: 20,
          task: { ttl: 60_000 },
          ...extra
        }
      },
      CreateTaskResultSchema
    );
  }

  it('approves a request with an edited system prompt and message: the model receives the edits', async () => {
    llm.enqueue({ kind: 'text', tokens: ['Edited', ' reply'] });
    const before = llm.chatRequests.length;
    const tools = [
      {
        name: 'lookup_weather',
        description: 'Current weather for a city',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } } }
      }
    ];
    const { task } = await ask('What is the weather in Oslo?', {
      systemPrompt: 'Be brief.',
      tools,
      toolChoice: { mode: 'auto' }
    });
    const approval = page.getByRole('article', { name: 'Server p asks to run a model' });
    await approval.waitFor();
    const offered = approval.getByRole('list', { name: 'Tools offered to the model' });
    assert.match((await offered.textContent()) ?? '', /lookup_weather — Current weather for a city/);
    assert.match(
      (await approval.locator('.offered-tools').textContent()) ?? '',
      /Tools offered \(1\): The model may call them\./
    );

    const toggle = approval.getByRole('button', { name: 'Edit request…' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    const system = approval.getByLabel('System prompt');
    assert.ok(await system.evaluate((element) => element === document.activeElement), 'focus moves to the first field');
    assert.equal(await system.inputValue(), 'Be brief.');
    await system.fill('Answer as a pirate.');
    await approval.getByLabel('Message 1 (user)').fill('What is the weather in Bergen?');
    // Two providers: the provider can be chosen too; the model suggestions follow it.
    assert.equal(await approval.getByLabel('Provider').inputValue(), 'fake');
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    await approval.getByRole('button', { name: 'Approve' }).click();
    await approval.waitFor({ state: 'detached' });

    const review = page.getByRole('article', { name: 'Review the answer for Server p' });
    await review.waitFor();
    const body = llm.chatRequests[before]!.body;
    assert.deepEqual(body.messages[0], { role: 'system', content: 'Answer as a pirate.' });
    assert.match(JSON.stringify(body.messages[1]), /What is the weather in Bergen\?/);
    assert.equal(body.tools?.[0]?.function?.name, 'lookup_weather', 'the tools went through unchanged');
    assert.equal(body.model, 'fake-small');
    const result = peer.server.request(
      { method: 'tasks/result', params: { taskId: task.taskId } },
      CreateMessageResultSchema
    );
    await review.getByRole('button', { name: 'Send answer' }).click();
    assert.deepEqual((await result).content, { type: 'text', text: 'Edited reply' });
    const audit = await fixture.host.call('audit.read', { taskId: task.taskId });
    assert.ok(
      audit.some((entry) => entry.type === 'sampling.request' && JSON.stringify(entry).includes('approved-with-edits'))
    );

    // History keeps both: what the server sent, and what ran with the person's changes.
    await page.getByRole('link', { name: 'History' }).click();
    const history = page.getByRole('region', { name: 'History' });
    const row = history.locator(`li[data-history-id="received:${task.taskId}"]`);
    await row.getByText('changed by you').waitFor();
    assert.ok(
      await history.getByLabel('Status').locator('option', { hasText: 'Rejected' }).count(),
      'the status filter offers Rejected, as the rows say it'
    );
    await row.locator('.history-title').click();
    const detail = history.locator('.history-detail');
    const ran = detail.getByRole('region', { name: 'What ran (your changes)' });
    await ran.waitFor();
    assert.match(
      (await ran.textContent()) ?? '',
      /You changed the messages and the system prompt before approving it.*What is the weather in Bergen\?/s
    );
    assert.match((await ran.locator('.json').textContent()) ?? '', /Answer as a pirate\./);
    assert.match((await detail.locator('.request-view').first().textContent()) ?? '', /weather in Oslo\?/);
    assert.doesNotMatch((await detail.locator('.request-view').first().textContent()) ?? '', /Bergen/);
    await detail.getByRole('button', { name: 'Close' }).click();

    // The Tasks screen's detail of the same task says it too, from the task Taskdesk still keeps.
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    const taskRow = tasks.locator(`tr[data-task-key="received:${task.taskId}"]`);
    // Its row says so as History's does (the row of a task nobody changed does not): at 1100 px
    // under its title, where the narrow table says its kind.
    assert.match(
      (await taskRow.locator('.task-meta').innerText()).replace(/\s+/g, ' '),
      /^Model request · Received from .+ · changed by you$/
    );
    await taskRow.getByRole('button', { name: /^Details of / }).click();
    const taskDetail = tasks.locator('.task-detail');
    await taskDetail
      .locator('.meta')
      .getByText(/changed by you before it ran/)
      .waitFor();
    assert.equal(await taskDetail.getByRole('heading', { name: 'Request (as the server sent it)' }).count(), 1);
    const taskRan = taskDetail.getByRole('region', { name: 'What ran (your changes)' });
    await taskRan.waitFor();
    assert.match(
      (await taskRan.textContent()) ?? '',
      /You changed the messages and the system prompt before approving it.*What is the weather in Bergen\?/s
    );
    assert.match((await taskRan.locator('.json').textContent()) ?? '', /Answer as a pirate\./);
    assert.match((await taskDetail.locator('.request-view').first().textContent()) ?? '', /weather in Oslo\?/);
    assert.doesNotMatch((await taskDetail.locator('.request-view').first().textContent()) ?? '', /Bergen/);
    await taskDetail.getByRole('button', { name: 'Close' }).click();
  });

  it('refuses Approve on the card while the provider chosen has no model to run, and keeps the request', async () => {
    // Its address answers nothing, so no model list fills it in either.
    await fixture.host.call('providers.save', {
      id: 'empty',
      name: 'Empty LLM',
      baseURL: 'http://127.0.0.1:1/v1',
      models: []
    });
    try {
      await page.getByRole('link', { name: /^Inbox/ }).click();
      await ask('Which model will answer this?');
      const approval = page.getByRole('article', { name: 'Server p asks to run a model' });
      await approval.waitFor();
      await approval.getByLabel('Provider').selectOption('empty');
      const model = approval.getByLabel('Model');
      assert.equal(await model.inputValue(), '');
      await approval.getByRole('button', { name: 'Approve' }).click();
      const error = approval.locator('.field-error', {
        hasText: 'Empty LLM lists no model: type the name of one it runs, or choose another provider.'
      });
      await error.waitFor();
      assert.equal(await model.evaluate((element) => element === document.activeElement), true);
      assert.equal(await model.getAttribute('aria-invalid'), 'true');
      assert.equal(fixture.host.inbox.list().length, 1, 'the request still waits, nothing ran');
      // Another provider clears the complaint.
      await approval.getByLabel('Provider').selectOption('fake');
      await error.waitFor({ state: 'hidden' });
      const id = await approval.getAttribute('data-inbox-id');
      await approval.getByRole('button', { name: 'Reject' }).click();
      // Sent once its 5 s undo window has passed: the card is kept (hidden) until then.
      await passUndoWindow(page);
      await page.locator(`[data-inbox-id="${id}"]`).waitFor({ state: 'detached' });
    } finally {
      await fixture.host.call('providers.remove', { providerId: 'empty' });
    }
    assert.deepEqual(pageErrors, []);
  });

  it('approved from the keys, a model request’s answer to review comes in its place and takes the focus, not a question asked since', async () => {
    await page.getByRole('link', { name: /^Inbox/ }).click();
    llm.enqueue({ kind: 'text', tokens: ['Reviewed ', 'reply'] });
    const { task } = await ask('Write one line for review.');
    const approval = page.getByRole('article', { name: 'Server p asks to run a model' });
    await approval.waitFor();
    const asked = peer.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'A question asked after the request',
          requestedSchema: { type: 'object', properties: { note: { type: 'string' } } },
          task: { ttl: 60_000 }
        }
      },
      CreateTaskResultSchema
    );
    const question = page.locator('[data-inbox-id]', { hasText: 'A question asked after the request' });
    await question.waitFor();
    await asked;
    await page.locator('#heading-inbox').focus();
    await page.keyboard.press('j');
    await page.waitForFunction(
      (id) => (document.activeElement as HTMLElement | null)?.dataset.inboxId === id,
      task.taskId
    );
    await page.keyboard.press('a');
    const review = page.getByRole('article', { name: 'Review the answer for Server p' });
    await review.waitFor();
    await page.waitForFunction(
      (id) =>
        (document.activeElement as HTMLElement | null)?.dataset.inboxId === id &&
        document.activeElement?.classList.contains('kind-sampling-review') === true,
      task.taskId
    );
    const order = await page
      .locator('[data-inbox-id]')
      .evaluateAll((cards) => cards.map((card) => (card as HTMLElement).dataset.inboxId));
    assert.ok(
      order.indexOf(task.taskId) < order.findIndex((id) => id !== task.taskId),
      'the answer first, as its request was'
    );
    // The page loaded again takes the Inbox from the core, in the same order.
    await page.reload();
    await page.locator('#app[data-ready="true"]').waitFor();
    await review.waitFor();
    assert.deepEqual(
      await page
        .locator('[data-inbox-id]')
        .evaluateAll((cards) => cards.map((card) => (card as HTMLElement).dataset.inboxId)),
      order
    );
    // Cleared for the tests after: the answer rejected, the question declined.
    await review.getByRole('button', { name: 'Reject' }).click();
    await question.getByRole('button', { name: 'Decline' }).click();
    // Both sent once their 5 s undo windows have passed: the cards are kept (hidden) until then.
    await passUndoWindow(page);
    await page.locator(`[data-inbox-id="${task.taskId}"]`).waitFor({ state: 'detached' });
    await question.waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });

  it('a key pressed after a on a model request leaves the focus where it is as the answer to review comes: its arrival is only said', async () => {
    await page.getByRole('link', { name: /^Inbox/ }).click();
    await recordSaid(page);
    // The model answers only when let: the focus has moved on to the question by then.
    llm.enqueue({ kind: 'hold' });
    const { task } = await ask('Write one line, when let.');
    await page.locator(`[data-inbox-id="${task.taskId}"]`).waitFor();
    const asked = peer.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'A question to work on meanwhile',
          requestedSchema: { type: 'object', properties: { note: { type: 'string' } } },
          task: { ttl: 60_000 }
        }
      },
      CreateTaskResultSchema
    );
    const question = page.locator('[data-inbox-id]', { hasText: 'A question to work on meanwhile' });
    await question.waitFor();
    const questionId = (await asked).task.taskId;
    const focusedId = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.inboxId);
    await page.locator('#heading-inbox').focus();
    await page.keyboard.press('j');
    await page.waitForFunction(
      (id) => (document.activeElement as HTMLElement | null)?.dataset.inboxId === id,
      task.taskId
    );
    await page.keyboard.press('a');
    await page.waitForFunction(
      (id) => (document.activeElement as HTMLElement | null)?.dataset.inboxId === id,
      questionId
    );
    await saidTimes(page, /Approved; fake-small is running\./);
    // k on the first card leaves the focus on it: the person is at work on the question.
    await page.keyboard.press('k');
    assert.equal(await focusedId(), questionId);
    const stream = await llm.nextHeld();
    stream.push('Answer ', 'to review');
    stream.finish();
    const review = page.getByRole('article', { name: 'Review the answer for Server p' });
    await review.waitFor();
    await saidTimes(page, /New in the inbox: a model answer to review from Server p\./);
    // A frame after the review came in, and the tasks before it: the focus has moved if it was to.
    await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
    assert.equal(await focusedId(), questionId, 'the focus stays on the question the person is on');
    // Said in one order: the approval, then the answer's arrival.
    const heard = (await said(page)).join(' ');
    const approvedAt = heard.indexOf('Approved; fake-small is running.');
    assert.ok(
      approvedAt !== -1 && heard.includes('New in the inbox: a model answer to review from Server p.', approvedAt),
      heard
    );
    // Cleared for the tests after.
    await review.getByRole('button', { name: 'Reject' }).click();
    await question.getByRole('button', { name: 'Decline' }).click();
    await passUndoWindow(page);
    await review.waitFor({ state: 'detached' });
    await question.waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });

  it('switches the server to auto without review: a request completes with no inbox item, showing live text meanwhile', async () => {
    await page.getByRole('link', { name: 'Servers' }).click();
    const item = page.locator('li[data-server-id="p"]');
    await openServerSettings(item);
    const policy = item.getByRole('group', { name: 'Model requests from Server p' });
    await page.locator('li[data-server-id="p"] fieldset[data-policy-mode="ask"]').waitFor();
    assert.equal(await policy.getByLabel('Ask me first').isChecked(), true);
    assert.equal(await policy.getByLabel('Review answers before they go back').isChecked(), true);
    await policy.getByLabel('Run without asking').check();
    await page.locator('li[data-server-id="p"] fieldset[data-policy-mode="auto"] .policy-saved').waitFor();
    assert.ok(
      await item.getByLabel('Run without asking').evaluate((element) => element === document.activeElement),
      'focus stays on the choice'
    );
    await item.getByLabel('Review answers before they go back').uncheck();
    // The change is announced once the host has saved it.
    await page
      .getByRole('status')
      .filter({ hasText: 'Model requests from Server p: Run without asking, answers go back without review.' })
      .waitFor({ state: 'attached' });
    assert.deepEqual(await fixture.host.call('sampling.getPolicy', { serverId: 'p' }), {
      mode: 'auto',
      reviewCompletion: false
    });

    await page.getByRole('link', { name: 'Tasks' }).click();
    llm.enqueue({ kind: 'hold' });
    const { task } = await ask('Write a haiku');
    const held = await llm.nextHeld();
    // The host passes at most ten updates a second: the first one is sure to come at once.
    held.push('Autumn ', 'moonlight');
    const row = page.locator(`tr[data-task-id="${task.taskId}"]`);
    await row.locator('.live-text', { hasText: 'Autumn' }).waitFor();
    assert.match((await row.locator('.live').textContent()) ?? '', /Written by fake-small so far:/);
    await page.getByRole('link', { name: /Inbox/ }).click();
    const live = page.getByRole('list', { name: 'Models writing now' });
    await live.locator(`[data-live-task-id="${task.taskId}"] .live-text`).waitFor();
    assert.equal(await page.getByRole('article').count(), 0, 'nothing waits for approval');

    const result = peer.server.request(
      { method: 'tasks/result', params: { taskId: task.taskId } },
      CreateMessageResultSchema
    );
    held.push(' — a worm digs');
    held.finish();
    const message = await result;
    assert.deepEqual(message.content, { type: 'text', text: 'Autumn moonlight — a worm digs' });
    await live.waitFor({ state: 'hidden' });
    assert.equal(fixture.host.inbox.list().length, 0);
    await page.getByRole('link', { name: 'Tasks' }).click();
    await row.locator('[data-status="completed"]').waitFor();
    assert.equal(await row.locator('.live').count(), 0, 'the live text goes when the task ends');
  });

  it('shows live text for an ordinary (not task) request and takes it away as soon as the stream ends', async () => {
    await page.getByRole('link', { name: /Inbox/ }).click();
    llm.enqueue({ kind: 'hold' });
    const reply = peer.server.request(
      {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'A limerick' } }], maxTokens: 20 }
      },
      CreateMessageResultSchema
    );
    const held = await llm.nextHeld();
    held.push('There once ');
    const live = page.getByRole('list', { name: 'Models writing now' });
    const item = live.locator('li', { hasText: 'There once' });
    await item.waitFor();
    assert.equal(await item.getAttribute('data-live-task-id'), null, 'no task: keyed by server and model');
    held.push('was a host');
    held.finish();
    assert.deepEqual((await reply).content, { type: 'text', text: 'There once was a host' });
    // Gone on the stream's last update, long before the fallback for a stream that never ends.
    await live.waitFor({ state: 'hidden', timeout: 10_000 });
  });

  it('refuses requests when the policy says refuse, without any model call', async () => {
    await page.getByRole('link', { name: 'Servers' }).click();
    const item = page.locator('li[data-server-id="p"]');
    await openServerSettings(item);
    await item.getByLabel('Refuse').check();
    await item.locator('fieldset[data-policy-mode="refuse"] .policy-saved').waitFor();
    assert.equal(await item.getByLabel('Review answers before they go back').isDisabled(), true);
    await page.screenshot({ path: path.join(root, '.tmp/servers-policy.png'), fullPage: true });
    const before = llm.chatRequests.length;
    const { task } = await ask('Anything');
    await page.getByRole('link', { name: 'Tasks' }).click();
    await page.locator(`tr[data-task-id="${task.taskId}"] [data-status="failed"]`).waitFor();
    assert.equal(llm.chatRequests.length, before);
    assert.deepEqual(pageErrors, []);
  });
});
