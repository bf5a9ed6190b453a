import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { Host } from '../../app/host/host.js';
import { nextEvent } from '../support/host-fixture.js';
import { ManualClock } from '../support/manual-clock.js';
import { accessibleDescription, openToolForm, toolCallCard } from './renderer-build.js';
import { openEverythingDesk } from './everything-desk.js';

describe('plain tool calls of server-everything (over stdio) on the Tools screen, with the core’s clock injected', () => {
  const clock = new ManualClock(Date.now());
  let host: Host;
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  let tools: Locator;
  const pageErrors: string[] = [];

  before(async () => {
    ({ host, page, close } = await openEverythingDesk(pageErrors, {
      clock,
      viewport: { width: 1100, height: 1400 },
      // The page's time starts where the core's clock stands, and moves with it below.
      beforeLoad: (p) => p.clock.install({ time: clock.now() })
    }));
    // The section's link: an empty Inbox links to Tools as well.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tools', exact: true }).click();
    tools = page.getByRole('region', { name: 'Tools' });
    await tools.locator('li[data-tool="trigger-long-running-operation"]').waitFor();
  });

  after(async () => {
    await close?.();
  });

  it('shows progress bars for trigger-long-running-operation, then its result', async () => {
    const form = await openToolForm(tools, 'trigger-long-running-operation');
    // Fresh, each control is filled with its default: no “Default: 10” says it again beside it.
    const duration = form.getByRole('spinbutton', { name: 'duration', exact: true });
    const steps = form.getByRole('spinbutton', { name: 'steps', exact: true });
    assert.deepEqual([await duration.inputValue(), await steps.inputValue()], ['10', '5']);
    assert.equal(await accessibleDescription(duration), 'Duration of the operation in seconds (number)');
    assert.equal(await accessibleDescription(steps), 'Number of steps in the operation (number)');
    assert.equal(await form.locator('.field-default').count(), 0);
    await form.getByLabel('duration').fill('3');
    await form.getByLabel('steps').fill('3');
    const progressed = nextEvent(host, 'call.changed', ({ call }) => call.progress !== undefined);
    await form.getByRole('button', { name: 'Call tool' }).click();
    assert.deepEqual((await progressed).call.progress?.total, 3, 'the server saw a progress token and reported');
    const running = page.getByRole('region', { name: 'Running calls' });
    const bar = running.getByRole('progressbar', { name: 'Progress of trigger-long-running-operation' });
    await bar.waitFor();
    assert.equal(await bar.getAttribute('max'), '3');
    assert.match((await running.locator('.progress-text').textContent()) ?? '', /^[123]\/3$/);
    await form
      .locator('.call-result')
      .getByText('Long running operation completed. Duration: 3 seconds, Steps: 3.')
      .waitFor({ timeout: 20_000 });
    assert.ok(
      await form.getByRole('button', { name: 'Call tool' }).evaluate((button) => button === document.activeElement),
      'the focus stayed on Call tool while the call ran'
    );
    await running.waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });

  it('keeps a plain call that waits on the Inbox past 60 s of (faked) time, and returns its answer', async () => {
    const form = await openToolForm(tools, 'trigger-elicitation-request');
    const asked = nextEvent(host, 'inbox.added');
    // Said as soon as its question is in the Inbox.
    const waiting = nextEvent(host, 'call.changed', ({ call }) => call.waitingOnPerson === true);
    await form.getByRole('button', { name: 'Call tool' }).click();
    const { item } = await asked;
    assert.equal(item.taskId, undefined, 'an ordinary request, inside the plain call');
    await waiting;
    const running = page.getByRole('region', { name: 'Running calls' });
    await running.getByText(/^trigger-elicitation-request/).waitFor();

    // Three minutes pass on the core's clock (and the page's): far past the 60 s idle timeout.
    await clock.advance(180_000);
    await page.clock.fastForward(180_000);
    // In the Tasks screen's words for the kind: a question (elicitation).
    await running.getByText('Everything has a question for you in the Inbox').waitFor();
    assert.match((await running.locator('.elapsed').textContent()) ?? '', /^3 min/);
    assert.equal((await host.call('tools.runningCalls', {})).length, 1, 'the call did not time out');

    // "in the Inbox" leads to the question itself.
    await running.getByRole('link', { name: 'in the Inbox' }).click();
    const card = page.locator(`[data-inbox-id="${item.id}"]`);
    await page.waitForFunction((id) => (document.activeElement as HTMLElement | null)?.dataset.inboxId === id, item.id);
    // The same fields as a tool's arguments, without a type: a question's field reads as its description.
    assert.equal(
      await accessibleDescription(card.getByRole('textbox', { name: 'String with email format' })),
      'Your email address (will be verified, and never shared with anyone else)'
    );
    await card.getByRole('button', { name: 'Decline' }).click();
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tools', exact: true }).click();
    await form.locator('.call-result').getByText('User declined to provide the requested information.').waitFor();
    // Its "Raw result: {…}" keeps the JSON as the server indented it.
    assert.match(
      (await form.locator('.call-result pre.json').first().textContent()) ?? '',
      /^\{\n {2}"action": "decline"/
    );
    await running.waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });

  it('a plain call the person cancels is reported as cancelled, not as a failure to try again', async () => {
    // Its form is still open from the test above.
    const form = tools
      .locator('li[data-tool="trigger-elicitation-request"]')
      .getByRole('form', { name: 'Call trigger-elicitation-request' });
    const asked = nextEvent(host, 'inbox.added');
    await form.getByRole('button', { name: 'Call tool' }).click();
    const { item } = await asked;
    const running = page.getByRole('region', { name: 'Running calls' });
    await running.getByRole('button', { name: /^Cancel trigger-elicitation-request on / }).click();
    // An outcome the person asked for, said under the form: no error alert, nothing to try again.
    await form.locator('.call-result').getByText('You cancelled this call of trigger-elicitation-request.').waitFor();
    assert.equal(await form.getByRole('alert').count(), 0, 'no error alert');
    assert.equal(await form.getByRole('button', { name: 'Try again' }).count(), 0);
    await running.waitFor({ state: 'detached' });
    // The server's own question is the server's to withdraw; answered, it goes.
    await host.call('inbox.answer', { id: item.id, answer: { action: 'decline' } });
    assert.deepEqual(pageErrors, []);
  });

  it('says a running call’s server has a model request in the Inbox when it asks for sampling', async () => {
    const form = await openToolForm(tools, 'trigger-sampling-request');
    await form.getByLabel('prompt').fill('no provider here');
    const asked = nextEvent(host, 'inbox.added');
    await form.getByRole('button', { name: 'Call tool' }).click();
    const { item } = await asked;
    assert.equal(item.kind, 'sampling', 'no provider: the person writes the reply');
    const running = page.getByRole('region', { name: 'Running calls' });
    await running.getByText('Everything has a model request for you in the Inbox').waitFor();
    assert.doesNotMatch((await running.textContent()) ?? '', /question/);
    await host.call('inbox.answer', { id: item.id, answer: { action: 'reject' } });
    await running.waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });

  it('names beside a running call only what its server asked since the call started, not an earlier model request', async () => {
    const sampling = await openToolForm(tools, 'trigger-sampling-request');
    await sampling.getByLabel('prompt').fill('asked before the next call');
    const asked = nextEvent(host, 'inbox.added');
    await sampling.getByRole('button', { name: 'Call tool' }).click();
    const { item: earlier } = await asked;
    // The next call starts a second later (the core's clock moves only when told, the page's with it).
    await clock.advance(1_000);
    await page.clock.fastForward(1_000);

    // A call that asks nothing: the earlier model request is not its to answer.
    const long = await openToolForm(tools, 'trigger-long-running-operation');
    await long.getByLabel('duration').fill('2');
    await long.getByLabel('steps').fill('2');
    const started = nextEvent(
      host,
      'call.changed',
      ({ call }) => call.toolName === 'trigger-long-running-operation' && call.state === 'running'
    );
    await long.getByRole('button', { name: 'Call tool' }).click();
    const { call } = await started;
    assert.equal(call.waitingOnPerson, true, 'the core still keeps it from timing out meanwhile');
    const running = page.getByRole('region', { name: 'Running calls' });
    // Its line, not the line of its arguments under it.
    const line = running.locator(`li[data-call-id="${call.callId}"] > p.running-call-line`);
    await line.waitFor();
    assert.match(
      (await line.textContent()) ?? '',
      /^trigger-long-running-operation on Everything · running for [^·]+$/
    );
    // The call that asked it still says so.
    const samplingLine = running
      .locator('li', { hasText: /^trigger-sampling-request on / })
      .locator('> p.running-call-line');
    assert.match((await samplingLine.textContent()) ?? '', /Everything has a model request for you in the Inbox$/);
    await long
      .locator('.call-result')
      .getByText(/^Long running operation completed\./)
      .waitFor({ timeout: 20_000 });

    // A call that asks a question of its own: the question alone is named, and its link leads to it.
    await clock.advance(1_000);
    await page.clock.fastForward(1_000);
    const question = await openToolForm(tools, 'trigger-elicitation-request');
    const askedNow = nextEvent(host, 'inbox.added');
    await question.getByRole('button', { name: 'Call tool' }).click();
    const { item: own } = await askedNow;
    const questionCall = running.locator('li', { hasText: /^trigger-elicitation-request on / });
    await questionCall.getByText('Everything has a question for you in the Inbox').waitFor();
    assert.equal(
      await questionCall.getByRole('link', { name: 'in the Inbox' }).getAttribute('href'),
      `#inbox/${encodeURIComponent(own.id)}`
    );

    await host.call('inbox.answer', { id: own.id, answer: { action: 'decline' } });
    await host.call('inbox.answer', { id: earlier.id, answer: { action: 'reject' } });
    await running.waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });

  it('says an argument’s default at its field once its control no longer shows it: “Default: 10” under a number, “(not set: false by default)” in a boolean’s choice', async () => {
    // A newcomer saw duration empty and ambiguous "(not set)", and could not tell what either meant.
    const form = await openToolForm(tools, 'trigger-long-running-operation');
    const duration = form.getByRole('spinbutton', { name: 'duration', exact: true });
    const steps = form.getByRole('spinbutton', { name: 'steps', exact: true });
    // Emptied (a fresh form holds the default: see the first test), it says what leaving it so means; changed, what it was.
    await duration.fill('');
    assert.equal(await accessibleDescription(duration), 'Duration of the operation in seconds (number) Default: 10');
    const said = form.locator('.field-default', { hasText: 'Default: 10' });
    assert.ok(await said.isVisible(), 'seen, not only read');
    // A newcomer read the hint's text as "Duration of the operation in secondsnumber (number) Default: 10".
    assert.equal(
      await said.locator('xpath=..').textContent(),
      'Duration of the operation in seconds (number) Default: 10',
      'the page’s text says each once, in order'
    );
    const hint = await said.evaluate((element) => [
      element.getBoundingClientRect().top,
      element.previousElementSibling!.getBoundingClientRect().bottom
    ]);
    assert.ok(hint[0]! >= hint[1]!, 'on a line of its own, under the description and its type');
    await steps.fill('3');
    assert.equal(await accessibleDescription(steps), 'Number of steps in the operation (number) Default: 5');
    await steps.fill('5');
    assert.equal(
      await accessibleDescription(steps),
      'Number of steps in the operation (number)',
      'back to the default'
    );
    const research = await openToolForm(tools, 'simulate-research-query');
    const ambiguous = research.getByRole('combobox', { name: 'ambiguous', exact: true });
    await ambiguous.selectOption('');
    assert.equal(await ambiguous.locator('option:checked').textContent(), '(not set: false by default)');
    assert.equal(
      await accessibleDescription(research.getByRole('textbox', { name: 'topic', exact: true })),
      'The research topic to investigate',
      'no default, nothing more said'
    );
    assert.deepEqual(pageErrors, []);
  });

  it('reads an argument of echo as its description (plain text needs no type word); Call… reads Close form while open', async () => {
    const item = tools.locator('li[data-tool="echo"]');
    const form = await openToolForm(tools, 'echo');
    const button = item.locator('.card-header button');
    assert.deepEqual([await button.textContent(), await button.getAttribute('aria-expanded')], ['Close form', 'true']);
    const message = form.getByRole('textbox', { name: 'message', exact: true });
    assert.equal(await accessibleDescription(message), 'Message to echo');
    await button.click();
    await form.waitFor({ state: 'hidden' });
    assert.deepEqual([await button.textContent(), await button.getAttribute('aria-expanded')], ['Call…', 'false']);
    assert.deepEqual(pageErrors, []);
  });
});

describe('a task of server-everything (simulate-research-query) in the Tasks detail view', () => {
  let host: Host;
  let page: Page;
  let close: (() => Promise<void>) | undefined;
  const pageErrors: string[] = [];

  before(async () => {
    ({ host, page, close } = await openEverythingDesk(pageErrors, { viewport: { width: 1100, height: 1400 } }));
  });

  after(async () => {
    await close?.();
  });

  it('shows the report rendered as Markdown, the timeline and the raw JSON', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tools', exact: true }).click();
    const tools = page.getByRole('region', { name: 'Tools' });
    const form = await openToolForm(tools, 'simulate-research-query');
    await form.getByLabel('topic').fill('tides');
    const finished = nextEvent(
      host,
      'outbound.changed',
      (event) => event.type === 'changed' && event.task.toolName === 'simulate-research-query' && !!event.task.outcome
    );
    await form.getByRole('button', { name: 'Call tool' }).click();
    // Taskdesk asked for its default hour; the server grants its tasks 5 minutes, and the card says so.
    const card = toolCallCard(page.getByRole('region', { name: 'Tool calls' }), 'simulate-research-query');
    await card.locator('.meta', { hasText: '(Taskdesk asked for 1 h)' }).waitFor();
    assert.match(
      (await card.locator('.meta').textContent()) ?? '',
      /the server keeps the task and its result for 4 min more, until .+ \(Taskdesk asked for 1 h\)/
    );
    await form.getByRole('link', { name: 'its detail on Tasks' }).click();
    const detail = page.getByRole('region', { name: 'Tasks' }).locator('.task-detail');
    await detail.getByRole('heading', { name: 'simulate-research-query', exact: true }).waitFor();
    // The detail says it too, in how long the task is kept.
    await detail.locator('dd', { hasText: '(Taskdesk asked for 1 h)' }).waitFor();
    const { task } = (await finished) as { task: { outboundId: string } };
    const markdown = detail.locator('.tool-result .markdown');
    await markdown.getByRole('heading', { name: 'Research Report: tides' }).waitFor();
    assert.equal(await markdown.locator('strong', { hasText: 'Topic' }).count(), 1);
    await detail.locator('.timeline [data-status="completed"]').waitFor();
    assert.equal(await detail.locator('.timeline [data-status]').first().getAttribute('data-status'), 'working');
    const raw = JSON.parse((await detail.locator('.raw-json').textContent()) ?? '') as {
      outboundId: string;
      state: string;
    };
    assert.deepEqual([raw.outboundId, raw.state], [task.outboundId, 'completed']);
    assert.deepEqual(pageErrors, []);
  });
});
