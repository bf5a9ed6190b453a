import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page, Locator } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { createHost, type Host } from '../../app/host/host.js';
import { everythingServer } from '../support/everything-server.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { buildRenderer, openDesk, openToolForm } from './renderer-build.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { recordSaid, said, saidTimes } from './live-region.js';

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
      'Saving restarts Everything renamed: 1 question waiting in the Inbox will be withdrawn and 1 running call will stop.'
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

/**
 * Escape in a field of a server's Edit… form does not close the form from under the typing: it
 * leaves the field for the form, as in a tool's form and an Inbox card, and a second Escape, on
 * the form, closes it as Cancel does (asking first when it holds changes not saved).
 */
describe('Escape in a server’s Edit… form, in headless Chromium against the real core', () => {
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
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      keyStore: new InMemoryKeyStore(),
      loginEnv: async () => ({ ...process.env }),
      importPlaces: { home: '/nonexistent/taskdesk-e2e-home', platform: 'linux' }
    });
    // Never connected here: their cards have Edit…, and nothing runs (port 9 refuses at once).
    await host.call('servers.add', {
      id: 'alpha',
      name: 'Alpha',
      autoConnect: false,
      transport: { type: 'http', url: 'http://127.0.0.1:9/alpha' },
      secrets: { env: [], headers: [] }
    });
    await host.call('servers.add', {
      id: 'beta',
      name: 'Beta',
      autoConnect: false,
      transport: { type: 'stdio', command: 'beta-server', args: ['--quiet'] },
      secrets: { env: [], headers: [] }
    });
    ({ server, browser, page } = await openDesk(host, built.dir, pageErrors, {
      viewport: { width: 1100, height: 1400 }
    }));
    await page.locator('nav').getByRole('link', { name: 'Servers', exact: true }).click();
    await page.locator('li[data-server-id="beta"]').waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await host?.close();
    data?.remove();
    built?.remove();
  });

  const focused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);
  const dialog = () => page.getByRole('dialog', { name: 'Discard your changes?' });

  it('keeps the form open on Escape in a text field, the focus on the form and what was typed kept; a second Escape asks first', async () => {
    const card = page.locator('li[data-server-id="alpha"]');
    const edit = card.getByRole('button', { name: 'Edit Alpha' });
    const form = card.getByRole('form', { name: 'Edit Alpha' });
    const name = form.getByRole('textbox', { name: 'Name', exact: true });
    await edit.click();
    await name.fill('Alpha renamed');

    await name.press('Escape');
    assert.ok(await form.isVisible(), 'Escape in the field leaves the form open');
    assert.equal(await edit.getAttribute('aria-expanded'), 'true');
    assert.equal(await dialog().count(), 0, 'nothing asked yet');
    assert.ok(await focused(form), 'the focus left the field for the form');
    assert.equal(await name.inputValue(), 'Alpha renamed', 'what was typed stays');

    // Escape on the form: closing would drop a change, so it asks; Keep editing keeps it all.
    await page.keyboard.press('Escape');
    await dialog().getByRole('button', { name: 'Keep editing', exact: true }).click();
    await dialog().waitFor({ state: 'hidden' });
    assert.equal(await name.inputValue(), 'Alpha renamed');
    assert.ok(await focused(form), 'Keep editing gives the focus back to the form');

    await page.keyboard.press('Escape');
    await dialog().getByRole('button', { name: 'Discard changes' }).click();
    await form.waitFor({ state: 'detached' });
    assert.ok(await focused(edit), 'closed, the focus is on Edit…');
    assert.equal((await host.call('servers.get', { serverId: 'alpha' })).name, 'Alpha', 'nothing saved');
    assert.deepEqual(pageErrors, []);
  });

  it('does the same from the Arguments box, a choice and a list; unchanged, the second Escape closes at once, as Escape on a button does', async () => {
    const card = page.locator('li[data-server-id="beta"]');
    const edit = card.getByRole('button', { name: 'Edit Beta' });
    const form = card.getByRole('form', { name: 'Edit Beta' });
    await edit.click();
    const args = form.getByRole('textbox', { name: 'Arguments' });
    await args.waitFor();
    const fields: Array<[string, Locator]> = [
      ['the Arguments box', args],
      ['the transport choice', form.getByRole('radio', { checked: true })],
      ['the Protocol list', form.getByRole('combobox', { name: 'Protocol' })]
    ];
    for (const [what, field] of fields) {
      await field.focus();
      await field.press('Escape');
      assert.ok(await form.isVisible(), `Escape in ${what} leaves the form open`);
      assert.ok(await focused(form), `Escape in ${what} puts the focus on the form`);
    }
    assert.equal(await args.inputValue(), '--quiet');
    // Back into the fields by the keyboard: the form's first field is the next stop.
    await page.keyboard.press('Tab');
    assert.ok(
      await focused(form.getByRole('textbox', { name: 'Name', exact: true })),
      'Tab from the form goes to Name'
    );

    // Nothing changed: Escape on the form closes it at once, the focus back on Edit….
    await args.press('Escape');
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    assert.equal(await dialog().count(), 0, 'no question when nothing changed');
    assert.ok(await focused(edit));

    // Escape on one of the form's buttons (no field) closes it at once, as before.
    await edit.click();
    await form.getByRole('button', { name: 'Cancel', exact: true }).focus();
    await page.keyboard.press('Escape');
    await form.waitFor({ state: 'detached' });
    assert.ok(await focused(edit));
    assert.deepEqual(pageErrors, []);
  });
});

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
        'Saving restarts Everything: 1 question waiting in the Inbox will be withdrawn and 1 running call will stop.'
      );
      const save = form.getByRole('button', { name: 'Save', exact: true });
      // Said above Save, where it is read before Save is pressed.
      assert.ok(
        await note.evaluate(
          (element, button) => !!(element.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING),
          await save.elementHandle()
        ),
        'the note comes before Save'
      );

      // Save asks first, as Disconnect and Remove do, saying what ends.
      const dialog = page.getByRole('dialog', { name: 'Save and restart Everything?' });
      await save.click();
      await dialog.waitFor();
      assert.deepEqual(await dialog.locator('.dialog-body p').allTextContents(), [
        '1 question waiting in the Inbox will be withdrawn and 1 running call will stop.'
      ]);
      // Keep editing: nothing is saved; the form is back with the draft as it was, the focus on Save.
      await dialog.getByRole('button', { name: 'Keep editing', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      assert.ok(await form.isVisible());
      assert.ok(await save.evaluate((element) => element === document.activeElement), 'the focus is on Save');
      assert.equal(await form.getByLabel('Name of variable 1').inputValue(), 'MODE');
      assert.equal(await form.getByLabel('Value of MODE').inputValue(), 'fast');
      const kept = await host.call('servers.get', { serverId: 'everything' });
      assert.ok(kept.transport.type === 'stdio');
      assert.deepEqual(kept.transport.env ?? [], [], 'nothing saved');
      assert.equal(host.inbox.size, 1, 'the question still waits');

      const ready = nextEvent(
        host,
        'server.state',
        ({ serverId, state }) => serverId === 'everything' && state.status === 'ready'
      );
      // Enter on Save asks again; Save and restart saves.
      await page.keyboard.press('Enter');
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Save and restart', exact: true }).click();
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

      // Nothing under way now: a Save that restarts the server saves at once, asking nothing.
      await card().getByRole('button', { name: 'Edit Everything' }).click();
      await form.getByLabel('Value of MODE').fill('slow');
      await form.getByText(/^Saving restarts/).waitFor({ state: 'detached' });
      const readyAgain = nextEvent(
        host,
        'server.state',
        ({ serverId, state }) => serverId === 'everything' && state.status === 'ready'
      );
      await form.getByRole('button', { name: 'Save', exact: true }).click();
      await form.waitFor({ state: 'detached' });
      assert.equal(await dialog.isVisible(), false);
      await readyAgain;
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
        'Taskdesk disconnects it and forgets its settings. Tasks keeps a record of its tasks until they expire.'
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
