import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { nextEvent, type PeerServer } from '../support/host-fixture.js';
import { startDesk, type DeskFixture } from './desk-fixture.js';
import { openToolForm } from './renderer-build.js';
import { recordSaid, said, saidTimes } from './live-region.js';

/** A server whose one tool reports progress, then runs until it is cancelled. */
function progressPeer(): { peer: PeerServer; aborted: Promise<void> } {
  const server = new Server({ name: 'crunch-peer', version: '1.0.0' }, { capabilities: { tools: {} } });
  let resolveAborted!: () => void;
  const aborted = new Promise<void>((resolve) => (resolveAborted = resolve));
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'crunch', inputSchema: { type: 'object', properties: {} } }]
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const token = request.params._meta?.progressToken;
    if (token !== undefined)
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: 3, total: 10, message: 'Crunching row 3 of 10' }
      });
    await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve()));
    resolveAborted();
    return { content: [{ type: 'text', text: 'never seen' }] };
  });
  return {
    peer: { server, notifications: [], nextNotification: () => new Promise(() => undefined) },
    aborted
  };
}

/** What the `drained` server says as it ends every call itself with −32800: nobody at Taskdesk asked it to. */
const SERVER_WORDS = 'The job queue was drained';

/** A server whose one tool, `drained`, answers every call with its own −32800 (RequestCancelled). */
function drainedPeer(): PeerServer {
  const server = new Server({ name: 'drained-peer', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'drained', inputSchema: { type: 'object', properties: {} } }]
  }));
  server.setRequestHandler(CallToolRequestSchema, () => Promise.reject(new McpError(-32800, SERVER_WORDS)));
  return { server, notifications: [], nextNotification: () => new Promise(() => undefined) };
}

