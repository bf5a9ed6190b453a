import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { createHost, type Host } from '../../app/host/host.js';
import { everythingServer } from '../support/everything-server.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { buildRenderer, openDesk, openToolForm } from './renderer-build.js';

/**
 * Renaming a server in Edit… while one of its calls runs: the call goes on, and a change that
 * would restart the server says before Save what would stop.
 */
describe('the Servers screen: saving a server with a call running', { skip: process.platform === 'win32' }, () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let data: ReturnType<typeof tempDir>;
  let host: Host;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    built = await buildRenderer();
    data = tempDir();
    host = createHost({ dataDir: data.dir, autoConnect: false, loginEnv: async () => ({ ...process.env }) });
    // Saved from the Desk (not given by the host's config), so that Edit… can change it.
    await host.call('servers.add', { ...everythingServer, autoConnect: false });
    const ready = await host.call('servers.connect', { serverId: 'everything' });
    assert.equal(ready.state.status, 'ready', ready.state.reason);
    ({ server, browser, page } = await openDesk(host, built.dir, pageErrors, {
      viewport: { width: 1100, height: 1400 }
    }));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await host?.close();
    data?.remove();
    built?.remove();
  });

  const nav = (name: string) => page.locator('nav').getByRole('link', { name, exact: true }).click();

  it('keeps the call on a rename, and warns before a change of arguments would stop it', async () => {
    // A call that runs until its question in the Inbox is answered.
    await nav('Tools');
    const tools = page.getByRole('region', { name: 'Tools' });
    await tools.getByLabel('Server', { exact: true }).selectOption('everything');
    const toolForm = await openToolForm(tools, 'trigger-elicitation-request');
    const asked = nextEvent(host, 'inbox.added');
    await toolForm.getByRole('button', { name: 'Call tool' }).click();
    const question = (await asked).item;
    const connection = host.connection('everything');

    await nav('Servers');
    const card = page.locator('li[data-server-id="everything"]');
    await card.getByRole('button', { name: 'Edit Everything' }).click();
    const form = card.getByRole('form', { name: 'Edit Everything' });
    const name = form.getByRole('textbox', { name: 'Name', exact: true });
    await name.fill('Everything renamed');
    // A new name restarts nothing: no warning.
    assert.equal(await form.getByText(/^Saving restarts/).count(), 0);
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await form.waitFor({ state: 'detached' });
    assert.equal(host.connection('everything'), connection, 'the same connection');
    assert.equal((await host.call('tools.runningCalls', {})).length, 1, 'the call runs on');
    assert.equal(
      host.audit.read({ type: 'server.state' }).filter((entry) => entry.detail?.status === 'closed').length,
      0
    );

    // The Tools screen still shows the running call with its Cancel (named as when it started).
    await nav('Tools');
    await page.getByRole('button', { name: /^Cancel trigger-elicitation-request on / }).waitFor();

    // Another argument would start it anew: said under Save before it is pressed.
    await nav('Servers');
    await card.getByRole('button', { name: 'Edit Everything renamed' }).click();
    const again = card.getByRole('form', { name: 'Edit Everything renamed' });
    const args = again.getByRole('textbox', { name: 'Arguments', exact: true });
    await args.fill(`${(await args.inputValue()).trimEnd()}\n--debug`);
    const note = again.getByText(/^Saving restarts/);
    await note.waitFor();
    assert.equal(
      await note.textContent(),
      'Saving restarts Everything renamed: 1 running call will stop, and 1 question in the Inbox will be withdrawn.'
    );
    const save = again.getByRole('button', { name: 'Save', exact: true });
    assert.equal(await save.getAttribute('aria-describedby'), await note.getAttribute('id'));
    // Undone, the warning goes.
    await args.fill(everythingServer.transport.args.join('\n'));
    await note.waitFor({ state: 'detached' });
    await again.getByRole('button', { name: 'Cancel', exact: true }).click();
    await again.waitFor({ state: 'detached' });

    // The call ends with the answer given after the rename.
    const ended = nextEvent(host, 'call.changed', ({ call }) => call.state !== 'running');
    await host.call('inbox.answer', { id: question.id, answer: { action: 'decline' } });
    assert.equal((await ended).call.state, 'completed');
    assert.deepEqual(pageErrors, []);
  });
});
