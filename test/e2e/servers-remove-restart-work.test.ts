import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { createHost, type Host } from '../../app/host/host.js';
import { everythingServer } from '../support/everything-server.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { recordSaid, said, saidTimes } from './live-region.js';
import { buildRenderer, openDesk } from './renderer-build.js';

/**
 * A Save that restarts a server, and its Remove, with questions and model requests of its plain
 * calls waiting in the Inbox: each says before what ends, and what it ended is said to be the
 * person's doing (the Inbox's notice, History), not the server's.
 */
describe(
  'Remove and a restarting Save with work under way, in headless Chromium against the real core',
  {
    skip: process.platform === 'win32'
  },
  () => {
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
      // Saved from the Desk (not given by the host's config), so that Edit… and Remove are offered.
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
    const card = () => page.locator('li[data-server-id="everything"]');

    /** A plain call of `tool` whose server asks something outside a task: resolves once it waits in the Inbox. */
    async function askedBy(tool: 'trigger-elicitation-request' | 'trigger-sampling-request') {
      const added = nextEvent(host, 'inbox.added', ({ item }) => item.taskId === undefined);
      const call = host
        .call('tools.call', {
          serverId: 'everything',
          name: tool,
          arguments: tool === 'trigger-sampling-request' ? { prompt: 'Name a colour', maxTokens: 20 } : {}
        })
        .catch((error: unknown) => error);
      const { item } = await added;
      const entry = nextEvent(
        host,
        'history.changed',
        ({ entry: changed }) => changed.kind === item.kind && changed.status === 'cancelled'
      );
      return { item, call, entry };
    }

    /**
     * Nothing the Desk said of the withdrawal of `ids` reads as the server's doing, and no notice
     * tells it so: withdrawn by the person's own act, with nothing written in it, it is announced
     * (as its act's outcome), not put in a notice.
     */
    async function notSaidAsTheServers(ids: string[]): Promise<void> {
      for (const text of await said(page)) assert.doesNotMatch(text, /Everything withdrew|cancelled the request/);
      for (const id of ids) assert.equal(await page.locator(`.notice-withdrawn[data-inbox-id="${id}"]`).count(), 0);
    }

    it('a Save that restarts the server says what ends, and what it ended is said to be the person’s change', async () => {
      const question = await askedBy('trigger-elicitation-request');

      await nav('Servers');
      await recordSaid(page);
      await card().getByRole('button', { name: 'Edit Everything' }).click();
      const form = card().getByRole('form', { name: 'Edit Everything' });
      await form.getByRole('button', { name: 'Add variable' }).click();
      await form.getByLabel('Name of variable 1').fill('MODE');
      await form.getByLabel('Value of MODE').fill('fast');
      const note = form.getByText(/^Saving restarts/);
      await note.waitFor();
      assert.equal(
        await note.textContent(),
        'Saving restarts Everything: 1 running call will stop, and 1 question in the Inbox will be withdrawn.'
      );
      const ready = nextEvent(
        host,
        'server.state',
        ({ serverId, state }) => serverId === 'everything' && state.status === 'ready'
      );
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      await form.waitFor({ state: 'detached' });
      await ready;
      await card().locator('[data-status="ready"]').waitFor();

      const words = 'You changed Everything’s settings, and Taskdesk restarted it';
      // Said with what else is said then ("Saved Everything."): the live region may join them.
      await saidTimes(page, new RegExp(`Taskdesk withdrew Everything’s question “[^”]*”: ${words}\\.`));
      await notSaidAsTheServers([question.item.id]);
      const { entry } = await question.entry;
      assert.equal(entry.cancelledBy, 'you');
      assert.equal(entry.statusMessage, `${words} before it was answered`);
      // The call the Save broke off: stopped by the person, in their act's words, not failed.
      assert.equal(((await question.call) as Error).message, words);
      assert.deepEqual(pageErrors, []);
    });

    it('Remove says what ends of the work under way, and what it ended is said to be the person’s Remove', async () => {
      const question = await askedBy('trigger-elicitation-request');
      const model = await askedBy('trigger-sampling-request');

      await nav('Servers');
      await recordSaid(page);
      const dialog = page.getByRole('dialog', { name: 'Remove Everything?' });
      await card().getByRole('button', { name: 'Remove Everything', exact: true }).click();
      await dialog.waitFor();
      assert.deepEqual(await dialog.locator('.dialog-body p').allTextContents(), [
        '1 question and 1 model request waiting in the Inbox will be withdrawn and 2 running calls will stop.',
        'Taskdesk disconnects it and forgets its settings. Its tasks stay until they expire.'
      ]);
      // Cancel: nothing happens; the server stays, its work with it.
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      assert.equal(host.inbox.size, 2);

      await card().getByRole('button', { name: 'Remove Everything', exact: true }).click();
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
      await card().waitFor({ state: 'detached' });

      // Both at once: the live region may say them in one message.
      await saidTimes(page, /Taskdesk withdrew Everything’s question “[^”]*”: You removed Everything\./);
      await saidTimes(
        page,
        /Taskdesk withdrew Everything’s request for a model reply to “[^”]*”: You removed Everything\./
      );
      await notSaidAsTheServers([question.item.id, model.item.id]);
      for (const ended of [question, model]) {
        const { entry } = await ended.entry;
        assert.equal(entry.cancelledBy, 'you');
        assert.equal(entry.statusMessage, 'You removed Everything before it was answered');
      }
      assert.deepEqual(pageErrors, []);
    });
  }
);
