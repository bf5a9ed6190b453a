import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { type Browser, type Locator, type Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { createHost, type Host } from '../../app/host/host.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { buildRenderer, openDesk, openToolForm, root, toolCallCard } from './renderer-build.js';
import { recordSaid, saidTimes } from './live-region.js';

/**
 * The desk against a real MCP 2026-07-28 server (the v2 server package, over stdio, modern-only):
 * it connects, its tools are called from the Tools screen, calls the server turns into tasks are
 * followed to their end, a task's input request is answered in the Inbox, and a running task is
 * cancelled. Everything is asserted on what the page shows.
 */

const SCREENSHOT = path.join(root, '.tmp/tools-modern.png');
const fixtureServer = fileURLToPath(new URL('../support/modern-task-server.ts', import.meta.url));

describe('the desk with a 2026-07-28 server over stdio (tasks extension)', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  const data = tempDir();
  let host: Host;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  let tools: Locator;
  let calls: Locator;
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [
        {
          id: 'modern',
          name: 'Server modern',
          transport: {
            type: 'stdio',
            command: process.execPath,
            args: ['--import', 'tsx', fixtureServer, '{"legacy":"reject"}'],
            cwd: root
          },
          autoConnect: false
        }
      ]
    });
    ({ server, browser, page } = await openDesk(host, built.dir, pageErrors, {
      viewport: { width: 1100, height: 1400 },
      failedResponses: true
    }));
    tools = page.getByRole('region', { name: 'Tools' });
    calls = page.getByRole('region', { name: 'Tool calls' });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await host?.close();
    data.remove();
    built?.remove();
  });

  const openForm = (name: string): Promise<Locator> => openToolForm(tools, name);
  const callCard = (toolName: string): Locator => toolCallCard(calls, toolName);

  it('connects from the Servers screen and shows the server ready, with protocol 2026-07-28', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Servers' }).click();
    const item = page.locator('li[data-server-id="modern"]');
    await item.getByRole('heading', { name: 'Server modern' }).waitFor();
    await item.getByRole('button', { name: 'Connect Server modern' }).click();
    await item.locator('[data-status="ready"]').waitFor();
    assert.equal(await item.locator('.status').textContent(), 'Ready');
    const facts = item.locator('.facts');
    assert.equal(
      await facts.locator('dt', { hasText: 'Reports' }).locator('+ dd').textContent(),
      'modern-task-server 1.0.0'
    );
    assert.equal(await facts.locator('dt', { hasText: 'Speaks' }).locator('+ dd').textContent(), 'MCP 2026-07-28');
    assert.equal(await item.locator('.reason').count(), 0);
    // Double-check with the host: no initialize, the era is modern.
    assert.equal(host.connection('modern')?.state.era, 'modern');
  });

  it('lists the tools on the Tools screen, with no ttl field and no server task list', async () => {
    await page.locator('li[data-server-id="modern"]').getByRole('button', { name: 'Tools of Server modern' }).click();
    await tools.waitFor();
    assert.equal(await tools.getByLabel('Server', { exact: true }).inputValue(), 'modern');
    await tools.locator('li[data-tool="echo"]').waitFor();
    const names = await tools
      .locator('li[data-tool]')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-tool')));
    assert.deepEqual([...names].sort(), ['ask-model', 'ask-name', 'echo', 'fail', 'quick', 'stats', 'wait']);
    await tools.getByRole('status').getByText('7 tools.').waitFor();
    // The server decides per call: every tool may run either way.
    for (const name of names)
      assert.equal(
        await tools.locator(`li[data-tool="${name}"] [data-call-mode]`).textContent(),
        'Can run as a task',
        name!
      );

    const form = await openForm('echo');
    assert.equal(await form.getByLabel('Run as a task').isChecked(), true);
    assert.equal(
      await form.getByLabel('Keep the task for (minutes)').count(),
      0,
      'the server alone sets a modern task’s ttl'
    );
    assert.equal(await form.getByText('Keep the task for').count(), 0);
    // No tasks/list in 2026-07-28: the panel is not there for this server.
    assert.equal(await tools.locator('details.server-tasks-panel').isHidden(), true);
    assert.equal(await tools.getByText('Server’s tasks').isVisible(), false);
  });

  it('follows a call the server turned into a task to completed, and shows its result', async () => {
    const form = tools.getByRole('form', { name: 'Call echo' });
    await form.getByLabel('text').fill('hello from the desk');
    await form.getByRole('button', { name: 'Call tool' }).click();
    await form.getByText(/^Started as a task: /).waitFor();

    const card = callCard('echo');
    await card.locator('[data-status="completed"]').waitFor();
    assert.equal(await card.getAttribute('data-state'), 'completed');
    assert.match((await card.locator('h3').textContent()) ?? '', /^echo on Server modern$/);
    await card.locator('.outcome-block .tool-result .text-block', { hasText: 'echo: hello from the desk' }).waitFor();
    assert.equal(await card.locator('.outcome-block > p').first().textContent(), 'Result:');
    assert.equal(await card.locator('.status-message').textContent(), 'done');
    // The server's own ttl (ten minutes) is what the card says, less the moments gone since (in whole minutes).
    assert.match(
      (await card.locator('.meta').textContent()) ?? '',
      /the server keeps the task and its result for 9 min more, until /
    );
    assert.equal(
      await card.getByRole('button', { name: /^(Cancel|Check) / }).count(),
      0,
      'a finished task has nothing to check or cancel'
    );
  });

  it('shows a plain answer under the form when the server answers without a task', async () => {
    const form = await openForm('quick');
    await form.getByLabel('text').fill('now');
    await form.getByRole('button', { name: 'Call tool' }).click();
    await form.locator('.call-result .tool-result').getByText('quick: now').waitFor();
    assert.equal(await callCard('quick').count(), 0, 'no tool-call card for a plain answer');
  });

  it('puts a task’s input request in the Inbox naming the tool; the answer completes the task', async () => {
    const form = await openForm('ask-name');
    await form.getByRole('button', { name: 'Call tool' }).click();
    await form.getByText(/^Started as a task: /).waitFor();
    const card = callCard('ask-name');
    await card.locator('[data-status="input_required"]').waitFor();
    await card.locator('.status-message', { hasText: 'waiting for input' }).waitFor();
    const inboxLink = page.getByRole('link', { name: /Inbox/ });
    await inboxLink.locator('.badge', { hasText: '1' }).waitFor();
    // Its question waits on the person: its card, the line under its form and its row on Tasks say
    // so alike ("Input required" on the card read as another state than the row's).
    await card.locator('[data-status="input_required"]', { hasText: 'Waiting for you' }).waitFor();
    assert.equal(await form.locator('.started-task .status').textContent(), 'Waiting for you');
    // And the tool's "Last called" line, which said History's "input required".
    await page
      .locator('li.tool[data-tool="ask-name"] .tool-last-call', { hasText: /: waiting for you — see it on Tasks$/ })
      .waitFor();
    const outboundId = await card.getAttribute('data-outbound-id');
    const sections = page.getByRole('navigation', { name: 'Sections' });
    await sections.getByRole('link', { name: 'Tasks', exact: true }).click();
    const row = page.getByRole('region', { name: 'Tasks' }).locator(`tr[data-task-key="requested:${outboundId}"]`);
    assert.equal(await row.locator('.status').textContent(), 'Waiting for you');
    await sections.getByRole('link', { name: 'Tools', exact: true }).click();

    // The card links to the question, which the Inbox opens.
    await card.getByRole('link', { name: 'Answer Server modern’s question' }).click();
    await page.waitForFunction(() => location.hash.startsWith('#inbox/'));
    const question = page.getByRole('article', { name: 'Your name?' });
    await question.waitFor();
    const meta = (await question.locator('.meta').textContent()) ?? '';
    assert.match(meta, /^From Server modern · /);
    // The task it was asked for is the person's call, named by its tool: not by the server's id for it.
    assert.match(meta, / · your call of ask-name waits on it · waiting for \d+ s$/);
    await question.getByLabel('name').fill('Ada');
    await question.getByRole('button', { name: 'Submit' }).click();
    await question.waitFor({ state: 'detached' });
    await page.getByText('Nothing is waiting for you.').waitFor();

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tools', exact: true }).click();
    await card.locator('[data-status="completed"]').waitFor();
    await card.locator('.outcome-block .tool-result .text-block', { hasText: 'hello Ada' }).waitFor();
    assert.equal(await card.getByRole('link', { name: /question/ }).count(), 0, 'no question left to answer');
    // Double-check with the host: the answer went once.
    const stored = host.requestor.list().find((task) => task.toolName === 'ask-name');
    assert.deepEqual(stored?.answeredInputs, ['name-1']);
  });

  it('says a task that failed with its error failed, in the same words on its card, under its form, its row and detail', async () => {
    const form = await openForm('fail');
    await form.getByLabel('message').fill('disk is full');
    await form.getByRole('button', { name: 'Call tool' }).click();
    const card = callCard('fail');
    await card.locator('[data-status="failed"]').waitFor();
    await card.locator('.outcome-block').first().waitFor();
    const failedWords = 'The tool failed: Error -32050: disk is full';
    // The server's status message, then the error that failed the task: the tool failed, not the fetch of its result.
    assert.doesNotMatch((await card.textContent()) ?? '', /could not be fetched|Failed:/);
    assert.equal(await card.locator('.failed-reason').textContent(), 'it broke');
    assert.equal(await card.locator('.outcome-block .task-error > p').textContent(), failedWords);
    await form.locator('.call-result .task-error > p', { hasText: failedWords }).waitFor();
    assert.equal(await form.locator('.call-result .failed-reason').textContent(), 'it broke');
    assert.doesNotMatch((await form.locator('.call-result').textContent()) ?? '', /could not be fetched/);

    const outboundId = await card.getAttribute('data-outbound-id');
    const sections = page.getByRole('navigation', { name: 'Sections' });
    await sections.getByRole('link', { name: 'Tasks', exact: true }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    const row = tasks.locator(`tr[data-task-key="requested:${outboundId}"]`);
    await row.locator('[data-status="failed"]').waitFor();
    assert.equal(await row.locator('td.outcome .outcome-reason').textContent(), 'it broke');
    assert.equal(await row.locator('td.outcome .muted').textContent(), failedWords);
    await row.getByRole('button', { name: /^Details of / }).click();
    const detail = tasks.locator(`.task-detail[data-task-key="requested:${outboundId}"]`);
    await detail.locator('.task-error > p', { hasText: failedWords }).waitFor();
    assert.equal(await detail.locator('.detail-status .status-message').textContent(), 'it broke');
    assert.equal(await detail.locator('.task-error > p').textContent(), failedWords);
    await detail.getByRole('button', { name: 'Close' }).click();

    // Its History entry says it in the same words.
    await sections.getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    await history.locator(`li[data-history-id="requested:${outboundId}"] .history-title`).click();
    const entry = history.locator(`.history-detail[data-history-id="requested:${outboundId}"]`);
    await entry.locator('.task-error > p').waitFor();
    assert.equal(await entry.locator('.task-error > p').textContent(), failedWords);
    assert.doesNotMatch((await entry.textContent()) ?? '', /could not be fetched/);
    await entry.getByRole('button', { name: 'Close' }).click();
    await sections.getByRole('link', { name: 'Tools', exact: true }).click();
    assert.deepEqual(pageErrors, []);
  });

  it('says a task waiting on a model reply has a model request for you, not a question', async () => {
    const form = await openForm('ask-model');
    const asked = nextEvent(host, 'inbox.added', ({ item }) => item.serverId === 'modern');
    await form.getByRole('button', { name: 'Call tool' }).click();
    const card = callCard('ask-model');
    await card.locator('[data-status="input_required"]').waitFor();
    assert.notEqual((await asked).item.kind, 'elicitation', 'the server asks for a model reply');
    const waiting = form.locator('.started-task-waiting');
    await waiting.waitFor();
    assert.equal(await waiting.textContent(), 'Server modern has a model request for you in the Inbox.');
    await card.getByRole('link', { name: 'Answer Server modern’s model request' }).waitFor();
    assert.equal(await card.getByRole('link', { name: /question/ }).count(), 0);

    await card.getByRole('button', { name: /^Cancel ask-model task / }).click();
    await card.locator('[data-status="cancelled"]').waitFor();
    assert.equal(await waiting.count(), 0, 'nothing left to answer');
    assert.deepEqual(pageErrors, []);
  });

  it('says in History a model request the person wrote the reply to answered, as a question they answered', async () => {
    const form = await openForm('ask-model');
    const asked = nextEvent(host, 'inbox.added', ({ item }) => item.serverId === 'modern');
    await form.getByRole('button', { name: 'Call tool' }).click();
    const { item } = await asked;
    // No model is set up: the person writes the reply in the Inbox.
    await host.call('inbox.answer', { id: item.id, answer: { action: 'reply', text: 'Tides', model: 'human' } });
    const card = callCard('ask-model');
    await card.locator('[data-status="completed"]').waitFor();
    await card.locator('.outcome-block .tool-result .text-block', { hasText: 'model said: Tides' }).waitFor();

    const sections = page.getByRole('navigation', { name: 'Sections' });
    await sections.getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    const answered = history
      .locator('.history-list li')
      .filter({ hasText: 'Write one word.' })
      .filter({ has: page.locator('[data-status="completed"]') });
    await answered.waitFor();
    assert.equal(await answered.locator('.meta .status').textContent(), 'Answered');
    // The question answered earlier reads the same.
    const question = history.locator('.history-list li').filter({ hasText: 'Your name?' });
    assert.equal(await question.locator('.meta .status').textContent(), 'Answered');
    // The Status filter finds both under that word, and its detail says it too.
    await history.getByLabel('Status').selectOption('answered');
    await history.getByText(/^2 of \d+ entries match$/).waitFor();
    assert.deepEqual((await history.locator('.history-list .history-title').allTextContents()).sort(), [
      'Write one word.',
      'Your name?'
    ]);
    await answered.locator('.history-title').click();
    const detail = history.locator('.history-detail');
    await detail.getByRole('heading', { name: 'Write one word.' }).waitFor();
    assert.equal(await detail.locator('.meta .status').textContent(), 'Answered');
    await detail.getByRole('button', { name: 'Close' }).click();
    await history.getByLabel('Status').selectOption('');
    await sections.getByRole('link', { name: 'Tools', exact: true }).click();
    assert.deepEqual(pageErrors, []);
  });

  it('says when Check now asked and where a running task stands, and tells a screen reader', async () => {
    const form = await openForm('wait');
    await form.getByRole('button', { name: 'Call tool' }).click();
    const card = callCard('wait');
    await card.locator('[data-status="working"]').waitFor();
    await recordSaid(page);
    await card.getByRole('button', { name: /^Check wait task / }).click();
    await card.locator('.checked-at').waitFor();
    assert.equal(await card.locator('.checked-at').textContent(), 'Checked just now; still working.');
    await saidTimes(page, /^Checked the wait task just now; still working\.$/);
    // Again, once the first check is done: said again, as nothing on the card changes.
    await card.locator('button:not([aria-busy])', { hasText: 'Check now' }).click();
    await saidTimes(page, /^Checked the wait task just now; still working\.$/, 2);
    assert.equal(await card.locator('.checked-at').textContent(), 'Checked just now; still working.');
    assert.deepEqual(pageErrors, []);
  });

  it('cancels a running task: the card ends as cancelled', async () => {
    const card = callCard('wait');
    await card.locator('[data-status="working"]').waitFor();
    await card.getByRole('button', { name: /^Cancel wait task / }).click();
    await card.locator('[data-status="cancelled"]').waitFor();
    // Who cancelled it, in words; the server's "cancelled at the client’s request" only restates it.
    await card.locator('.outcome-cancelled', { hasText: 'Cancelled by you' }).waitFor();
    assert.equal(await card.locator('.status-message').count(), 0);
    assert.equal(await card.getByRole('button', { name: /^(Cancel|Check) / }).count(), 0);
    assert.equal(await card.locator('[role="alert"]').isHidden(), true, 'no error on the card');
    assert.equal(await card.locator('.outcome-block').count(), 0, 'the server sent no error: none is shown');
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    assert.deepEqual(pageErrors, []);
  });
});