describe('a plain tool call on the Tools screen: elapsed time, progress and Cancel', () => {
  const crunch = progressPeer();
  let d: DeskFixture;

  before(async () => {
    d = await startDesk({ crunch: crunch.peer, drained: drainedPeer() });
  });

  after(async () => {
    await d?.close();
  });

  it('says on Tasks that a call that is not a task runs, and its link brings the Running calls list into sight', async () => {
    const { page, fixture } = d;
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tools', exact: true }).click();
    const tools = page.getByRole('region', { name: 'Tools' });
    await tools.getByLabel('Server', { exact: true }).selectOption('crunch');
    const form = await openToolForm(tools, 'crunch');
    const started = nextEvent(fixture.host, 'call.changed', ({ call }) => call.progress !== undefined);
    await form.getByRole('button', { name: 'Call tool' }).click();
    const { call } = await started;

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tasks', exact: true }).click();
    const note = page.getByRole('region', { name: 'Tasks' }).locator('p.plain-running');
    assert.equal(
      await note.textContent(),
      'A tool call that is not a task is running: follow it, or cancel it, under Running calls on Tools.'
    );
    await note.getByRole('link', { name: 'Running calls' }).click();
    const heading = page.getByRole('heading', { name: 'Running calls' });
    await page.waitForFunction(() => document.activeElement?.id === 'heading-running-calls');
    const box = await heading.boundingBox();
    const height = page.viewportSize()?.height ?? 0;
    assert.ok(box && box.y >= 0 && box.y + box.height <= height, `the heading is in sight (${JSON.stringify(box)})`);

    const ended = nextEvent(
      fixture.host,
      'call.changed',
      (event) => event.call.callId === call.callId && event.call.state !== 'running'
    );
    await fixture.host.call('tools.cancelCall', { callId: call.callId });
    await ended;
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tasks', exact: true }).click();
    await note.waitFor({ state: 'detached' });
  });

  it('shows the running call with its progress bar and message, keeps it across a reload, and Cancel ends it', async () => {
    const { page, fixture } = d;
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tools', exact: true }).click();
    const tools = page.getByRole('region', { name: 'Tools' });
    await tools.getByLabel('Server', { exact: true }).selectOption('crunch');
    const form = await openToolForm(tools, 'crunch');
    const progressed = nextEvent(fixture.host, 'call.changed', ({ call }) => call.progress !== undefined);
    await form.getByRole('button', { name: 'Call tool' }).click();
    await progressed;

    const running = page.getByRole('region', { name: 'Running calls' });
    const bar = running.getByRole('progressbar', { name: 'Progress of crunch' });
    await bar.waitFor();
    assert.equal(await bar.getAttribute('value'), '3');
    assert.equal(await bar.getAttribute('max'), '10');
    assert.equal(await running.locator('.progress-text').textContent(), 'Crunching row 3 of 10 · 3/10');
    assert.match((await running.locator('.elapsed').textContent()) ?? '', /^\d+ (s|min)/);
    // The tool's own card shows it too, under the form where the person clicked.
    const onCard = tools.locator('li[data-tool="crunch"]').getByRole('list', { name: 'Running calls of crunch' });
    assert.equal(await onCard.getByRole('progressbar', { name: 'Progress of crunch' }).getAttribute('value'), '3');
    assert.equal(await onCard.locator('.progress-text').textContent(), 'Crunching row 3 of 10 · 3/10');
    // Its two Cancels, one on the card and one in the list, say which is which to a screen reader.
    const [call] = await fixture.host.call('tools.runningCalls', {});
    // The start as the page's locale says it, to the second.
    const at = await page.evaluate(
      (iso) => new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' }).format(new Date(iso)),
      call!.startedAt
    );
    const cancels = page.getByRole('button', { name: /^Cancel crunch/ });
    assert.deepEqual(await cancels.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label'))), [
      `Cancel crunch, started ${at}`,
      `Cancel crunch on ${call!.serverName}, started ${at}, in Running calls`
    ]);
    assert.equal(await onCard.getByRole('button', { name: `Cancel crunch, started ${at}`, exact: true }).count(), 1);

    // A reload starts from the host's snapshot: the running call, its progress and its Cancel are in it.
    await page.reload();
    await page.locator('#app[data-ready="true"]').waitFor();
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Tools', exact: true }).click();
    await bar.waitFor();
    assert.equal(await running.locator('.progress-text').textContent(), 'Crunching row 3 of 10 · 3/10');
    assert.match((await running.locator('.elapsed').textContent()) ?? '', /^\d+ (s|min)/);

    const cancelled = nextEvent(fixture.host, 'call.changed', ({ call }) => call.state === 'cancelled');
    await running.getByRole('button', { name: /^Cancel crunch on / }).click();
    await crunch.aborted;
    assert.equal((await cancelled).call.error?.message, 'Cancelled by you');
    await running.waitFor({ state: 'detached' });
    await onCard.waitFor({ state: 'detached' });
    assert.deepEqual(d.pageErrors, []);
  });

  it('says under the form that the person cancelled the call, as an outcome and not an error', async () => {
    const { page, fixture } = d;
    const tools = page.getByRole('region', { name: 'Tools' });
    const form = await openToolForm(tools, 'crunch');
    const progressed = nextEvent(fixture.host, 'call.changed', ({ call }) => call.progress !== undefined);
    await form.getByRole('button', { name: 'Call tool' }).click();
    await progressed;
    const running = page.getByRole('region', { name: 'Running calls' });
    await running.getByRole('button', { name: /^Cancel crunch on / }).click();
    await form.locator('.call-result').getByText('You cancelled this call of crunch.').waitFor();
    assert.equal(await form.getByRole('alert').count(), 0, 'no error alert for a cancel the person asked for');
    // Cancel went with its call: the focus is on the tool's Call button, not on the page.
    await page.waitForFunction(() => document.activeElement?.textContent === 'Call tool');
    assert.ok(await form.getByRole('button', { name: 'Call tool' }).evaluate((b) => b === document.activeElement));
    assert.deepEqual(d.pageErrors, []);
  });

  it('brings a long call’s running line into sight under the form in an 800×600 window, and says once that it runs', async () => {
    const { page, fixture } = d;
    await page.setViewportSize({ width: 800, height: 600 });
    const item = page.getByRole('region', { name: 'Tools' }).locator('li[data-tool="crunch"]');
    // Still open from the test before.
    const button = item.getByRole('form', { name: 'Call crunch' }).getByRole('button', { name: 'Call tool' });
    // The Call tool button at the window's foot: the running line under it is below the fold.
    await button.evaluate((element) => element.scrollIntoView({ block: 'end' }));
    await recordSaid(page);
    const progressed = nextEvent(fixture.host, 'call.changed', ({ call }) => call.progress !== undefined);
    await button.focus();
    await page.keyboard.press('Enter');
    await progressed;

    const line = item.getByRole('list', { name: 'Running calls of crunch' }).locator('li.running-call');
    await line.locator('.progress-text', { hasText: 'Crunching row 3 of 10 · 3/10' }).waitFor();
    await page.waitForFunction(
      (element) => {
        const box = element.getBoundingClientRect();
        const bar = document.querySelector('.top-area')?.getBoundingClientRect().bottom ?? 0;
        return box.top >= bar - 1 && box.bottom <= window.innerHeight + 1;
      },
      await line.elementHandle(),
      { timeout: 5_000 }
    );
    assert.ok(await button.evaluate((element) => element === document.activeElement), 'the focus stays on Call tool');
    await saidTimes(page, /crunch on Server crunch is running\./);

    await line.getByRole('button', { name: /^Cancel crunch, started / }).click();
    await line.waitFor({ state: 'detached' });
    const heard = await said(page);
    assert.equal(
      heard.filter((text) => text.includes('crunch on Server crunch is running.')).length,
      1,
      heard.join(' | ')
    );
    // Back to Playwright's default window.
    await page.setViewportSize({ width: 1280, height: 720 });
    assert.deepEqual(d.pageErrors, []);
  });

  it('says a call the server itself ended with −32800 failed, in the server’s words, and not that the person cancelled it', async () => {
    const { page, fixture } = d;
    const tools = page.getByRole('region', { name: 'Tools' });
    await tools.getByLabel('Server', { exact: true }).selectOption('drained');
    const form = await openToolForm(tools, 'drained');
    const ended = nextEvent(
      fixture.host,
      'call.changed',
      ({ call }) => call.toolName === 'drained' && call.state !== 'running'
    );
    await form.getByRole('button', { name: 'Call tool' }).click();
    assert.equal((await ended).call.state, 'failed');
    const alert = form.getByRole('alert');
    // Whichever the form shows, an outcome under it or a failure in its alert: then which it is.
    await form.locator('.call-result > *, .action-error-what').first().waitFor();
    assert.equal(await form.locator('.call-result').textContent(), '');
    assert.equal(
      await alert.locator('.action-error-what').textContent(),
      `The call of drained failed. The server "Server drained" ended the call itself: ${SERVER_WORDS}.`
    );
    // A failure like any other: trying again may well go through.
    assert.equal(
      await alert.locator('.action-error-next').textContent(),
      'Try again. If it fails the same way, the reason above says what to change.'
    );
    assert.equal(
      await tools
        .locator('li[data-tool="drained"]')
        .getByText(/You cancelled/)
        .count(),
      0
    );
    assert.deepEqual(d.pageErrors, []);
  });
});
