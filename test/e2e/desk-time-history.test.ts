import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CreateTaskResultSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError
} from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { startBrowserServer, type BrowserServer } from '../../app/browser/browser-server.js';
import { HistoryEntrySchema } from '../../app/contract/history.js';
import { systemClock } from '../../app/core/clock.js';
import { echoServer } from '../support/assistant-fixture.js';
import { ClockedTaskStore } from '../support/requestor-task-store.js';
import { createTaskToolPeer } from '../support/task-tool-server.js';
import { ManualClock } from '../support/manual-clock.js';
import { nextEvent, peerServer, startHostWith, type InMemoryHostFixture } from '../support/host-fixture.js';
import { launchTestBrowser } from '../support/test-browser.js';
import { accessibleDescription, buildRenderer, openDesk } from './renderer-build.js';
import { NOTIFICATION_STAND_IN, notificationsShown, setFocused, shownNotifications } from './notification-stand-in.js';

const form = (message: string) => ({
  mode: 'form',
  message,
  requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] }
});

describe('the Desk’s time, notifications and History, in headless Chromium against the real core', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  const clock = new ManualClock();
  let fixture: InMemoryHostFixture;
  let dir: string;
  const closers: Array<() => Promise<unknown>> = [];
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
  });

  after(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    await fixture?.dispose();
    built?.remove();
  });

  it('counts down to expiry, warns in words, notifies, and moves an unanswered question to History with a notice', async () => {
    const peer = peerServer('desk-peer');
    fixture = await startHostWith({ desk: peer }, { clock });
    dir = fixture.dir;
    const { server, browser, page } = await openDesk(fixture.host, built.dir, pageErrors, {
      beforeLoad: async (p) => {
        await p.addInitScript(NOTIFICATION_STAND_IN);
        // The page's time starts where the core's clock stands.
        await p.clock.install({ time: clock.now() });
      }
    });
    closers.push(
      () => browser.close(),
      () => server.close()
    );

    await page.getByRole('button', { name: 'Notify me when something arrives' }).click();
    await page.getByText('Notifications are on.').waitFor();

    // The person is in another tab: the Desk's page is not focused, so an arrival is notified.
    await setFocused(page, false);
    const first = nextEvent(fixture.host, 'inbox.added');
    await peer.server.request(
      { method: 'elicitation/create', params: { ...form('Your name for the booking?'), task: { ttl: 600_000 } } },
      CreateTaskResultSchema
    );
    await first;
    await notificationsShown(page, 1);
    assert.deepEqual(await shownNotifications(page), [
      { title: 'Taskdesk: a question from Server desk', body: 'Your name for the booking?' }
    ]);
    // Back in the Desk: the next arrival is on screen, and no notification is shown for it.
    await setFocused(page, true);
    await clock.advance(1);
    const second = nextEvent(fixture.host, 'inbox.added');
    const unanswered = await peer.server.request(
      { method: 'elicitation/create', params: { ...form('Approve the refund?'), task: { ttl: 600_000 } } },
      CreateTaskResultSchema
    );
    const { item: refund } = await second;

    const card = page.getByRole('article', { name: 'Approve the refund?' });
    await card.waitFor();
    assert.match((await card.locator('.meta').textContent()) ?? '', /asked .+ · sent as a task · /);
    // What runs out is the question's task: the card says so as Tasks does (Taskdesk keeps it).
    const countdown = card.locator('.task-kept');
    assert.match(
      (await countdown.textContent()) ?? '',
      /^Taskdesk keeps the task and its result for (10 min|9 min( \d+ s)?) more$/
    );
    assert.equal(await countdown.getAttribute('data-warning'), null);

    // Not yet at warnAt (the last fifth of a ten-minute life: two minutes before the end).
    await page.clock.fastForward(7 * 60_000);
    assert.match(
      (await countdown.textContent()) ?? '',
      /^Taskdesk keeps the task and its result for (3 min|2 min( \d+ s)?) more$/
    );
    assert.equal(await countdown.getAttribute('data-warning'), null);
    // Past warnAt on the page's clock: the words change.
    await page.clock.fastForward(60_000 + 2_000);
    await card.locator('.task-kept[data-warning="true"]').waitFor();
    assert.match(
      (await countdown.textContent()) ?? '',
      /^⚠ Taskdesk keeps the task and its result for only 1 min( \d+ s)? more$/
    );
    // The sign is seen, not said: "only" is the warning a screen reader reads.
    assert.equal(await countdown.locator('[aria-hidden="true"]').textContent(), '⚠ ');
    assert.match(
      await countdown.ariaSnapshot(),
      /^- text: Taskdesk keeps the task and its result for only 1 min( \d+ s)? more$/
    );
    // Past its end on the page's clock (the core has yet to get there): it was kept until then, no countdown.
    await page.clock.fastForward(2 * 60_000);
    await card.locator('.task-kept:not([data-warning])').waitFor();
    assert.match((await countdown.textContent()) ?? '', /^Taskdesk kept the task and its result until \S/);
    assert.equal(await countdown.locator('time').getAttribute('datetime'), refund.expiresAt ?? null);

    // The core reaches warnAt too: `inbox.expiring` goes out and the page notifies.
    const expiring = nextEvent(fixture.host, 'inbox.expiring');
    await clock.advance(8 * 60_000);
    await expiring;
    await notificationsShown(page, 2);
    const notes = await shownNotifications(page);
    assert.ok(
      notes.some((note) => note.title === 'Taskdesk: a question from Server desk expires soon'),
      JSON.stringify(notes)
    );
    assert.deepEqual(
      notes.filter((note) => !note.title.endsWith('expires soon')).map((note) => note.body),
      ['Your name for the booking?'],
      'the second arrival, with the Desk in front, was not notified'
    );

    // The booking question is answered; the refund one runs out unanswered.
    const booking = page.getByRole('article', { name: 'Your name for the booking?' });
    await booking.getByLabel('Name').fill('Ada');
    await booking.getByRole('button', { name: 'Submit' }).click();
    await booking.waitFor({ state: 'detached' });
    const expired = nextEvent(fixture.host, 'history.changed', ({ entry }) => entry.unanswered === true);
    await clock.advance(2 * 60_000);
    assert.equal((await expired).entry.taskId, unanswered.task.taskId);
    await card.waitFor({ state: 'detached' });
    const notice = page.locator('.notice-unanswered');
    await notice.waitFor();
    assert.equal(
      (await notice.locator('p').textContent())?.trim(),
      '“Approve the refund?” from Server desk expired unanswered — see History.'
    );
    await notice.getByRole('link', { name: 'History' }).click();
    const history = page.getByRole('region', { name: 'History' });
    await history.locator('[data-history-id]').nth(1).waitFor();
    assert.deepEqual(await history.locator('.history-list .history-title').allTextContents(), [
      'Approve the refund?',
      'Your name for the booking?'
    ]);
    await notice.getByRole('button', { name: 'Close notice' }).click();
    await notice.waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });

  it('shows History after a restart with search, filters, export and a detail with the result rendered as Markdown', async () => {
    await fixture.stop();
    const peer = peerServer('desk-peer');
    fixture = await startHostWith({ desk: peer }, { clock, dir });
    const { server, browser, page } = await openDesk(fixture.host, built.dir, pageErrors);
    closers.push(
      () => browser.close(),
      () => server.close()
    );

    // A model request answered by the person's own reply, written in Markdown: the newest entry.
    await clock.advance(1_000);
    const added = nextEvent(fixture.host, 'inbox.added');
    await peer.server.request(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'Summarise the sales week.' } }],
          maxTokens: 50,
          task: { ttl: 600_000 }
        }
      },
      CreateTaskResultSchema
    );
    await added;
    const reply = page.getByRole('article', { name: 'Server desk asks for a model reply' });
    await reply
      .getByLabel('Your reply')
      .fill('Sales **rose** by 5%. See [the report](https://example.com/report).\n\n<b>raw</b>');
    await reply.getByLabel('Model name').fill('editor');
    await reply.getByRole('button', { name: 'Send reply' }).click();
    await reply.waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'History' }).click();
    const history = page.getByRole('region', { name: 'History' });
    const titles = history.locator('.history-list .history-title');
    await history.getByText('3 entries', { exact: true }).waitFor();
    assert.deepEqual(await titles.allTextContents(), [
      'Summarise the sales week.',
      'Approve the refund?',
      'Your name for the booking?'
    ]);

    await history.getByLabel('Search').fill('booking');
    await history.getByText('1 of 3 entries match', { exact: true }).waitFor();
    assert.deepEqual(await titles.allTextContents(), ['Your name for the booking?']);
    await history.getByLabel('Search').fill('');
    // The search's "1 of 3 entries match" must be gone before the next filter's can say anything.
    await history.getByText('3 entries', { exact: true }).waitFor();
    await history.getByLabel('Status').selectOption('expired');
    await history.getByText('1 of 3 entries match', { exact: true }).waitFor();
    assert.deepEqual(await titles.allTextContents(), ['Approve the refund?']);
    assert.match((await history.locator('.history-list li').textContent()) ?? '', /\(unanswered\)/);
    await history.getByLabel('Status').selectOption('');
    // Every entry here came from a server: none was requested by Taskdesk.
    await history.getByLabel('Direction').selectOption('requested');
    await history.getByText('0 of 3 entries match', { exact: true }).waitFor();
    // Nothing to export then; the filters in the Tasks screen's order.
    assert.equal(await history.getByRole('button', { name: 'Export' }).isDisabled(), true);
    assert.deepEqual(
      await history
        .getByRole('search', { name: 'History' })
        .locator('select')
        .evaluateAll((selects) =>
          (selects as HTMLSelectElement[]).map((select) => select.labels?.[0]?.firstChild?.textContent?.trim())
        ),
      ['Direction', 'Status', 'Server', 'Kind']
    );
    await history.getByLabel('Direction').selectOption('received');
    await history.getByText('3 of 3 entries match', { exact: true }).waitFor();
    assert.equal(await history.getByRole('button', { name: 'Export' }).isDisabled(), false);
    await history.getByLabel('Kind').selectOption('elicitation');
    await history.getByText('2 of 3 entries match', { exact: true }).waitFor();
    await history.getByLabel(/^Server/).selectOption('desk');
    await history.getByText('2 of 3 entries match', { exact: true }).waitFor();

    const downloading = page.waitForEvent('download');
    await history.getByRole('button', { name: 'Export' }).click();
    const download = await downloading;
    assert.equal(download.suggestedFilename(), 'taskdesk-history.jsonl');
    const lines = fs
      .readFileSync(await download.path(), 'utf8')
      .trimEnd()
      .split('\n');
    assert.deepEqual(
      lines.map((line) => HistoryEntrySchema.parse(JSON.parse(line)).title),
      ['Approve the refund?', 'Your name for the booking?']
    );

    await history.getByLabel('Kind').selectOption('sampling');
    await history.getByText('1 of 3 entries match', { exact: true }).waitFor();
    await titles.first().click();
    const detail = history.locator('.history-detail');
    await detail.getByRole('heading', { name: 'Summarise the sales week.' }).waitFor();
    const markdown = detail.locator('.markdown');
    assert.equal(await markdown.locator('strong').textContent(), 'rose');
    assert.equal(
      await markdown.getByRole('link', { name: 'the report' }).getAttribute('href'),
      'https://example.com/report'
    );
    assert.equal(await markdown.locator('b').count(), 0, 'raw HTML is not rendered');
    assert.deepEqual(
      await detail
        .locator('.timeline li')
        .evaluateAll((steps) =>
          steps.map((step) => [
            step.querySelector('[data-status]')?.getAttribute('data-status') ??
              step.querySelector('.timeline-label')?.textContent,
            step.textContent
          ])
        )
        .then((steps) =>
          steps.map(([status, text]) => [status, /Waiting for your answer in the Inbox/.test(text ?? '')])
        ),
      [
        ['Asked', false],
        ['Waiting for you', true],
        ['completed', false]
      ],
      'the timeline says what happened: asked (not Taskdesk’s words for every new task), then waiting on the person'
    );
    // Its end said in a badge as the entry's badge says it: the person wrote the reply.
    assert.equal(await detail.locator('.timeline li').last().locator('[data-status]').textContent(), 'Answered');
    // A link opens only after the person agrees.
    await markdown.getByRole('link', { name: 'the report' }).click();
    await page.getByRole('dialog', { name: 'Open this link?' }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    const retention = history.getByRole('form', { name: 'Retention' });
    assert.equal(await retention.getByLabel('Days').inputValue(), '30');
    await retention.getByLabel('Days').fill('7');
    await retention.getByRole('button', { name: 'Save' }).click();
    await page.waitForFunction(() => document.querySelector('.sr-only[aria-live]')?.textContent?.includes('7 days'));
    assert.deepEqual(await fixture.host.dispatch('history.getRetention', {}), {
      ok: true,
      result: { days: 7, maxEntries: 20_000 }
    });
    assert.deepEqual(pageErrors, []);
  });

  it('tells a stale tab that Taskdesk was restarted when its token stops working', async () => {
    const first = await startBrowserServer({ host: fixture.host, rendererDir: built.dir, port: 0 });
    const browser = await launchTestBrowser();
    closers.push(() => browser.close());
    const page: Page = await browser.newPage();
    await page.goto(first.url);
    await page.locator('#app[data-ready="true"]').waitFor();
    const port = first.port;
    await first.close();
    // Browser mode starts again on its last port, with a new token.
    const second: BrowserServer = await startBrowserServer({ host: fixture.host, rendererDir: built.dir, port });
    closers.push(() => second.close());
    assert.notEqual(second.token, first.token);
    await page
      .getByRole('alert')
      .filter({ hasText: "Taskdesk was restarted; open the new address it printed (this tab's token is out of date)." })
      .waitFor();
    // What the stale tab then asks of the host says that nothing was sent and the one way on, not
    // the place's own next step ("Press Retry…", "Try again").
    await page.getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    const failure = history.getByRole('alert').filter({ hasText: 'Could not load the history.' });
    await failure.waitFor();
    const text = (await failure.textContent()) ?? '';
    assert.match(text, /token is out of date \(Taskdesk was restarted\), so nothing was sent\./);
    assert.match(text, /then open the new address Taskdesk printed\./);
    assert.doesNotMatch(text, /Try again|Press Retry/);
    // The lists it had may be out of date: the Inbox says so rather than "Nothing is waiting".
    await page.locator('nav').getByRole('link', { name: 'Inbox', exact: true }).click();
    const inbox = page.getByRole('region', { name: 'Inbox' });
    await inbox.getByText('Taskdesk cannot be reached now: what waits for you may have changed since').waitFor();
    // Reloaded on the old address, it never loaded: nothing is said to be empty.
    await page.reload();
    await page
      .getByRole('region', { name: 'Inbox' })
      .getByText('Taskdesk cannot be reached: what waits for you cannot be shown until it is')
      .waitFor();
    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    await page
      .getByRole('region', { name: 'Tasks' })
      .getByText('Taskdesk cannot be reached: the tasks cannot be shown until it is')
      .waitFor();
    assert.equal(await page.getByText('Nothing is waiting for you.').count(), 0);
  });

  it('tells calls of one tool apart in History’s list by a line of their arguments, cut with an ellipsis at 800 px', async () => {
    const ownClock = new ManualClock();
    const own = await startHostWith({ tools: echoServer() }, { clock: ownClock });
    closers.push(() => own.dispose());
    await own.host.call('tools.call', { serverId: 'tools', name: 'echo', arguments: { message: 'first' } });
    await ownClock.advance(1);
    const long = `second ${'and longer '.repeat(20)}`;
    await own.host.call('tools.call', { serverId: 'tools', name: 'echo', arguments: { message: long } });
    const { server, browser, page } = await openDesk(own.host, built.dir, pageErrors, {
      viewport: { width: 800, height: 900 }
    });
    closers.push(
      () => browser.close(),
      () => server.close()
    );

    await page.getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    await history.getByText('2 entries').waitFor();
    const rows = history.locator('.history-list li');
    assert.deepEqual(await rows.locator('.history-title').allTextContents(), ['Tool call: echo', 'Tool call: echo']);
    const previews = await rows.locator('.history-preview').allTextContents();
    assert.equal(previews.length, 2, 'each row has a preview of its arguments');
    assert.equal(previews[1], 'message: "first"');
    assert.match(previews[0]!, /^message: "second and longer and longer .*…$/);
    assert.ok(previews[0]!.length <= 80, `a preview is short: ${previews[0]!.length} characters`);
    // Named alike, the title buttons are told apart as a screen reader moves between them: each is
    // described by its arguments' line and its meta line (kind, server, status, time).
    // One at a time: the probe marks the element it asks about.
    const descriptions: Array<string | undefined> = [];
    for (const title of await rows.locator('.history-title').all())
      descriptions.push(await accessibleDescription(title));
    assert.match(descriptions[1] ?? '', /^message: "first" Tool call without a task · to Server tools · Completed · /);
    assert.match(
      descriptions[0] ?? '',
      /^message: "second and longer .*… Tool call without a task · to Server tools · /
    );
    assert.notEqual(descriptions[0], descriptions[1]);
    // Still found, and opened, by its name alone.
    await history.getByRole('button', { name: 'Tool call: echo' }).first().click();
    await history.locator('.history-detail').getByRole('button', { name: 'Close' }).click();

    // One line, beside its title, within the row: cut by the row's edge rather than wrapped.
    for (const row of await rows.all()) {
      const title = (await row.locator('.history-title').boundingBox())!;
      const preview = (await row.locator('.history-preview').boundingBox())!;
      const box = (await row.boundingBox())!;
      assert.ok(Math.abs(preview.y + preview.height / 2 - (title.y + title.height / 2)) < 4, 'beside the title');
      assert.ok(preview.height <= title.height + 2, `one line: ${preview.height} px against ${title.height}`);
      assert.ok(preview.x + preview.width <= box.x + box.width + 0.5, 'within the row');
    }
    assert.deepEqual(pageErrors, []);
  });

  it('says in a failed entry’s row why it failed, in the Tasks row’s words, and who cancelled a cancelled one', async () => {
    // The server's store: the test fails a task behind the host's back, as a server would.
    const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 50 });
    const { peer: work } = createTaskToolPeer({ clock: systemClock, store });
    const own = await startHostWith({ work });
    closers.push(
      async () => store.close(),
      () => own.dispose()
    );
    // The Desk first: its browser keeps Node's event loop alive while the host polls the server.
    const { server, browser, page } = await openDesk(own.host, built.dir, pageErrors, {
      viewport: { width: 800, height: 900 }
    });
    closers.push(
      () => browser.close(),
      () => server.close()
    );
    const slow = async () => {
      const call = await own.host.call('tools.call', {
        serverId: 'work',
        name: 'slow',
        arguments: { durationMs: 600_000 }
      });
      assert.equal(call.type, 'task');
      return call.type === 'task' ? call.task : assert.fail('a task');
    };
    const failed = await slow();
    const fetched = nextEvent(
      own.host,
      'outbound.changed',
      (event) =>
        event.type === 'changed' && event.task.outboundId === failed.outboundId && event.task.outcome !== undefined
    );
    const reason = 'The upstream service refused the job: quota of 500 requests per day used up';
    await store.updateTaskStatus(failed.taskId, 'failed', reason);
    // The server kept no result: its tasks/result answered the SDK's generic error, which the row leaves out.
    const event = await fetched;
    const outcome = event.type === 'changed' ? event.task.outcome : undefined;
    assert.match(outcome?.type === 'error' ? outcome.error.message : '', /^Task \S+ has no result stored$/);
    const cancelled = await slow();
    await own.host.call('outbound.cancel', { outboundId: cancelled.outboundId });

    await page.locator('nav').getByRole('link', { name: 'Tasks', exact: true }).click();
    const taskRow = page
      .getByRole('region', { name: 'Tasks' })
      .locator(`tr[data-task-key="requested:${failed.outboundId}"]`);
    await taskRow.locator('[data-status="failed"]').waitFor();
    const tasksWords = (await taskRow.locator('td.outcome').innerText()).trim();
    assert.equal(tasksWords, reason);

    await page.locator('nav').getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    const row = history.locator(`li[data-history-id="requested:${failed.outboundId}"]`);
    const said = row.locator('.history-reason');
    await said.waitFor();
    // The reason whole, as the Tasks row says it: the badge beside it says Failed, once.
    assert.equal(await said.textContent(), tasksWords);
    assert.equal(await row.locator('.meta [data-status="failed"]').textContent(), 'Failed');
    const text = (await row.textContent()) ?? '';
    assert.doesNotMatch(text, /Failed:|has no result stored|Error -?\d+/);
    assert.equal(text.split('Failed').length - 1, 1, 'Failed said once');
    const box = (await said.boundingBox())!;
    const rowBox = (await row.boundingBox())!;
    assert.ok(box.x + box.width <= rowBox.x + rowBox.width + 0.5, 'within the row at 800 px, not cut');
    assert.equal(await said.evaluate((element) => element.scrollWidth - element.clientWidth), 0, 'not cut');
    // Moving from title to title, a screen reader says why it failed too.
    const description = (await accessibleDescription(row.locator('.history-title'))) ?? '';
    assert.match(description, /^durationMs: 600000 Tool call · to Server work · Failed · /);
    assert.ok(description.endsWith(` ${reason}`), description);
    // Its detail says the same words.
    await row.locator('.history-title').click();
    const detail = history.locator(`.history-detail[data-history-id="requested:${failed.outboundId}"]`);
    await detail.locator('.meta', { hasText: reason }).waitFor();
    await detail.getByRole('button', { name: 'Close' }).click();

    // A task the person cancelled: its badge says who, as the Tasks row's "by you" under Cancelled; no reason line.
    const gone = history.locator(`li[data-history-id="requested:${cancelled.outboundId}"]`);
    await gone.locator('.meta [data-status="cancelled"]', { hasText: /^Cancelled by you$/ }).waitFor();
    assert.equal(await gone.locator('.history-reason').count(), 0);
    assert.deepEqual(pageErrors, []);
  });

  it('says in a failed plain call’s row why it failed, in the words of its detail', async () => {
    // A server that fails one call with a JSON-RPC error and answers another with a tool error.
    const tools = new Server({ name: 'failing', version: '1.0.0' }, { capabilities: { tools: {} } });
    tools.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: ['break', 'refuse'].map((name) => ({ name, inputSchema: { type: 'object' as const } }))
    }));
    const broke = 'The disk is full: nothing more can be written';
    tools.setRequestHandler(CallToolRequestSchema, async (request) => {
      if (request.params.name === 'break') throw new McpError(ErrorCode.InternalError, broke);
      return { content: [{ type: 'text', text: '**Quota** used up for today' }], isError: true };
    });
    const ownClock = new ManualClock();
    const own = await startHostWith({ tools: { ...peerServer('failing'), server: tools } }, { clock: ownClock });
    closers.push(() => own.dispose());
    await assert.rejects(own.host.call('tools.call', { serverId: 'tools', name: 'break', arguments: {} }));
    await ownClock.advance(1);
    const refused = await own.host.call('tools.call', { serverId: 'tools', name: 'refuse', arguments: {} });
    assert.equal(refused.type === 'result' && refused.result.isError, true);
    const { server, browser, page } = await openDesk(own.host, built.dir, pageErrors, {
      viewport: { width: 800, height: 900 }
    });
    closers.push(
      () => browser.close(),
      () => server.close()
    );

    await page.locator('nav').getByRole('link', { name: 'History', exact: true }).click();
    const history = page.getByRole('region', { name: 'History' });
    await history.getByText('2 entries').waitFor();
    for (const [tool, reason] of [
      ['break', `Error -32603: ${broke}`],
      ['refuse', 'Quota used up for today']
    ] as const) {
      const row = history.locator('.history-list li', { hasText: `Tool call: ${tool}` });
      await row.locator('.meta [data-status="failed"]').waitFor();
      assert.equal(await row.locator('.history-reason').textContent(), reason, tool);
      const description = (await accessibleDescription(row.locator('.history-title'))) ?? '';
      assert.ok(description.endsWith(` ${reason}`), description);
      // Its detail says the same words: the error as ErrorView says it, the tool's error as its text.
      await row.locator('.history-title').click();
      const detail = history.locator('.history-detail');
      await detail.locator('.tool-result-error', { hasText: reason }).waitFor();
      if (tool === 'break') assert.equal(await detail.locator('.tool-result-error p').textContent(), reason);
      await detail.getByRole('button', { name: 'Close' }).click();
    }
    // Found by the words its row says.
    await history.getByRole('searchbox').fill('disk is full');
    await history.getByText('1 of 2 entries match', { exact: true }).waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
