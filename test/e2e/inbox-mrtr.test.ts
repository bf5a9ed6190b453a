import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { createHost, type Host } from '../../app/host/host.js';
import type { ServerConfigInput } from '../../app/mcp/server-config.js';
import { tempDir } from '../support/host-fixture.js';
import { buildRenderer, closeOpenedPages, openDesk, openToolForm, root } from './renderer-build.js';
import { recordSaid, said, saidTimes } from './live-region.js';

/**
 * The Inbox's questions of 2026-07-28 servers: a multi round-trip request's (test/support/mrtr-server.ts),
 * which Taskdesk holds while its server waits in nothing but its `requestState`, and a task's input
 * request (test/support/modern-task-server.ts), which the server's task waits on. Neither is a
 * request a server may give up on after a minute, so neither card warns that it may; and a
 * question the person's own Cancel withdrew is not told to them as the server's doing.
 */

const support = (name: string) => fileURLToPath(new URL(`../support/${name}`, import.meta.url));

const stdio = (id: string, name: string, script: string, args: string[] = []): ServerConfigInput => ({
  id,
  name,
  transport: {
    type: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', support(script), ...args],
    cwd: root
  },
  autoConnect: false,
  protocol: '2026-07-28'
});

describe('the Inbox with questions of 2026-07-28 servers', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  const data = tempDir();
  let host: Host;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  let tools: Locator;
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
    host = createHost({ dataDir: data.dir, autoConnect: false });
    await host.call('servers.add', stdio('mrtr', 'MRTR', 'mrtr-server.ts'));
    await host.call('servers.add', stdio('modern', 'Modern', 'modern-task-server.ts', ['{"legacy":"reject"}']));
    for (const id of ['mrtr', 'modern']) {
      const view = await host.connect(id);
      assert.equal(view.state.status, 'ready', view.state.reason);
    }
    ({ server, browser, page } = await openDesk(host, built.dir, pageErrors, {
      viewport: { width: 1100, height: 1400 },
      // The page's clock is driven here: no real minute passes.
      beforeLoad: (page) => page.clock.install()
    }));
    tools = page.getByRole('region', { name: 'Tools' });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await host?.close();
    data.remove();
    built?.remove();
  });

  const nav = (name: string) => page.locator('nav').getByRole('link', { name, exact: true });

  /** Calls a tool of a server from the Tools screen, with its form as it comes. */
  const callTool = async (serverName: string, tool: string): Promise<void> => {
    await nav('Servers').click();
    await page.getByRole('button', { name: `Tools of ${serverName}` }).click();
    await tools.locator(`li[data-tool="${tool}"]`).filter({ visible: true }).waitFor();
    const form = await openToolForm(tools, tool);
    await form.getByRole('button', { name: 'Call tool' }).click();
  };

  it('says nothing of a server giving up on a multi round-trip request’s question, which Taskdesk holds', async () => {
    await callTool('MRTR', 'ask-name');
    await nav('Inbox 1 waiting').click();
    const card = page.getByRole('article', { name: 'Your name?' });
    await card.waitFor();
    // No task of the server waits on it (the exchange's id is Taskdesk's own): the request does.
    assert.match(
      (await card.locator('.meta').textContent()) ?? '',
      /^From MRTR · asked .* · your request waits on it · for tool ask-name · /
    );
    assert.doesNotMatch((await card.locator('.meta').textContent()) ?? '', /task/);
    await page.clock.fastForward(41_000);
    // The card goes on counting how long it waits; no note says the server may stop waiting.
    await card.locator('.waiting-since', { hasText: /^waiting for 4\d s$/ }).waitFor();
    assert.equal(await card.locator('.wait-note').count(), 0);
    await card.getByRole('button', { name: 'Decline' }).click();
    await card.waitFor({ state: 'detached' });
  });

  it('says nothing of a server giving up on a task’s input request either: its task waits on it', async () => {
    await callTool('Modern', 'ask-name');
    await nav('Inbox 1 waiting').click();
    const card = page.getByRole('article', { name: 'Your name?' });
    await card.waitFor();
    await card.locator('.meta', { hasText: / · your call of ask-name waits on it · / }).waitFor();
    await page.clock.fastForward(41_000);
    // The page's clock is ahead by the first test's 41 s too.
    await card.locator('.waiting-since', { hasText: /^waiting for 1 min \d+ s$/ }).waitFor();
    assert.equal(await card.locator('.wait-note').count(), 0);
    await card.getByLabel('name').fill('Ada');
    await card.getByRole('button', { name: 'Submit' }).click();
    await card.waitFor({ state: 'detached' });
  });

  it('after the person opens a link, waits for them to say they have finished in the browser, then sends the call again', async () => {
    // The link's site is served by the test: the page opened proves the link was followed, and nothing leaves the machine.
    const opened = new Promise<string>((resolve) => {
      void page.context().route('https://example.com/**', (route) => {
        resolve(route.request().url());
        void route.fulfill({ status: 200, contentType: 'text/plain', body: 'signed in' });
      });
    });
    await callTool('MRTR', 'open-page');
    await nav('Inbox 1 waiting').click();
    const card = page.getByRole('article', { name: 'Sign in to the example service' });
    await card.getByRole('button', { name: 'Open link…' }).click();
    await page.getByRole('dialog', { name: 'Open this link?' }).getByRole('button', { name: 'Open link' }).click();
    assert.equal(await opened, 'https://example.com/sign-in');
    await closeOpenedPages(page);
    await card.waitFor({ state: 'detached' });

    // Accepting is consent, not the work done on the page: the call is not sent again yet.
    const waiting = page.getByRole('article', { name: 'Finish in your browser, then continue' });
    await waiting.waitFor();
    assert.match((await waiting.locator('.meta').textContent()) ?? '', /^From MRTR · for tool open-page · since /);
    await waiting.getByText('You agreed to open a page on example.com.', { exact: false }).waitFor();
    assert.equal(await page.getByText('Nothing is waiting for you.').isVisible(), false);
    // No question is left, yet the request waits on the person: the Inbox's badge (seen from any
    // screen) and the window's title count it.
    await nav('Inbox 1 waiting').waitFor();
    await page.waitForFunction(() => document.title === '(1) Inbox · Taskdesk');
    const [exchange] = await host.call('exchanges.list', {});
    assert.equal(exchange?.state, 'waiting-for-you');
    assert.equal(exchange?.round, 1);

    // The call ends once its retry is answered (its result is the server's "page: accept").
    const ended = new Promise<string>((resolve) => {
      const off = host.on('call.changed', ({ call }) => {
        if (call.toolName !== 'open-page' || call.state === 'running') return;
        off();
        resolve(call.state);
      });
    });
    await waiting.getByRole('button', { name: 'I’ve finished in the browser — continue' }).click();
    await waiting.waitFor({ state: 'detached' });
    await page.getByText('Nothing is waiting for you.').waitFor();
    await nav('Inbox').waitFor();
    await page.waitForFunction(() => document.title === 'Inbox · Taskdesk');
    assert.equal(await ended, 'completed');
    assert.deepEqual(await host.call('exchanges.list', {}), []);
  });

  it('tells no notice of a model request the person’s Cancel of its call withdrew, and blames no server', async () => {
    await callTool('MRTR', 'draft');
    const running = tools.locator('li[data-tool="draft"] .running-call');
    await running.getByText(/MRTR has (a question and )?a model request for you in the Inbox/).waitFor();
    // Everything the live region says from here on.
    await recordSaid(page);
    await running.getByRole('button', { name: /^Cancel draft, started / }).click();
    // A screen reader hears why it went, in the person's terms; the screen shows no notice of it.
    await saidTimes(page, /Write one word\./);
    // Said with what the Cancel itself says ("draft cancelled."), in one breath.
    const text = (await said(page)).find((line) => line.includes('Write one word.'))!;
    assert.ok(
      text.includes(
        'Taskdesk withdrew MRTR’s request for a model reply to “Write one word.”: The call this was asked for (tool draft) was cancelled by you.'
      ),
      text
    );
    assert.ok(!text.includes('MRTR withdrew'), text);
    await nav('Inbox').click();
    await page.getByText('Nothing is waiting for you.').waitFor();
    assert.equal(await page.locator('.notice-withdrawn').count(), 0);
    assert.equal(await page.getByText(/before you answered/).count(), 0);
    assert.deepEqual(pageErrors, []);
  });
});
