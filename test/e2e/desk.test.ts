import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  CreateMessageResultSchema,
  CreateTaskResultSchema,
  ElicitResultSchema
} from '@modelcontextprotocol/sdk/types.js';
import { type Browser, type Locator, type Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { peerServer, startHostWith, type InMemoryHostFixture, type PeerServer } from '../support/host-fixture.js';
import { buildRenderer, closeOpenedPages, root, openDesk } from './renderer-build.js';
import { openServerSettings } from './server-settings.js';
import { passUndoWindow } from './undo-window.js';

const SCREENSHOT = path.join(root, '.tmp/desk.png');

const formRequest = {
  mode: 'form',
  message: 'Where should the weekly report go?',
  requestedSchema: {
    type: 'object',
    properties: {
      email: {
        type: 'string',
        format: 'email',
        title: 'Email address',
        description: 'The report is sent here every Monday.'
      },
      copies: { type: 'integer', minimum: 1, maximum: 5, title: 'Copies' },
      format: {
        type: 'string',
        title: 'Format',
        oneOf: [
          { const: 'pdf', title: 'PDF' },
          { const: 'html', title: 'Web page' }
        ]
      }
    },
    required: ['email']
  }
} as const;

const samplingRequest = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Summarise this week in one sentence.' } }],
  systemPrompt: 'You are a terse assistant.',
  maxTokens: 60
} as const;

