import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Locator } from 'playwright-core';
import { z } from 'zod';
import { nextEvent, peerServer, type PeerServer } from '../support/host-fixture.js';
import { ManualClock } from '../support/manual-clock.js';
import { createTaskToolPeer } from '../support/task-tool-server.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { openToolForm } from './renderer-build.js';

/**
 * What a newcomer saw on the Tools screen: calls of one tool that could not be told apart, a
 * "Last called" line that read as the state of the call running under it, and a cancelled task
 * that kept its progress bar.
 */
describe('the Tools screen’s call cards, in headless Chromium against the real core', () => {
  let desk: DeskFixture;
  // The task server's work runs on a clock the test moves: progress and ends come when it says.
  const clock = new ManualClock(Date.now());
  const { peer: jobs } = createTaskToolPeer({ clock, pollInterval: 3_600_000, statusNotifications: true });
  // A plain tool that runs until the test lets it answer (or it is cancelled).
  let arrive: ((release: () => void) => void) | undefined;
  const nextArrival = () => new Promise<() => void>((resolve) => (arrive = resolve));
  const mcp = new McpServer({ name: 'plain', version: '1.0.0' }, { capabilities: { tools: {} } });
  mcp.registerTool('wait', { inputSchema: { message: z.string() } }, async ({ message }, extra) => {
    await new Promise<void>((resolve) => {
      extra.signal.addEventListener('abort', () => resolve());
      arrive?.(resolve);
    });
    return { content: [{ type: 'text', text: `Waited: ${message}` }] };
  });
  const plain: PeerServer = { ...peerServer('plain'), server: mcp.server };

  before(async () => {
    desk = await startDesk({ jobs, plain }, { viewport: { width: 1100, height: 1400 } });
    await desk.page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'Tools', exact: true })
      .click();
  });

  after(async () => {
    await desk?.close();
  });

  const toolsScreen = () => desk.page.getByRole('region', { name: 'Tools' });
  const callCards = () => desk.page.getByRole('region', { name: 'Tool calls' }).locator('li[data-outbound-id]');
  const cardOf = (outboundId: string): Locator =>
    desk.page.getByRole('region', { name: 'Tool calls' }).locator(`li[data-outbound-id="${outboundId}"]`);

  /**
   * A long line of arguments is cut at its card's edge: the card is no wider than its list, and
   * the page does not scroll sideways (the line's text made both as wide as itself).
   */
  async function assertWithinCard(line: Locator): Promise<void> {
    const [lineWidth, cardWidth, listWidth, pageWidth, windowWidth] = await line.evaluate((element) => {
      const card = element.closest('li.card')!;
      return [
        element.getBoundingClientRect().width,
        card.getBoundingClientRect().width,
        card.parentElement!.getBoundingClientRect().width,
        document.documentElement.scrollWidth,
        window.innerWidth
      ];
    });
    assert.ok(lineWidth < cardWidth, `the line (${lineWidth} px) within its card (${cardWidth} px)`);
    assert.ok(cardWidth <= listWidth, `the card (${cardWidth} px) within its list (${listWidth} px)`);
    assert.ok(pageWidth <= windowWidth, `no sideways scroll: ${pageWidth} px in a window of ${windowWidth} px`);
  }

  /** What each of `controls` is described by (`aria-describedby`), as text: null for none. */
  async function describedBy(controls: Locator): Promise<Array<string | null>> {
    return controls.evaluateAll((elements) =>
      elements.map((element) => {
        const ids = element.getAttribute('aria-describedby');
        return ids === null
          ? null
          : ids
              .split(' ')
              .map((id) => document.getElementById(id)?.textContent ?? `(no element ${id})`)
              .join(' ');
      })
    );
  }

  async function startTask(args: Record<string, unknown>): Promise<string> {
    const outcome = await desk.fixture.host.call('tools.call', {
      serverId: 'jobs',
      name: 'work-required',
      arguments: args
    });
    assert.equal(outcome.type, 'task');
    return outcome.type === 'task' ? outcome.task.outboundId : '';
  }

  it('tells three running calls of one tool apart by a line of their arguments, each in one line', async () => {
    const { page, pageErrors } = desk;
    await toolsScreen().getByLabel('Server', { exact: true }).selectOption('jobs');
    const labels = ['across restart', 'nightly', 'x'.repeat(200)];
    const ids: string[] = [];
    for (const label of labels) ids.push(await startTask({ durationMs: 600_000, label }));
    await page.waitForFunction((count) => document.querySelectorAll('li[data-outbound-id]').length === count, 3);
    // Each card reads "work-required on Server jobs": its arguments are what tells it apart.
    assert.deepEqual(await callCards().locator('h3').allTextContents(), Array(3).fill('work-required on Server jobs'));
    const previews = await Promise.all(ids.map((id) => cardOf(id).locator('.call-arguments').textContent()));
    assert.deepEqual(previews.slice(0, 2), [
      'durationMs: 600000, label: "across restart"',
      'durationMs: 600000, label: "nightly"'
    ]);
    // A long one whole in its tooltip, as its Tasks row's is (two calls may differ late in their
    // arguments), and one line on the card, cut to its width: not a block of text.
    const line = cardOf(ids[2]!).locator('.call-arguments');
    assert.equal(previews[2], `durationMs: 600000, label: "${'x'.repeat(200)}"`);
    assert.equal(await line.getAttribute('title'), previews[2]);
    const [height, lineHeight] = await line.evaluate((element) => [
      element.getBoundingClientRect().height,
      parseFloat(getComputedStyle(element).lineHeight)
    ]);
    assert.ok(height < lineHeight * 1.5, `one line: ${height} px for a line of ${lineHeight} px`);
    await assertWithinCard(line);
    // The whole arguments stay a fold away.
    assert.equal(await cardOf(ids[0]!).locator('.arguments').count(), 1);
    // Its buttons are named by its tool and when it started, as a plain call's Cancel is: not by the
    // server's id for the task, which its card keeps in a tooltip only.
    const first = desk.fixture.host.requestor.list().find((task) => task.outboundId === ids[0])!;
    const names = await cardOf(ids[0]!)
      .getByRole('button')
      .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label') ?? button.textContent));
    assert.deepEqual(
      names.map((name) => name?.replace(/started \d{1,2}:\d{2}:\d{2}\b[^ ]*( [AP]M)?/, 'started <time>')),
      [
        'Check work-required task started <time> now',
        'Cancel work-required task started <time>',
        'Forget work-required task started <time>'
      ]
    );
    assert.ok(!(await cardOf(ids[0]!).innerText()).includes(first.taskId.slice(0, 8)), 'no task id on the card');
    // Two calls of one tool started in the same second are named alike: each button (and Details)
    // is described by its card's line of arguments, which tells them apart.
    for (const [index, id] of ids.entries())
      assert.deepEqual(
        await describedBy(cardOf(id).locator('.actions button, .actions a')),
        Array(4).fill(previews[index])
      );
    for (const id of ids) await desk.fixture.host.call('outbound.forget', { outboundId: id });
    assert.deepEqual(pageErrors, []);
  });

  it('tells running plain calls of one tool apart by a line of their arguments, under the tool and in Running calls', async () => {
    const { page, fixture, pageErrors } = desk;
    const tools = toolsScreen();
    await tools.getByLabel('Server', { exact: true }).selectOption('plain');
    // Two calls of `wait`, each running until it is cancelled (the tool waits for the test).
    const long = 'y'.repeat(2_000);
    const calls = ['nightly', long].map((message, index) =>
      fixture.host
        .call('tools.call', { serverId: 'plain', name: 'wait', arguments: { message }, callId: `args-${index}` })
        .catch((error: unknown) => error)
    );
    const underTool = tools.getByRole('list', { name: 'Running calls of wait' });
    const inList = page.locator('section.running-calls');
    await page.waitForFunction(() => document.querySelectorAll('li.running-call[data-call-id^="args-"]').length === 4);
    for (const place of [underTool, inList]) {
      const line = (callId: string) => place.locator(`li.running-call[data-call-id="${callId}"] .call-arguments`);
      assert.equal(await line('args-0').textContent(), 'message: "nightly"');
      assert.equal(await line('args-0').getAttribute('title'), 'message: "nightly"');
      // A long one as much as a task's card holds, cut to one line by the card's width, all of it in the tooltip.
      const cut = (await line('args-1').textContent()) ?? '';
      assert.match(cut, /^message: "y+…$/);
      assert.equal([...cut].length, 600);
      assert.equal(await line('args-1').getAttribute('title'), cut);
      const [height, lineHeight] = await line('args-1').evaluate((element) => [
        element.getBoundingClientRect().height,
        parseFloat(getComputedStyle(element).lineHeight)
      ]);
      assert.ok(height < lineHeight * 1.5, `one line: ${height} px for a line of ${lineHeight} px`);
      await assertWithinCard(line('args-1'));
      // Its Cancel is described by it, as a task card's buttons are.
      for (const callId of ['args-0', 'args-1'])
        assert.deepEqual(await describedBy(place.locator(`li.running-call[data-call-id="${callId}"] button`)), [
          await line(callId).textContent()
        ]);
    }
    for (const callId of ['args-0', 'args-1']) await fixture.host.call('tools.cancelCall', { callId });
    await Promise.all(calls);
    await page.locator('li.running-call').first().waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });

  it('shows a cancelled task’s progress as where it stopped, with no bar, on its card and its detail', async () => {
    const { page, pageErrors } = desk;
    const id = await startTask({ durationMs: 700, label: 'to cancel', progressSteps: 6 });
    const card = cardOf(id);
    await card.locator('[data-status="working"]').waitFor();
    const progressed = nextEvent(
      desk.fixture.host,
      'outbound.changed',
      (event) => event.type === 'changed' && event.task.outboundId === id && event.task.progress.count === 1
    );
    await clock.advance(100);
    await progressed;
    const bar = card.getByRole('progressbar', { name: 'Progress of work-required' });
    await bar.waitFor();
    assert.equal(await card.locator('.progress-text').textContent(), 'step 1 · 1/6');

    await card.getByRole('button', { name: /^Cancel work-required task / }).click();
    await card.locator('.outcome-cancelled', { hasText: /^Cancelled by you$/ }).waitFor();
    assert.equal(await card.getByRole('progressbar').count(), 0, 'no bar on a task that was cancelled');
    assert.equal(await card.locator('.progress-line').count(), 0);
    assert.equal(await card.locator('.progress-ended').textContent(), 'Progress when it stopped: step 1 · 1/6');

    // Its detail on Tasks says it alike.
    await card.getByRole('link', { name: /^Details/ }).click();
    const detail = page.getByRole('region', { name: 'Tasks' }).locator('.task-detail');
    await detail.locator('.detail-progress').waitFor();
    assert.equal(await detail.getByRole('progressbar').count(), 0, 'no bar in the detail of a cancelled task');
    assert.equal(await detail.locator('.progress-ended').textContent(), 'Progress when it stopped: step 1 · 1/6');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tools', exact: true }).click();
    await desk.fixture.host.call('outbound.forget', { outboundId: id });
    assert.deepEqual(pageErrors, []);
  });

  it('shows a completed task’s last progress in words, not as a bar still going', async () => {
    const { pageErrors } = desk;
    const id = await startTask({ durationMs: 300, label: 'to finish', progressSteps: 2 });
    const card = cardOf(id);
    await card.locator('[data-status="working"]').waitFor();
    await clock.advance(300);
    await card.locator('[data-status="completed"]').waitFor();
    await card.getByText('done: to finish').waitFor();
    assert.equal(await card.getByRole('progressbar').count(), 0);
    assert.equal(await card.locator('.progress-ended').textContent(), 'Last progress: step 2 · 2/2');
    await desk.fixture.host.call('outbound.forget', { outboundId: id });
    assert.deepEqual(pageErrors, []);
  });

  it('says “Previous call” of the last call History has while a later call of the tool runs on its card', async () => {
    const { page, fixture, pageErrors } = desk;
    const tools = toolsScreen();
    await tools.getByLabel('Server', { exact: true }).selectOption('plain');
    const item = tools.locator('li.tool[data-tool-server="plain"][data-tool="wait"]');
    const line = item.locator('.tool-last-call');
    const form = await openToolForm(tools, 'wait');
    await form.getByLabel('message').fill('first');
    let arrival = nextArrival();
    await form.getByRole('button', { name: 'Call tool' }).click();
    (await arrival)();
    await form.getByText('Waited: first').waitFor();
    await line.filter({ hasText: /^Last called at .+: completed — see it in History$/ }).waitFor();
    const first = (await fixture.host.call('history.list', { filter: { serverId: 'plain', kind: 'tool-call' } }))
      .entries[0]!;
    assert.equal(await line.locator('time').getAttribute('datetime'), first.createdAt);

    await form.getByLabel('message').fill('second');
    arrival = nextArrival();
    await form.getByRole('button', { name: 'Call tool' }).click();
    const release = await arrival;
    const running = item.getByRole('list', { name: 'Running calls of wait' }).locator('li.running-call');
    await running.waitFor();
    // The line speaks of the call before the one running under it, not as if it were where things stand.
    await line.filter({ hasText: /^Previous call at .+: completed — see it in History$/ }).waitFor();
    assert.equal(await line.locator('time').getAttribute('datetime'), first.createdAt);

    release();
    await form.getByText('Waited: second').waitFor();
    await running.waitFor({ state: 'detached' });
    // Once the call ended and History has it, that call is the last one.
    await page.waitForFunction(
      (before) => {
        const time = document.querySelector('li.tool[data-tool="wait"] .tool-last-call time');
        return time !== null && time.getAttribute('datetime') !== before;
      },
      first.createdAt,
      { timeout: 10_000 }
    );
    assert.match((await line.textContent()) ?? '', /^Last called at .+: completed — see it in History$/);
    assert.deepEqual(pageErrors, []);
  });
});