describe('Taskdesk in headless Chromium, over browser mode, against the real core', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let peer: PeerServer;
  let fixture: InMemoryHostFixture;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
    peer = peerServer('desk-peer');
    fixture = await startHostWith({ desk: peer });
    // The page's clock installed, so that a test ends a held answer's undo window at once (passUndoWindow).
    ({ server, browser, page } = await openDesk(fixture.host, built.dir, pageErrors, {
      viewport: { width: 1100, height: 1300 },
      failedResponses: true,
      beforeLoad: (opened) => opened.clock.install()
    }));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await fixture?.dispose();
    built?.remove();
  });

  it('shows a task-augmented form, puts the per-field errors on their fields, and completes the task with valid content', async () => {
    const created = await peer.server.request(
      { method: 'elicitation/create', params: { ...formRequest, task: { ttl: 120_000 } } },
      CreateTaskResultSchema
    );
    const { taskId } = created.task;
    const card = page.getByRole('article', { name: formRequest.message });
    await card.waitFor();
    assert.equal(await card.getAttribute('data-inbox-id'), taskId);
    const email = card.getByLabel('Email address');
    const copies = card.getByLabel('Copies');
    assert.equal(await email.getAttribute('type'), 'email');
    assert.equal(
      await card
        .getByLabel('Format')
        .locator('option')
        .allTextContents()
        .then((texts) => texts.join('|')),
      '(none)|PDF|Web page'
    );
    await card.getByText('The report is sent here every Monday.').waitFor();

    // tasks/result blocks until the task is done: it returns what the user submits.
    const result = peer.server.request({ method: 'tasks/result', params: { taskId } }, ElicitResultSchema);

    await email.fill('not-an-address');
    await copies.fill('9');
    await card.getByRole('button', { name: 'Submit' }).click();
    const emailError = card.locator(`#${await email.getAttribute('id')}-error`);
    await emailError.waitFor();
    assert.equal(await emailError.textContent(), 'Must be an email address');
    assert.equal(await card.locator(`#${await copies.getAttribute('id')}-error`).textContent(), 'Must be at most 5');
    assert.equal(await email.getAttribute('aria-invalid'), 'true');
    assert.match((await email.getAttribute('aria-describedby')) ?? '', /-error/);
    assert.equal(await card.locator('.action-error-what').textContent(), '2 answers need correcting.');
    // The message's own control is not a second "Dismiss" beside the answer that tells the server so.
    await card.locator('.action-error').getByRole('button', { name: 'Hide message', exact: true }).waitFor();
    assert.equal(await card.getByRole('button', { name: /^Dismiss/ }).count(), 1);
    assert.ok(
      await email.evaluate((element) => element === document.activeElement),
      'focus moves to the first wrong field'
    );
    assert.equal(fixture.host.inbox.list().length, 1, 'the item is still waiting');

    // A sampling request arrives meanwhile: the half-corrected form must survive it.
    const sampling = await peer.server.request(
      { method: 'sampling/createMessage', params: { ...samplingRequest, task: { ttl: 120_000 } } },
      CreateTaskResultSchema
    );
    const samplingCard = page.getByRole('article', { name: 'Server desk asks for a model reply' });
    await samplingCard.waitFor();
    assert.equal(await email.inputValue(), 'not-an-address');
    assert.equal(await page.getByRole('link', { name: /Inbox/ }).locator('.badge').textContent(), '2');

    fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    // The messages follow the fields as they change, before any new submit.
    await email.fill('ada@example.com');
    await emailError.waitFor({ state: 'hidden' });
    assert.equal(await email.getAttribute('aria-invalid'), null);
    const copiesError = card.locator(`#${await copies.getAttribute('id')}-error`);
    await copies.fill('7');
    assert.equal(await copiesError.textContent(), 'Must be at most 5');
    await copies.fill('');
    await copies.fill('2');
    await copiesError.waitFor({ state: 'hidden' });
    await card.getByLabel('Format').selectOption('pdf');
    await card.getByRole('button', { name: 'Submit' }).click();
    await card.waitFor({ state: 'detached' });
    const answered = await result;
    assert.equal(answered.action, 'accept');
    assert.deepEqual(answered.content, { email: 'ada@example.com', copies: 2, format: 'pdf' });

    // The sampling item is answered by a person's reply.
    const reply = peer.server.request(
      { method: 'tasks/result', params: { taskId: sampling.task.taskId } },
      CreateMessageResultSchema
    );
    await samplingCard.getByText('Summarise this week in one sentence.').waitFor();
    await samplingCard.getByText('You are a terse assistant.').waitFor();
    await samplingCard.getByRole('button', { name: 'Send reply' }).click();
    await samplingCard.getByText('Write a reply, or reject the request.').waitFor();
    await samplingCard.getByLabel('Your reply').fill('A quiet week: two tasks done, none late.');
    await samplingCard.getByLabel('Model name').fill('editor');
    await samplingCard.getByRole('button', { name: 'Send reply' }).click();
    await samplingCard.waitFor({ state: 'detached' });
    const message = await reply;
    assert.deepEqual(message.content, { type: 'text', text: 'A quiet week: two tasks done, none late.' });
    assert.equal(message.model, 'editor');
    await page.getByText('Nothing is waiting for you.').waitFor();

    // Both tasks are in the Tasks screen with how they ended.
    await page.getByRole('link', { name: 'Tasks' }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    const formRow = tasks.locator(`tr[data-task-id="${taskId}"]`);
    await formRow.locator('[data-status="completed"]').waitFor();
    // Its status says how the person ended the question, as History does: not "Completed".
    assert.equal(await formRow.locator('[data-status="completed"]').textContent(), 'Answered');
    assert.match((await formRow.textContent()) ?? '', /Question.*Server desk.*Answered/);
    // The answer reads as the form asked for it: the action in words, each field under its title,
    // an option under its own title; no JSON.
    const pairs = (place: Locator) =>
      place
        .locator('.answer-fields > div')
        .evaluateAll((rows) =>
          rows.map((row) => [row.querySelector('dt')?.textContent, row.querySelector('dd')?.textContent])
        );
    const outcome = formRow.locator('td.outcome');
    assert.equal(await outcome.locator('.outcome-text').textContent(), 'Accepted');
    // A list's task is shortened (app/host/task-summary.ts), but keeps a form's option titles:
    // the row names the option as the detail does.
    assert.deepEqual(await pairs(outcome), [
      ['Email address', 'ada@example.com'],
      ['Copies', '2'],
      ['Format', 'PDF']
    ]);
    assert.doesNotMatch((await outcome.textContent()) ?? '', /[{}"]/);
    // The detail too, with the raw JSON one click away and back.
    await formRow.getByRole('button', { name: /^Details of Question/ }).click();
    const detail = tasks.locator('.task-detail');
    const answer = detail.locator('.tool-result');
    await answer.getByText('Answer: Accepted').waitFor();
    assert.deepEqual(await pairs(answer), [
      ['Email address', 'ada@example.com'],
      ['Copies', '2'],
      ['Format', 'PDF']
    ]);
    // What the form asked for reads as a list too, its schema's JSON behind a disclosure.
    assert.deepEqual(await pairs(detail.locator('.request-view')), [
      ['Email address', 'text (email) · required'],
      ['Copies', 'whole number'],
      ['Format', 'one of: PDF, Web page']
    ]);
    await detail.getByText('The fields’ schema (JSON)').waitFor();
    await detail.getByRole('button', { name: 'Raw JSON of the result' }).click();
    assert.deepEqual(JSON.parse((await detail.locator('.result-json pre').textContent()) ?? ''), {
      action: 'accept',
      content: { email: 'ada@example.com', copies: 2, format: 'pdf' }
    });
    assert.equal(await answer.count(), 0);
    await detail.getByRole('button', { name: 'Rendered view of the result' }).click();
    await answer.getByText('Answer: Accepted').waitFor();
    await detail.getByRole('button', { name: 'Close' }).click();
    const samplingRow = tasks.locator(`tr[data-task-id="${sampling.task.taskId}"]`);
    await samplingRow.locator('[data-status="completed"]').waitFor();
    // The person wrote its reply: "Answered", as History says it, not the protocol's "Completed".
    assert.match((await samplingRow.textContent()) ?? '', /Model request.*Server desk.*Answered/);
    assert.match(
      await samplingRow.locator('td.outcome').innerText(),
      /^A quiet week: two tasks done, none late\.\s+\(editor\)$/
    );
    // Its Details say it as its row does.
    await samplingRow.getByRole('button', { name: /^Details of / }).click();
    const samplingDetail = tasks.locator(`.task-detail[data-task-key="received:${sampling.task.taskId}"]`);
    assert.equal(await samplingDetail.locator('.detail-status .status').textContent(), 'Answered');
    await samplingDetail.getByRole('button', { name: 'Close' }).click();
    // History names each kind as the Tasks screen does, and its Kind filter offers the same words.
    const choices = (place: Locator) => place.getByLabel('Kind').locator('option').allTextContents();
    const taskKinds = await choices(tasks);
    assert.deepEqual(taskKinds, ['Any', 'Model request', 'Question', 'Tool call']);
    await page.getByRole('link', { name: 'History' }).click();
    const history = page.getByRole('region', { name: 'History' });
    const kindOf = async (taskId: string) =>
      (await history.locator(`li[data-history-id="received:${taskId}"] .meta`).textContent())?.split(' · ')[0];
    await history.locator(`li[data-history-id="received:${taskId}"]`).waitFor();
    assert.equal(await kindOf(taskId), 'Question');
    assert.equal(await kindOf(sampling.task.taskId), 'Model request');
    assert.deepEqual(await choices(history), taskKinds);
    // A question's end in words a person reads for one, in the list as in the entry and the Tasks
    // row; so is a model request's whose reply the person wrote.
    const badge = (id: string) => history.locator(`li[data-history-id="received:${id}"] .meta [data-status]`);
    assert.equal(await badge(taskId).textContent(), 'Answered');
    assert.equal(await badge(sampling.task.taskId).textContent(), 'Answered');
    await history.locator(`li[data-history-id="received:${taskId}"] .history-title`).click();
    const entry = history.locator('.history-detail');
    await entry.locator('.meta [data-status="completed"]', { hasText: /^Answered$/ }).waitFor();
    // Its end step in a badge, as the steps before it and the entry's own.
    assert.equal(
      await entry.locator('.timeline li').last().locator('[data-status="completed"]').textContent(),
      'Answered'
    );
    assert.doesNotMatch((await entry.locator('.meta').first().textContent()) ?? '', /Completed/);
    await entry.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('link', { name: 'Tasks' }).click();
  });

  it('lists the server as ready, and follows it through disconnect and connect', async () => {
    await page.getByRole('link', { name: 'Servers' }).click();
    const item = page.locator('li[data-server-id="desk"]');
    await item.getByRole('heading', { name: 'Server desk' }).waitFor();
    await item.locator('[data-status="ready"]').waitFor();
    assert.equal(await item.locator('.status').textContent(), 'Ready');
    assert.match((await item.locator('.facts').textContent()) ?? '', /desk-peer 1\.0\.0/);
    // Given by the host's configuration: no Edit form that cannot save, no Remove that fails.
    assert.equal(await item.getByRole('button', { name: /^(Edit|Remove) Server desk$/ }).count(), 0);
    await item
      .getByText('Given by Taskdesk’s configuration: change or remove it where Taskdesk is configured.')
      .waitFor();

    await item.getByRole('button', { name: 'Disconnect Server desk' }).click();
    await item.locator('[data-status="closed"]').waitFor();
    assert.equal(fixture.host.connection('desk')?.state.status, 'closed');
    // The person disconnected it, and the card says so (not as Taskdesk's own doing).
    assert.equal(await item.locator('.reason').textContent(), 'Disconnected by you');
    // Said, not in red as a failure is.
    assert.equal(
      await item.locator('.reason').evaluate((p) => {
        const probe = document.createElement('span');
        probe.style.color = 'var(--danger)';
        document.body.append(probe);
        const danger = getComputedStyle(probe).color;
        probe.remove();
        return getComputedStyle(p).color === danger;
      }),
      false
    );
    // Focus stays on the server's button across the re-render, now offering the opposite.
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Connect Server desk');

    await item.getByRole('button', { name: 'Connect Server desk' }).click();
    await item.locator('[data-status="ready"]').waitFor();
    assert.equal(fixture.host.connection('desk')?.state.status, 'ready');
  });

  it('refuses a form answer for an unknown item with the host error in the page', async () => {
    const reply = await page.evaluate(async (token) => {
      const response = await fetch('/api/call', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-taskdesk-token': token },
        body: JSON.stringify({ method: 'inbox.answer', params: { id: 'nope', answer: { action: 'decline' } } })
      });
      return response.json() as Promise<{ ok: boolean; error?: { code: number } }>;
    }, server.token);
    assert.deepEqual([reply.ok, reply.error?.code], [false, -32602]);
  });

  it('pre-fills a form with its schema defaults (SEP-1034): accepted untouched, the server gets every default', async () => {
    await page.getByRole('link', { name: /Inbox/ }).click();
    const message = 'Confirm the report settings';
    const answer = peer.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message,
          requestedSchema: {
            type: 'object',
            properties: {
              name: { type: 'string', title: 'Name', default: 'John Doe' },
              age: { type: 'integer', title: 'Age', default: 30 },
              score: { type: 'number', title: 'Score', default: 95.5 },
              status: { type: 'string', title: 'Status', enum: ['active', 'inactive', 'pending'], default: 'active' },
              verified: { type: 'boolean', title: 'Verified', default: true }
            }
          }
        }
      },
      ElicitResultSchema
    );
    const card = page.getByRole('article', { name: message });
    await card.waitFor();
    assert.equal(await card.getByLabel('Name').inputValue(), 'John Doe');
    assert.equal(await card.getByLabel('Age').inputValue(), '30');
    assert.equal(await card.getByLabel('Status').inputValue(), 'active');
    assert.equal(await card.getByLabel('Verified').isChecked(), true);
    await card.getByRole('button', { name: 'Submit' }).click();
    const answered = await answer;
    assert.equal(answered.action, 'accept');
    assert.deepEqual(answered.content, { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true });
  });

  it('shows a URL-mode elicitation and opens its link only after the user agrees', async () => {
    await page.getByRole('link', { name: /Inbox/ }).click();
    const link = 'https://accounts.example.test/connect?state=abc';
    const { task } = await peer.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'url',
          message: 'Connect your calendar account',
          url: link,
          elicitationId: 'el-1',
          task: { ttl: 60_000 }
        }
      },
      CreateTaskResultSchema
    );
    const card = page.getByRole('article', { name: 'Connect your calendar account' });
    await card.waitFor();
    assert.equal(await card.locator('code.url').textContent(), link);
    assert.match((await card.textContent()) ?? '', /This opens a page on accounts\.example\.test/);
    // The link right under its sentence (46 px of form gap and margins were between them).
    const [sentence, shown] = await Promise.all([
      card.locator('.url-intro strong').boundingBox(),
      card.locator('code.url').boundingBox()
    ]);
    assert.ok(
      shown!.y - (sentence!.y + sentence!.height) <= 12,
      `the link ${shown!.y - (sentence!.y + sentence!.height)} px under its sentence`
    );
    assert.equal(
      await card.getByRole('note', { name: 'Check this link' }).count(),
      0,
      'a plain https link: no warning'
    );

    const dialog = page.getByRole('dialog', { name: 'Open this link?' });
    await card.getByRole('button', { name: 'Open link…' }).click();
    await dialog.waitFor();
    assert.ok(
      await dialog.getByRole('button', { name: 'Cancel' }).evaluate((button) => button === document.activeElement),
      'the safe answer has focus'
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal(fixture.host.inbox.list().length, 1, 'declining the dialog answers nothing');

    const result = peer.server.request({ method: 'tasks/result', params: { taskId: task.taskId } }, ElicitResultSchema);
    // The link's site is served by the test: the request proves which URL was opened.
    const opened = new Promise<string>((resolve) => {
      void page.context().route('https://accounts.example.test/**', (route) => {
        resolve(route.request().url());
        void route.fulfill({ status: 200, contentType: 'text/plain', body: 'signed in' });
      });
    });
    await card.getByRole('button', { name: 'Open link…' }).click();
    await dialog.getByRole('button', { name: 'Open link' }).click();
    assert.equal((await result).action, 'accept');
    assert.equal(await opened, link);
    await closeOpenedPages(page);
    await card.waitFor({ state: 'detached' });
  });

  it('warns of a link whose site’s name imitates another, or that is not https, on the card and before it opens', async () => {
    await page.getByRole('link', { name: /Inbox/ }).click();
    // A Cyrillic а in place of the Latin a: the card names the host as it is opened (Punycode).
    const lookalike = 'https://\u0430pple.com/login';
    const answer = peer.server.request(
      {
        method: 'elicitation/create',
        params: { mode: 'url', message: 'Sign in to your account', url: lookalike, elicitationId: 'el-lookalike' }
      },
      ElicitResultSchema
    );
    const card = page.getByRole('article', { name: 'Sign in to your account' });
    await card.waitFor();
    assert.equal(await card.locator('code.url').textContent(), lookalike);
    const warning = card.getByRole('note', { name: 'Check this link' });
    assert.equal(
      await warning.innerText(),
      'This address uses characters that can imitate another site’s name (xn--pple-43d.com).\n\nOpen it only if you expected this site.'
    );
    // Said again where the person agrees, and nothing is opened when they do not.
    await card.getByRole('button', { name: 'Open link…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Open this link?' });
    await dialog
      .getByRole('note', { name: 'Check this link' })
      .getByText('xn--pple-43d.com', { exact: false })
      .waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await card.getByRole('button', { name: 'Dismiss' }).click();
    await passUndoWindow(page);
    assert.equal((await answer).action, 'cancel');
    await card.waitFor({ state: 'detached' });

    // http: said once, in the warning (the card's own words say nothing of it).
    const plain = 'http://accounts.example.test/connect';
    const second = peer.server.request(
      {
        method: 'elicitation/create',
        params: { mode: 'url', message: 'Connect over http', url: plain, elicitationId: 'el-http' }
      },
      ElicitResultSchema
    );
    const httpCard = page.getByRole('article', { name: 'Connect over http' });
    await httpCard.waitFor();
    const text = (await httpCard.innerText()).match(/not secure/g) ?? [];
    assert.equal(text.length, 1);
    await httpCard
      .getByRole('note', { name: 'Check this link' })
      .getByText('This address is not secure (http, not https): what you type on the page can be read on its way.')
      .waitFor();
    await httpCard.getByRole('button', { name: 'Decline' }).click();
    await passUndoWindow(page);
    assert.equal((await second).action, 'decline');
    await httpCard.waitFor({ state: 'detached' });
  });

  it('adds an HTTP server from the form, checking fields first, and shows why it failed to connect', async () => {
    await page.getByRole('link', { name: 'Servers' }).click();
    const form = page.getByRole('form', { name: 'Add a server' });
    await form.getByLabel('Id').fill('bad id!');
    await form.getByLabel('Streamable HTTP').check();
    await form.getByLabel('URL').fill('ftp://example.test');
    await form.getByRole('button', { name: 'Add server' }).click();
    await form.getByText('Use up to 64 letters, digits, dots, dashes and underscores').waitFor();
    await form.getByText('Enter an http:// or https:// URL').waitFor();
    assert.equal(await form.getByLabel('Name').getAttribute('aria-invalid'), 'true');

    await form.getByLabel('Id').fill('nowhere');
    await form.getByLabel('Name').fill('Nowhere');
    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    await form.getByLabel('URL').fill('http://127.0.0.1:9/mcp');
    await form.getByRole('button', { name: 'Add server' }).click();
    const item = page.locator('li[data-server-id="nowhere"]');
    await item.locator('[data-status="failed"]').waitFor();
    assert.ok(((await item.locator('.reason').textContent()) ?? '').length > 0, 'the reason is shown');
    assert.equal(await form.getByLabel('Id').inputValue(), '', 'the form is cleared after adding');

    await item.getByRole('button', { name: 'Remove Nowhere' }).click();
    await page.getByRole('dialog', { name: 'Remove Nowhere?' }).getByRole('button', { name: 'Remove' }).click();
    await item.waitFor({ state: 'detached' });
    // The focus goes to the card now in its place, not to the page.
    await page.waitForFunction(() =>
      document.querySelector('li[data-server-id="desk"]')?.contains(document.activeElement)
    );
    assert.deepEqual(
      (await fixture.host.call('servers.list', {})).map((server) => server.id),
      ['desk']
    );
  });

  it('with no LLM provider, the Assistant says a chat needs one and links to where it is added', async () => {
    await page.getByRole('link', { name: 'Assistant', exact: true }).click();
    assert.equal(await page.getByRole('button', { name: '+ New chat' }).isDisabled(), true);
    const notice = page.locator('.notice-no-provider');
    await notice.getByText(/A chat needs a model/).waitFor();
    // Every kind of provider the form offers, the one that needs no other program included.
    assert.match((await notice.textContent()) ?? '', /OpenAI with your key, a model file on this computer, or a local/);
    await notice.getByRole('link', { name: 'LLM providers' }).click();
    await page.locator('#heading-providers').waitFor();
    assert.equal(await page.evaluate(() => location.hash), '#providers');
  });

  it('with no LLM provider, "Run without asking" warns by the policy, and its request says in the Inbox why a person is asked', async () => {
    await page.getByRole('link', { name: 'Servers' }).click();
    await openServerSettings(page.locator('li[data-server-id="desk"]'));
    const policy = page.getByRole('group', { name: 'Model requests from Server desk' });
    const warning = policy.locator('.policy-no-provider');
    await warning.waitFor();
    assert.equal(
      await warning.textContent(),
      'No LLM provider is set up: model requests come to the Inbox for you to answer until you add a provider.'
    );
    assert.equal(await warning.getByRole('link', { name: 'add a provider' }).getAttribute('href'), '#providers');
    await policy.getByLabel('Run without asking').click();
    await page.locator('fieldset[data-policy-mode="auto"] .policy-saved').waitFor();
    await warning.waitFor();
    await policy.getByLabel('Refuse').click();
    await page.locator('fieldset[data-policy-mode="refuse"] .policy-saved').waitFor();
    assert.equal(await warning.count(), 0, 'no request comes to the Inbox under "refuse"');
    await policy.getByLabel('Run without asking').click();
    await page.locator('fieldset[data-policy-mode="auto"] .policy-saved').waitFor();

    const answered = peer.server.request(
      { method: 'sampling/createMessage', params: samplingRequest },
      CreateMessageResultSchema
    );
    await page.getByRole('link', { name: /Inbox/ }).click();
    const card = page.getByRole('article', { name: 'Server desk asks for a model reply' });
    await card.waitFor();
    assert.equal(await card.locator('.kind-tag').textContent(), 'Model request');
    const why = card.locator('.sampling-fallback');
    assert.equal(
      await why.textContent(),
      'Server desk is set to run model requests without asking, but no LLM provider is set up: write the reply yourself, or add a provider to run this one and the next ones.'
    );
    assert.equal(await why.getByRole('link', { name: 'add a provider' }).getAttribute('href'), '#providers');
    await card.getByLabel('Your reply').fill('Written by hand.');
    await card.getByRole('button', { name: 'Send reply' }).click();
    assert.deepEqual((await answered).content, { type: 'text', text: 'Written by hand.' });
    await card.waitFor({ state: 'detached' });
    await fixture.host.call('sampling.setPolicy', {
      serverId: 'desk',
      policy: { mode: 'ask', reviewCompletion: true }
    });

    // Under "Ask me first" a person is asked anyway: the card does not say it fell back.
    const asked = peer.server.request(
      { method: 'sampling/createMessage', params: samplingRequest },
      CreateMessageResultSchema
    );
    // Rejected by the person below: held from the start, so the rejection is not unhandled meanwhile.
    const refused = asked.then(
      () => undefined,
      (error: unknown) => error
    );
    await card.waitFor();
    assert.equal(await card.locator('.sampling-fallback').count(), 0);
    await card.getByRole('button', { name: 'Reject' }).click();
    await passUndoWindow(page);
    assert.match(String(await refused), /User rejected sampling request/);
    await card.waitFor({ state: 'detached' });
  });

  it('shows a model request’s messages under their roles, as Markdown, in the Inbox, its task’s detail and History', async () => {
    await page.getByRole('link', { name: /Inbox/ }).click();
    const asked = await peer.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [
            { role: 'user', content: { type: 'text', text: 'Plan the **offsite**:\n\n- venue\n- food' } },
            { role: 'assistant', content: { type: 'text', text: 'Which `city`?' } },
            { role: 'user', content: { type: 'text', text: 'Bergen, see [the notes](https://example.com/notes).' } }
          ],
          systemPrompt: 'Be *brief*.',
          maxTokens: 40,
          task: { ttl: 120_000 }
        }
      },
      CreateTaskResultSchema
    );
    const readsAsMarkdown = async (place: Locator) => {
      const messages = place.locator('ol.messages > li');
      await messages.first().waitFor();
      assert.deepEqual(await messages.locator('.role').allTextContents(), ['user', 'assistant', 'user']);
      const [first, second, third] = [0, 1, 2].map((n) => messages.nth(n).locator('.content'));
      assert.equal(await first!.locator('strong').textContent(), 'offsite');
      assert.deepEqual(await first!.locator('li').allTextContents(), ['venue', 'food']);
      assert.equal(await second!.locator('code').textContent(), 'city');
      // A link is the guarded external link (it asks before it opens).
      assert.equal(await third!.locator('a[href="https://example.com/notes"]').textContent(), 'the notes');
      assert.equal(await place.locator('.system-prompt em').textContent(), 'brief');
      assert.doesNotMatch((await messages.allTextContents()).join(' '), /\*\*|`|\]\(/);
    };
    const card = page.getByRole('article', { name: 'Server desk asks for a model reply' });
    await readsAsMarkdown(card);

    await page.getByRole('link', { name: 'Tasks' }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    await tasks
      .locator(`tr[data-task-id="${asked.task.taskId}"]`)
      .getByRole('button', { name: /^Details of Model request/ })
      .click();
    const detail = tasks.locator('.task-detail');
    await readsAsMarkdown(detail.locator('.request-view'));
    // The detail leads to the card that waits on the person: the Inbox opens with it focused.
    await detail.getByRole('link', { name: 'Answer it in the Inbox' }).click();
    await page.waitForFunction(
      (id) => document.activeElement?.matches(`article[data-inbox-id="${id}"]`) === true,
      asked.task.taskId
    );
    assert.equal(await page.evaluate(() => location.hash), `#inbox/${asked.task.taskId}`);
    // So does a reload at that address, once the Inbox has loaded.
    await page.reload();
    await page.waitForFunction(
      (id) => document.activeElement?.matches(`article[data-inbox-id="${id}"]`) === true,
      asked.task.taskId
    );

    await page.getByRole('link', { name: 'History' }).click();
    const history = page.getByRole('region', { name: 'History' });
    await history.locator(`li[data-history-id="received:${asked.task.taskId}"] .history-title`).click();
    await readsAsMarkdown(history.locator('.history-detail .request-view'));
    await history.locator('.history-detail').getByRole('button', { name: 'Close' }).click();

    await page.getByRole('link', { name: /Inbox/ }).click();
    await card.getByRole('button', { name: 'Reject' }).click();
    await passUndoWindow(page);
    await card.waitFor({ state: 'detached' });

    // The task ended in a decision, said as one: rejected, not "Failed" or "Error -1". Its
    // protocol status stays `failed`.
    await page.getByRole('link', { name: 'Tasks' }).click();
    const row = tasks.locator(`tr[data-task-id="${asked.task.taskId}"]`);
    await row.locator('[data-status="failed"]', { hasText: /^Rejected$/ }).waitFor();
    assert.equal(
      ((await row.locator('td.outcome').textContent()) ?? '').trim(),
      'You rejected the model request; no model ran.',
      'as History says it'
    );
    await page.getByRole('link', { name: 'History' }).click();
    const entry = history.locator(`li[data-history-id="received:${asked.task.taskId}"]`);
    await entry.locator('[data-status="failed"]', { hasText: /^Rejected$/ }).waitFor();
    await entry.locator('.history-title').click();
    // History says who rejected what in its status line, and what the server was told under Result.
    const told = history.locator('.history-detail .history-told');
    await told.waitFor();
    assert.equal(await told.textContent(), 'Its server was told: “User rejected sampling request”.');
    assert.equal(await history.locator('.history-detail .meta [data-status="failed"]').textContent(), 'Rejected');
    await history.locator('.history-detail').getByRole('button', { name: 'Close' }).click();
  });

  it('ran without script errors and kept the audit log on screen', async () => {
    await page.getByRole('link', { name: 'Audit log' }).click();
    const audit = page.getByRole('region', { name: 'Audit log' });
    await audit.getByRole('cell', { name: 'task.result-retrieved' }).first().waitFor();
    // Details read as name and value, not as one JSON object in a line.
    const stateRow = audit.locator('table.audit tbody tr', { hasText: 'server.state' }).first();
    await stateRow.waitFor();
    // The event reads as a sentence; its type stays under it (and in its title) for search.
    assert.match(
      (await stateRow.locator('td.event .event-sentence').textContent()) ?? '',
      /^(Connected|Connecting|Disconnected|The connection failed|Not connected)$/
    );
    assert.equal(await stateRow.locator('td.event').getAttribute('title'), 'server.state');
    assert.doesNotMatch((await stateRow.locator('td.detail').textContent()) ?? '', /^\{"/);
    // Its status is what its sentence says: not listed again under it.
    assert.equal(await stateRow.locator('.detail-pairs dt', { hasText: /^status$/ }).count(), 0);
    // Field names and durations in words, where the log keeps code ("ttl 600000", "era legacy").
    const pair = (row: typeof stateRow, name: string) =>
      row.locator('.detail-pairs > div').filter({ has: page.locator('dt', { hasText: new RegExp(`^${name}$`) }) });
    const created = audit.locator('table.audit tbody tr', { hasText: 'task.created' }).first();
    assert.match(
      (await pair(created, 'kept for').locator('dd').textContent()) ?? '',
      /^\d+ (d|h|min|s)( \d+ (h|min|s))*$/
    );
    assert.equal(await created.locator('.detail-pairs dt', { hasText: /^(ttl|requestedTtl)$/ }).count(), 0);
    const ready = audit
      .locator('table.audit tbody tr', { hasText: 'server.state' })
      .filter({ has: page.locator('.event-sentence', { hasText: /^Connected$/ }) });
    assert.match((await pair(ready.first(), 'speaks').locator('dd').textContent()) ?? '', /^MCP /);
    assert.doesNotMatch((await pair(ready.first(), 'server program').locator('dd').textContent()) ?? '', /[{"]/);
    // The person's Disconnect (earlier in this file) reads as theirs in its server.state entry.
    await audit
      .locator('table.audit tbody tr', { hasText: 'server.state' })
      .filter({ hasText: 'Disconnected by you' })
      .first()
      .waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
