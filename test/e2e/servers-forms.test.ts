import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import path from 'node:path';
import { type Browser, type Locator, type Page } from 'playwright-core';
import type { BrowserServer } from '../../app/browser/browser-server.js';
import { createHost, type Host } from '../../app/host/host.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { tempDir } from '../support/host-fixture.js';
import { stderrContaining } from '../support/stderr-wait.js';
import { accessibleDescription, buildRenderer, openDesk, root } from './renderer-build.js';
import { openServerSettings } from './server-settings.js';
import { recordSaid as recordLiveRegion, said as saidOn, saidTimes as saidTimesOn } from './live-region.js';

const ECHO = path.join(root, 'test/support/env-echo-server.ts');
const TSX = import.meta.resolve('tsx');
const MARK = 'E2eSeCrEt';

/**
 * Whether an element is in the window, and not under the bar at its top: what is at its middle is
 * the element itself.
 */
function inSight(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    const top = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    return rect.top >= 0 && rect.bottom <= window.innerHeight && element.contains(top);
  });
}

/** A host for these files' Desk: nothing connected by itself, the login shell's env as this process's, no other app's configs. */
function serversHost(dataDir: string): Host {
  return createHost({
    dataDir,
    autoConnect: false,
    keyStore: new InMemoryKeyStore(),
    loginEnv: async () => ({ ...process.env }),
    importPlaces: { home: '/nonexistent/taskdesk-e2e-home', platform: 'linux' }
  });
}

describe('the Servers screen: adding, editing and importing servers', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let data: ReturnType<typeof tempDir>;
  let host: Host;
  let server: BrowserServer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  /** Every response body the page received from the host. */
  const bodies: string[] = [];

  before(async () => {
    built = await buildRenderer();
    data = tempDir();
    host = serversHost(data.dir);
    await host.call('servers.add', {
      id: 'echo',
      name: 'Echo',
      transport: {
        type: 'stdio',
        command: process.execPath,
        args: ['--import', TSX, ECHO],
        env: { API_TOKEN: `tok-${MARK}-1` }
      },
      secrets: { env: ['API_TOKEN'], headers: [] }
    });
    assert.equal((await host.call('servers.connect', { serverId: 'echo' })).state.status, 'ready');
    // Its stderr is in before the page opens the card's output.
    await stderrContaining(host, 'echo', 'env-echo started with token');
    ({ server, browser, page } = await openDesk(host, built.dir, pageErrors, {
      viewport: { width: 1100, height: 1400 },
      beforeLoad: async (page) => {
        page.on('response', (response) => {
          void response.text().then(
            (text) => bodies.push(text),
            () => undefined
          );
        });
      }
    }));
    await page.getByRole('link', { name: 'Servers', exact: true }).click();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await host?.close();
    data?.remove();
    built?.remove();
  });

  /** The Discard changes of the question an Edit form holding changes not saved asks as it closes. */
  const discard = () =>
    page.getByRole('dialog', { name: 'Discard your changes?' }).getByRole('button', { name: 'Discard changes' });

  /** The page's polite live region: what a screen reader is told. */
  const liveRegion = () => page.locator('.sr-only[aria-live="polite"]');

  it('marks what needs correcting after Add server, and the marks follow what is typed', async () => {
    const form = page.getByRole('form', { name: 'Add a server' });
    const invalid = (label: string) =>
      form.getByRole('textbox', { name: label, exact: true }).getAttribute('aria-invalid');
    const summary = form.locator('.action-error');
    await form.getByRole('button', { name: 'Add server' }).click();
    // The Id, filled in from the name, is the name's to correct while the name is empty.
    await summary.getByText('2 fields need correcting.').waitFor();
    assert.deepEqual([await invalid('Id'), await invalid('Name'), await invalid('Command')], [null, 'true', 'true']);

    await form.getByRole('textbox', { name: 'Id', exact: true }).fill('bad id!');
    await form.getByText('Use up to 64 letters, digits, dots, dashes and underscores').waitFor();
    await summary.getByText('3 fields need correcting.').waitFor();
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Fixed');
    await summary.getByText('2 fields need correcting.').waitFor();
    assert.equal(await invalid('Name'), null, 'a field filled in is no longer marked');
    await form.getByRole('textbox', { name: 'Id', exact: true }).fill('fixed');
    await form.getByRole('textbox', { name: 'Command', exact: true }).fill('node');
    await summary.waitFor({ state: 'hidden' });
    assert.deepEqual([await invalid('Id'), await invalid('Name'), await invalid('Command')], [null, null, null]);
    // Emptied for the next test: once nothing was left to correct, typing marks nothing until the next Add.
    for (const label of ['Id', 'Name', 'Command'])
      await form.getByRole('textbox', { name: label, exact: true }).fill('');
    assert.equal(await invalid('Id'), null);
    assert.deepEqual(pageErrors, []);
  });

  it('adds and removes a folder, the focus staying in the folders rather than falling to the page', async () => {
    await openServerSettings(page.locator('li[data-server-id="echo"]'));
    const folders = page.locator('li[data-server-id="echo"]').getByRole('group', { name: /^Folders/ });
    const field = folders.getByLabel('Folder path');
    const onPath = () => field.evaluate((element) => element === document.activeElement);
    await field.fill(data.dir);
    await folders.getByRole('button', { name: 'Add folder' }).click();
    await folders.getByText(data.dir, { exact: true }).waitFor();
    assert.ok(await onPath(), 'after Add folder (now disabled: the field is empty), the focus is on the field');
    // A plain button, not the red of the server's own Remove a few lines below.
    const removeFolder = folders.getByRole('button', { name: `Remove the folder ${data.dir} from Echo` });
    const colourOf = (button: Locator) => button.evaluate((element) => getComputedStyle(element).color);
    const plain = await page.evaluate(() => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--text)';
      document.body.append(probe);
      const colour = getComputedStyle(probe).color;
      probe.remove();
      return colour;
    });
    const serverRemove = page
      .locator('li[data-server-id="echo"]')
      .getByRole('button', { name: 'Remove Echo', exact: true });
    const [serverColour, folderColour] = [await colourOf(serverRemove), await colourOf(removeFolder)];
    await removeFolder.click();
    await folders.getByText('No folders.').waitFor();
    assert.notEqual(serverColour, plain, "the server's Remove is red");
    assert.equal(folderColour, plain, "the folder's Remove is in the text's colour");
    assert.ok(await onPath(), 'after Remove (gone with its folder), the focus is on the field');
    assert.deepEqual(pageErrors, []);
  });

  it('adds two servers in a row: the form is reset to its defaults after each', async () => {
    const form = page.getByRole('form', { name: 'Add a server' });
    await form.getByLabel('Id').fill('first');
    await form.getByLabel('Name').fill('First');
    await form.getByLabel('Streamable HTTP').check();
    // Connect now stays ticked: nothing listens on port 9, so the connect fails at once.
    await form.getByLabel('URL').fill('http://127.0.0.1:9/mcp');
    await form.getByRole('button', { name: 'Add server' }).click();
    await page.locator('li[data-server-id="first"] [data-status="failed"]').waitFor();
    // A screen reader hears that it was added but could not connect, and the reason's first sentence.
    await liveRegion()
      .getByText(
        'Added First, but it could not connect: Taskdesk cannot connect to this port: it is one of the ports web clients refuse (as browsers do).',
        { exact: true }
      )
      .waitFor();
    // Its card says what to do about it, for what an HTTP server is made of.
    await page
      .locator('li[data-server-id="first"] .reason-next')
      .getByText('Check its URL and headers with Edit…, then press Connect again.', { exact: false })
      .waitFor();

    // The new server's card has the focus, its top in sight; the form below is back to its
    // defaults, every control showing what the form will send.
    await page.waitForFunction(() => document.activeElement?.matches('li[data-server-id="first"]'));
    assert.ok(await inSight(page.locator('li[data-server-id="first"] h3')), 'the new card’s heading is in sight');
    const fresh = page.getByRole('form', { name: 'Add a server' });
    assert.equal(await fresh.getByLabel('Name').inputValue(), '');
    assert.equal(await fresh.getByLabel('Id').inputValue(), '');
    assert.equal(await fresh.getByLabel('Local command (stdio)').isChecked(), true);
    assert.equal(await fresh.getByLabel('Streamable HTTP').isChecked(), false);
    assert.equal(await fresh.getByLabel('Connect now and when Taskdesk starts').isChecked(), true);

    await fresh.getByLabel('Id').fill('second');
    await fresh.getByLabel('Name').fill('Second');
    await fresh.getByLabel('Streamable HTTP').check();
    await fresh.getByLabel('URL').fill('http://127.0.0.1:9/second');
    await fresh.getByLabel('Connect now and when Taskdesk starts').uncheck();
    await fresh.getByRole('button', { name: 'Add server' }).click();
    await page.locator('li[data-server-id="second"]').waitFor();
    await liveRegion().getByText('Added Second.', { exact: true }).waitFor();
    assert.equal(await fresh.locator('.action-error').isVisible(), false, 'no error after the second add');
    const ids = (await host.call('servers.list', {})).map((view) => view.id).sort();
    assert.deepEqual(ids, ['echo', 'first', 'second']);

    // The new server's sampling policy can be set at once, without a reload.
    const card = page.locator('li[data-server-id="second"]');
    // Not connected: its settings are folded until opened.
    const refuse = card.getByRole('radio', { name: 'Refuse' });
    assert.equal(await refuse.isVisible(), false);
    await card.locator('summary', { hasText: 'Settings' }).click();
    assert.equal(await card.getByRole('radio', { name: 'Ask me first' }).isChecked(), true, 'the default policy');
    assert.equal(await refuse.isEnabled(), true);
    // By keyboard, the arrow keys check each option they pass (wrapping around): what they pass,
    // "Run without asking" included, is not saved; Space saves the one settled on.
    await card.getByRole('radio', { name: 'Ask me first' }).focus();
    await page.keyboard.press('ArrowUp');
    assert.equal(await card.getByRole('radio', { name: 'Run without asking' }).isChecked(), true);
    await card.getByText('Not saved yet: press Space to save this choice. Leaving the choices saves it too.').waitFor();
    await page.keyboard.press('ArrowUp');
    assert.equal(await refuse.isChecked(), true);
    assert.equal((await host.call('sampling.getPolicy', { serverId: 'second' })).mode, 'ask', 'nothing saved yet');
    await page.keyboard.press('Space');
    await card.locator('fieldset[data-policy-mode="refuse"]').waitFor();
    await card.locator('fieldset.policy').getByText('Saved.', { exact: true }).waitFor();
    assert.equal((await host.call('sampling.getPolicy', { serverId: 'second' })).mode, 'refuse');
    // Changed elsewhere (another window, the Assistant's server settings): the card follows, and
    // no longer says "Saved." of a choice that is not the one stored.
    await host.call('sampling.setPolicy', { serverId: 'second', policy: { mode: 'ask', reviewCompletion: true } });
    await card.locator('fieldset[data-policy-mode="ask"]').waitFor();
    await card.locator('fieldset.policy .policy-saved').waitFor({ state: 'detached' });
    assert.equal(await card.getByRole('radio', { name: 'Ask me first' }).isChecked(), true);
  });

  it('shows where a command was found and its stderr, its secret redacted', async () => {
    const card = page.locator('li[data-server-id="echo"]');
    await card.getByText(process.execPath, { exact: true }).waitFor();
    await card.getByText('Server output (stderr)').click();
    await card.getByLabel('stderr of Echo').getByText('env-echo started with token [redacted]').waitFor();
    // Refresh under the output keeps a gap from its box (it touched it).
    const [box, refresh] = await Promise.all([
      card.getByLabel('stderr of Echo').boundingBox(),
      card.getByRole('button', { name: 'Refresh stderr of Echo' }).boundingBox()
    ]);
    assert.ok(
      refresh!.y - (box!.y + box!.height) >= 6,
      `Refresh ${refresh!.y - (box!.y + box!.height)} px under the output`
    );
  });

  it('edits a server: every field, a header kept as a secret that is never shown back, the protocol pin', async () => {
    const card = page.locator('li[data-server-id="second"]');
    await card.getByRole('button', { name: 'Edit Second' }).click();
    const form = card.getByRole('form', { name: 'Edit Second' });
    await form.getByLabel('Name').fill('Second edited');
    await form.getByLabel('URL').fill('http://127.0.0.1:9/edited');
    // The fieldset's button is as wide as its word, not the whole fieldset.
    const addHeader = form.getByRole('button', { name: 'Add header' });
    const widths = await addHeader.evaluate((button) => [
      button.getBoundingClientRect().width,
      button.parentElement!.getBoundingClientRect().width
    ]);
    assert.ok(widths[0]! < widths[1]! / 3, `Add header is ${widths[0]}px of ${widths[1]}px`);
    await form.getByRole('button', { name: 'Add header' }).press('Enter');
    // Into the new row, ready for its name.
    await form.getByLabel('Name of header 1').and(page.locator(':focus')).waitFor({ timeout: 5_000 });
    await form.getByLabel('Name of header 1').fill('Authorization');
    await form.getByLabel('Value of Authorization').fill(`Bearer hdr-${MARK}-2`);
    assert.equal(
      await form.getByLabel('Secret Authorization').isChecked(),
      true,
      'an Authorization header is a secret'
    );
    assert.equal(await form.getByLabel('Value of Authorization').getAttribute('type'), 'password');
    await form.getByRole('button', { name: 'Add header' }).click();
    await form.getByLabel('Name of header 2').fill('X-Team');
    await form.getByLabel('Value of X-Team').fill('core');
    await form.getByLabel('Protocol').selectOption('2025-11-25');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    const renamed = page.locator('li[data-server-id="second"]');
    await renamed.getByRole('heading', { name: 'Second edited', exact: true }).waitFor();
    await renamed.getByText('MCP 2025-11-25 (set in Edit…)').waitFor();
    await renamed.getByText('http://127.0.0.1:9/edited').waitFor();

    // Opened again: the secret is a stored row with no value; the plain header shows its value.
    await renamed.getByRole('button', { name: 'Edit Second edited' }).click();
    const again = renamed.getByRole('form', { name: 'Edit Second edited' });
    await again.getByLabel('Value of X-Team').waitFor();
    assert.equal(await again.getByLabel('Value of X-Team').inputValue(), 'core');
    assert.equal(await again.getByLabel('Value of Authorization').inputValue(), '');
    assert.equal(
      await again.getByLabel('Value of Authorization').getAttribute('placeholder'),
      'Stored in the key store; type to replace'
    );
    // Saved unchanged: the stored value stays.
    await again.getByRole('button', { name: 'Save' }).click();
    await again.waitFor({ state: 'detached' });
    const settings = await host.call('servers.get', { serverId: 'second' });
    assert.deepEqual(settings.transport.type === 'http' && settings.transport.headers, [
      { name: 'Authorization', secret: true },
      { name: 'X-Team', value: 'core', secret: false }
    ]);
    const html = await page.content();
    assert.ok(!html.includes(MARK), 'no secret in the page');
    assert.ok(!bodies.join('\n').includes(MARK), 'no secret in any answer the page received');
  });

  it('gives the focus back to Edit… when its form closes, by Save or by Cancel', async () => {
    const card = page.locator('li[data-server-id="first"]');
    const edit = card.getByRole('button', { name: 'Edit First' });
    const focused = () => edit.evaluate((button) => button === document.activeElement);

    await edit.click();
    const form = card.getByRole('form', { name: 'Edit First' });
    await form.getByLabel('Name').waitFor();
    // Opened above the button: the focus is in the form, at its heading, and Tab goes on into its fields.
    assert.ok(await form.getByRole('heading', { name: 'Edit First' }).evaluate((h) => h === document.activeElement));
    await page.keyboard.press('Tab');
    assert.ok(await form.evaluate((f) => f.contains(document.activeElement)), 'Tab goes into the form');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
    assert.ok(await focused(), 'after Cancel, the focus is on Edit…, not on the page');

    await edit.press('Enter');
    await form.getByLabel('Name').waitFor();
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    assert.ok(await focused(), 'after Save, the focus is on Edit…, not on the page');
  });

  it('closes the Edit… form on Escape, as Cancel does, the focus back on Edit… and nothing saved', async () => {
    const card = page.locator('li[data-server-id="first"]');
    const edit = card.getByRole('button', { name: 'Edit First' });
    await edit.click();
    const form = card.getByRole('form', { name: 'Edit First' });
    const name = form.getByRole('textbox', { name: 'Name', exact: true });
    await name.fill('Not saved');
    // Escape in a field leaves it for the form (servers-rename.test.ts); on the form, it closes.
    await name.press('Escape');
    await page.keyboard.press('Escape');
    // A change not saved: asked first (servers-changes.test.ts has the rest of that).
    await discard().click();
    await form.waitFor({ state: 'detached' });
    assert.ok(await edit.evaluate((button) => button === document.activeElement), 'the focus is on Edit…');
    assert.equal((await host.call('servers.get', { serverId: 'first' })).name, 'First', 'nothing saved');
    await card.getByRole('heading', { name: 'First', exact: true }).waitFor();
    assert.deepEqual(pageErrors, []);
  });

  it('imports pasted JSON: shows what it holds, renames a clash, adds the picked server', async () => {
    const panel = page.getByRole('region', { name: 'Import from other apps' });
    await panel.getByLabel('Or paste a config').fill(
      JSON.stringify({
        mcpServers: {
          echo: {
            command: 'npx',
            args: ['-y', 'echo-server'],
            env: { ECHO_API_KEY: 'k', MODE: 'fast' },
            alwaysAllow: ['x']
          },
          legacy: { type: 'sse', url: 'https://old.example.com/sse' },
          // The First server Taskdesk has, under another name.
          twin: { url: 'http://127.0.0.1:9/mcp' },
          // The Echo server's command, but Echo keeps a secret: not said to be a copy (two accounts may differ only there).
          other: { command: process.execPath, args: ['--import', TSX, ECHO] }
        }
      })
    );
    // In a small window what is found lands below the button: the focus and the window go to it.
    await page.setViewportSize({ width: 800, height: 600 });
    const source = panel.locator('li[data-kind="pasted"]');
    try {
      await panel.getByRole('button', { name: 'Look for servers' }).click();
      const foundWords =
        'Found 1 server to import in 1 config; 2 more are in Taskdesk already and 1 cannot be imported.';
      await liveRegion().getByText(foundWords, { exact: true }).waitFor();
      const found = panel.getByRole('heading', { name: foundWords });
      await page.waitForFunction(() => document.activeElement?.id === 'heading-import-found');
      assert.ok(await inSight(found), 'the results’ heading is in sight');
      // Every server that can be imported starts ticked, but for one Taskdesk has already (a server
      // of its name, echo; a copy, twin) and the one that cannot be imported.
      assert.equal(await source.getByLabel('echo stdio').isChecked(), false);
      assert.equal(await source.getByLabel('twin HTTP').isChecked(), false);
      assert.equal(await source.getByLabel('other stdio').isChecked(), true);
      assert.equal(await source.getByLabel('legacy cannot be imported').isChecked(), false);
    } finally {
      await page.setViewportSize({ width: 1100, height: 1400 });
    }
    // On by default, as on the Add form (unticked here: npx would fetch the package).
    const connect = source.getByLabel('Connect them now and when Taskdesk starts');
    assert.equal(await connect.isChecked(), true);
    await connect.uncheck();
    const echo = source.locator('li[data-key="echo"]');
    await echo.getByText('npx -y echo-server').waitFor();
    await echo
      .getByText(
        'Taskdesk already has a server with this id or name: if you import it anyway, it is added as “echo (2)”.'
      )
      .waitFor();
    await echo.getByText('Not imported (Taskdesk does not use them): alwaysAllow').waitFor();
    assert.equal(await echo.getByLabel('Keep in the key store (ECHO_API_KEY)').isChecked(), true);
    assert.equal(await echo.getByLabel('Keep in the key store (MODE)').isChecked(), false);
    await source
      .locator('li[data-key="legacy"]')
      .getByText(/Cannot be imported: .*SSE/)
      .waitFor();
    assert.equal(await source.getByLabel('legacy cannot be imported').isDisabled(), true);
    // A copy of a server Taskdesk has is said to be one, and skipped unless the person says otherwise.
    const twin = source.locator('li[data-key="twin"]');
    await twin
      .getByText(
        'Taskdesk already has this server (the same URL and settings), as “First”: it is skipped, unless you choose to import a copy.'
      )
      .waitFor();
    assert.equal(
      await source
        .locator('li[data-key="other"]')
        .getByText(/already has/)
        .count(),
      0
    );
    // Only twin ticked: its choice alone is shown.
    await source.locator('li[data-key="other"]').getByLabel('other stdio').uncheck();
    await twin.getByLabel('twin HTTP').check();
    assert.equal(await source.getByLabel('Skip it').isChecked(), true);
    await twin.getByLabel('twin HTTP').uncheck();
    // A server that only shares a name is imported under a numbered one unless the person says otherwise.
    await echo.getByLabel('echo stdio').check();
    const anyway = source.getByLabel(/^Import it anyway/);
    assert.equal(await anyway.isChecked(), true);
    // Where the focus is the moment what the import did shows: read in an observer's callback, so
    // no other task (a later effect, a host message) comes between.
    await page.evaluate(() => {
      const seen = window as unknown as { focusAtResult?: string | null };
      const observer = new MutationObserver(() => {
        if (!document.querySelector('li[data-kind="pasted"] .import-result')) return;
        observer.disconnect();
        seen.focusAtResult = document.activeElement?.textContent ?? null;
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
    await source.getByRole('button', { name: /Import 1 selected/ }).click();
    // The new card comes with the host's event, which may be ahead of the import's answer: the
    // import is done when the panel says what it did.
    await source.locator('.import-result').getByText('Imported echo (2).', { exact: true }).waitFor();
    await page.locator('li[data-server-id="echo-2"]').getByRole('heading', { name: 'echo (2)' }).waitFor();
    // The Import button is disabled now that nothing is picked: the focus is on what the import did,
    // from the moment it shows, never on the page in between (where the disabled button would drop it).
    assert.equal(
      await page.evaluate(() => (window as unknown as { focusAtResult?: string | null }).focusAtResult),
      'Imported echo (2).',
      'the focus is on what the import did as soon as it shows'
    );
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Imported echo (2).');
    // The pasted JSON (with ECHO_API_KEY's value) leaves the box once its server is in; its card stays.
    assert.equal(await panel.getByLabel('Or paste a config').inputValue(), '', 'the paste box is cleared');
    // Not connected: its settings are folded until opened.
    await page.locator('li[data-server-id="echo-2"]').locator('summary', { hasText: 'Settings' }).click();
    assert.equal(
      await page.locator('li[data-server-id="echo-2"]').getByRole('radio', { name: 'Run without asking' }).isEnabled(),
      true,
      'an imported server’s sampling policy can be set without a reload'
    );
    // What was just imported says so, rather than that it clashes (with itself, now).
    await echo.getByText('Imported as “echo (2)”: not connected.', { exact: true }).waitFor();
    assert.equal(await echo.getByText('Taskdesk already has a server with this id or name').count(), 0);
    // Only a copy picked, to be skipped: nothing to import, and the panel says how to add it anyway.
    await twin.getByLabel('twin HTTP').check();
    assert.equal(await source.getByLabel('Skip it').isChecked(), true);
    const importButton = source.getByRole('button', { name: /^Import \d* ?selected/ });
    assert.equal(await importButton.isDisabled(), true);
    assert.doesNotMatch((await importButton.textContent()) ?? '', /\d/);
    await source
      .getByText('The server you picked is in Taskdesk already: to add it anyway, choose “Import a copy anyway”.')
      .waitFor();
    await source.getByLabel(/^Import a copy anyway/).check();
    assert.equal(await importButton.isEnabled(), true);
    assert.match((await importButton.textContent()) ?? '', /^Import 1 selected/);
    assert.deepEqual(pageErrors, []);
  });

  const recordSaid = () => recordLiveRegion(page);
  const saidTimes = (pattern: RegExp, times = 1) => saidTimesOn(page, pattern, times);
  const said = () => saidOn(page);

  it('says how the person’s own Disconnect, Connect and Save went, once, and not a change made elsewhere', async () => {
    await recordSaid();
    const card = page.locator('li[data-server-id="echo"]');
    await card.getByRole('button', { name: 'Disconnect Echo' }).click();
    await saidTimes(/^Echo is disconnected\.$/);
    await card.getByRole('button', { name: 'Connect Echo' }).click();
    await saidTimes(/^Echo is connected\.$/);

    // A Save that reconnects, and fails: "Saved" first, then why it could not connect.
    await card.getByRole('button', { name: 'Edit Echo' }).click();
    const form = card.getByRole('form', { name: 'Edit Echo' });
    await form.getByRole('textbox', { name: 'Command', exact: true }).fill('taskdesk-no-such-command');
    await form.getByRole('button', { name: 'Save' }).click();
    const failed = /Echo could not connect: The command "taskdesk-no-such-command" was not found/;
    await saidTimes(failed);
    // Its answer may come after the failed reconnect's state: waited for, not looked for at once.
    await saidTimes(/Saved Echo\./);
    await card.locator('[data-status="failed"]').waitFor();
    // Connect again on the failed server: said again, not left at the last text.
    await card.getByRole('button', { name: 'Connect Echo' }).click();
    await saidTimes(failed, 2);

    // Put back; then a disconnect from elsewhere (the host itself) is not announced as the person's.
    await card.getByRole('button', { name: 'Edit Echo' }).click();
    await form.getByRole('textbox', { name: 'Command', exact: true }).fill(process.execPath);
    await form.getByRole('button', { name: 'Save' }).click();
    await saidTimes(/^Echo is connected\.$/, 2);
    await host.call('servers.disconnect', { serverId: 'echo' });
    await card.getByRole('button', { name: 'Connect Echo' }).waitFor();
    // Something the person does next is said; the disconnect made elsewhere before it was not.
    await openServerSettings(card);
    await card.getByRole('radio', { name: 'Refuse' }).check();
    // In the words of the choice on the card, not the setting's name ("refuse").
    await saidTimes(/^Model requests from Echo: Refuse\.$/);
    assert.equal((await said()).filter((text) => /Echo is disconnected/.test(text)).length, 1, 'only the person’s own');
    // Connected again for the tests below.
    assert.equal((await host.call('servers.connect', { serverId: 'echo' })).state.status, 'ready');
    assert.deepEqual(pageErrors, []);
  });

  it('shows an add whose connect failed as a warning, and on its card when it failed and what to do next', async () => {
    await recordSaid();
    const form = page.getByRole('form', { name: 'Add a server' });
    await form.getByRole('textbox', { name: 'Id', exact: true }).fill('notes');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Notes');
    await form.getByRole('textbox', { name: 'Command', exact: true }).fill(process.execPath);
    // A server that stops before it answers, saying why on its stderr.
    await form
      .getByRole('textbox', { name: 'Arguments', exact: true })
      .fill("-e\nconsole.error('Error: missing API_KEY'); process.exit(1)");
    await form.getByRole('button', { name: 'Add server' }).click();
    const words = /^Added Notes, but it could not connect: The server exited with code 1 .*missing API_KEY/;
    await saidTimes(words);
    const line = page.getByRole('form', { name: 'Add a server' }).locator('.form-status');
    await line.getByText(words).waitFor();
    // The adding worked, the connecting did not: a warning's colours, not the green of a success.
    const colours = await line.evaluate((element) => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--warning-border)';
      probe.style.backgroundColor = 'var(--warning-bg)';
      document.body.append(probe);
      const expected = getComputedStyle(probe);
      const seen = getComputedStyle(element);
      const result = {
        edge: [seen.borderLeftColor, expected.color],
        background: [seen.backgroundColor, expected.backgroundColor]
      };
      probe.remove();
      return result;
    });
    assert.equal(colours.edge[0], colours.edge[1], 'the edge is the warning colour');
    assert.equal(colours.background[0], colours.background[1], 'the background is the warning colour');
    // Said once: the line is seen, not announced again.
    assert.equal(await line.evaluate((element) => element.closest('[aria-live], [role]')), null);

    const card = page.locator('li[data-server-id="notes"]');
    await card.locator('[data-status="failed"]').waitFor();
    await card
      .locator('.reason')
      .getByText(/missing API_KEY/)
      .waitFor();
    const next = card.locator('.reason-next');
    const step = 'Check its command, arguments and environment with Edit…, then press Connect again.';
    await next.getByText(step, { exact: false }).waitFor();
    assert.match((await next.textContent()) ?? '', /^Failed at .+\. Check its command, arguments and environment/);
    // Read with the card, once: in no live region, and in no alert box (none shows).
    assert.equal(
      await next.evaluate((element) => element.closest('[aria-live], [role="alert"], [role="status"]')),
      null
    );
    assert.equal(await card.locator(':scope > .action-error').isVisible(), false);
    const time = next.locator('time');
    const first = await time.getAttribute('datetime');
    assert.ok(first && !Number.isNaN(Date.parse(first)), 'a machine-readable time');

    // Connect again fails the same way: the count of tries and the time change, so the retry is seen to happen.
    await card.getByRole('button', { name: 'Connect Notes' }).click();
    await page.waitForFunction(
      ([before]) => {
        const shown = document.querySelector('li[data-server-id="notes"] .reason-next time');
        return shown !== null && shown.getAttribute('datetime') !== before;
      },
      [first] as const
    );
    assert.ok(Date.parse((await time.getAttribute('datetime'))!) > Date.parse(first));
    assert.match(
      (await next.textContent()) ?? '',
      /^Failed 2 times in a row; last at .+\. Check its command, arguments and environment/
    );
    // The add form's line about the first connect is stale now: it goes.
    await line.waitFor({ state: 'hidden' });
    await saidTimes(/^Notes could not connect: The server exited with code 1/);
    assert.equal(await card.getByText(step, { exact: false }).count(), 1, 'the next step is in the card once');
    assert.equal((await said()).filter((text) => words.test(text)).length, 1, 'the add is said once');
    await host.call('servers.remove', { serverId: 'notes' });
    await card.waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });

  it('says where a command was found only when it was looked up and found', async () => {
    const add = page.getByRole('form', { name: 'Add a server' });
    const hint = async (form: typeof add) => accessibleDescription(form.getByRole('textbox', { name: 'Command' }));
    assert.doesNotMatch((await hint(add)) ?? '', /Found/, 'nothing typed, nothing looked up');
    await add.getByRole('textbox', { name: 'Command', exact: true }).fill('taskdesk-no-such-command');
    assert.doesNotMatch((await hint(add)) ?? '', /Found/);
    await add.getByRole('textbox', { name: 'Command', exact: true }).fill('');

    const card = page.locator('li[data-server-id="echo"]');
    await card.locator('[data-status="ready"]').waitFor();
    await card.getByRole('button', { name: 'Edit Echo' }).click();
    const form = card.getByRole('form', { name: 'Edit Echo' });
    await form.getByRole('textbox', { name: 'Command', exact: true }).waitFor();
    assert.equal(await hint(form), `Found: it runs ${process.execPath}.`);
    await form.getByRole('textbox', { name: 'Command', exact: true }).fill('taskdesk-no-such-command');
    assert.doesNotMatch((await hint(form)) ?? '', /Found/, 'another command was not looked up');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await discard().click();
    await form.waitFor({ state: 'detached' });
  });

  it('checks a typed folder before sending it: a relative path is said on the field, in words', async () => {
    await openServerSettings(page.locator('li[data-server-id="echo"]'));
    const folders = page.locator('li[data-server-id="echo"]').getByRole('group', { name: /^Folders/ });
    const field = folders.getByLabel('Folder path');
    await field.fill('relative/dir');
    await folders.getByRole('button', { name: 'Add folder' }).click();
    await folders.getByText('relative/dir is not an absolute path', { exact: false }).waitFor();
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    assert.match((await accessibleDescription(field)) ?? '', /not an absolute path: give the folder’s full path/);
    assert.ok(await field.evaluate((element) => element === document.activeElement), 'the focus stays on the field');
    assert.equal(await folders.locator('.action-error').isVisible(), false, 'nothing sent, nothing refused');
    assert.doesNotMatch((await folders.textContent()) ?? '', /Invalid params|folders\.0/);
    assert.deepEqual((await host.call('roots.get', { serverId: 'echo' })).folders, []);
    await field.fill(data.dir);
    assert.equal(await field.getAttribute('aria-invalid'), null, 'the message goes once the path is right');
    await field.fill('');
  });

  it('asks for the Name first and fills in the Id from it, until the Id is typed', async () => {
    const form = page.getByRole('form', { name: 'Add a server' });
    const name = form.getByRole('textbox', { name: 'Name', exact: true });
    const id = form.getByRole('textbox', { name: 'Id', exact: true });
    assert.ok(
      await name.evaluate(
        (field, other) => !!(field.compareDocumentPosition(other) & Node.DOCUMENT_POSITION_FOLLOWING),
        await id.elementHandle()
      ),
      'Name comes before Id'
    );
    await name.fill('Café Notes (work)');
    assert.equal(await id.inputValue(), 'cafe-notes-work');
    // An id in use is not suggested: the next free number is.
    await name.fill('First!');
    assert.equal(await id.inputValue(), 'first-2');
    await id.fill('notes');
    await name.fill('Work notes');
    assert.equal(await id.inputValue(), 'notes', 'the Id typed is not overwritten by the Name');
    // Emptied, the Id follows the Name again.
    await id.fill('');
    await name.fill('Suggested notes');
    assert.equal(await id.inputValue(), 'suggested-notes');

    // With only a Name typed (and a command), Add server goes through, under the suggested id.
    await form.getByRole('textbox', { name: 'Command', exact: true }).fill('node');
    await form.getByLabel('Connect now and when Taskdesk starts').uncheck();
    await form.getByRole('button', { name: 'Add server' }).click();
    const card = page.locator('li[data-server-id="suggested-notes"]');
    await card.getByRole('heading', { name: 'Suggested notes' }).waitFor();
    await page.waitForFunction(() => document.activeElement?.matches('li[data-server-id="suggested-notes"]'));
    assert.equal(await form.locator('.action-error').isVisible(), false);
    await host.call('servers.remove', { serverId: 'suggested-notes' });
    await card.waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });

  it('marks a duplicate id on the Id field, with the focus there', async () => {
    const form = page.getByRole('form', { name: 'Add a server' });
    const id = form.getByRole('textbox', { name: 'Id', exact: true });
    await id.fill('echo');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Another echo');
    await form.getByRole('textbox', { name: 'Command', exact: true }).fill('node');
    await form.getByRole('button', { name: 'Add server' }).click();
    await form.getByText('Id already used by Echo: choose another, or edit that server.').waitFor();
    assert.equal(await id.getAttribute('aria-invalid'), 'true');
    assert.match((await accessibleDescription(id)) ?? '', /Id already used by Echo/);
    assert.ok(await id.evaluate((element) => element === document.activeElement), 'the focus is on Id');
    assert.equal((await host.call('servers.list', {})).filter((view) => view.id === 'echo').length, 1);
    await id.fill('echo-two');
    assert.equal(await id.getAttribute('aria-invalid'), null);
    for (const label of ['Id', 'Name', 'Command'])
      await form.getByRole('textbox', { name: label, exact: true }).fill('');
  });

  it('warns on the Name field, before saving, of a name another server has, and refuses it', async () => {
    const form = page.getByRole('form', { name: 'Add a server' });
    const name = form.getByRole('textbox', { name: 'Name', exact: true });
    await name.fill('echo');
    const words = 'Another server (id echo) is named Echo: messages could not tell the two apart. Choose another name.';
    await form.getByText(words).waitFor();
    assert.match((await accessibleDescription(name)) ?? '', /Another server \(id echo\) is named Echo/);
    await form.getByRole('textbox', { name: 'Id', exact: true }).fill('echo-twin');
    await form.getByRole('textbox', { name: 'Command', exact: true }).fill('node');
    await form.getByRole('button', { name: 'Add server' }).click();
    await form.locator('.action-error').getByText('One field needs correcting.').waitFor();
    assert.equal(await name.getAttribute('aria-invalid'), 'true');
    assert.ok(await name.evaluate((element) => element === document.activeElement));
    assert.equal(
      (await host.call('servers.list', {})).some((view) => view.id === 'echo-twin'),
      false
    );
    await name.fill('Echo twin');
    await form.locator('.action-error').waitFor({ state: 'hidden' });
    for (const label of ['Id', 'Name', 'Command'])
      await form.getByRole('textbox', { name: label, exact: true }).fill('');

    // Edit: renaming First to Echo is warned of, then refused; its own name is no clash.
    const card = page.locator('li[data-server-id="first"]');
    await card.getByRole('button', { name: 'Edit First' }).click();
    const edit = card.getByRole('form', { name: 'Edit First' });
    await edit.getByLabel('Name').waitFor();
    assert.equal(await edit.getByText(/Another server/).count(), 0);
    await edit.getByLabel('Name').fill('ECHO');
    await edit.getByText('Another server (id echo) is named Echo', { exact: false }).waitFor();
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.locator('.action-error').getByText('One field needs correcting.').waitFor();
    assert.equal(await edit.getByLabel('Name').getAttribute('aria-invalid'), 'true');
    assert.equal((await host.call('servers.get', { serverId: 'first' })).name, 'First');
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await discard().click();
    await edit.waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });

  it('takes a keyboard Add server to the new card, in sight in an 800×600 window', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    try {
      await recordSaid();
      const form = page.getByRole('form', { name: 'Add a server' });
      await form.getByRole('textbox', { name: 'Name', exact: true }).focus();
      await page.keyboard.type('Keyboard server');
      await page.keyboard.press('Tab');
      // Tab into the Id selects the id filled in from the Name: typing replaces it.
      assert.equal(await form.getByRole('textbox', { name: 'Id', exact: true }).inputValue(), 'keyboard-server');
      await page.keyboard.type('kbd');
      await form.getByRole('textbox', { name: 'Command', exact: true }).focus();
      await page.keyboard.type(process.execPath);
      await page.keyboard.press('Tab');
      await page.keyboard.type(`--import\n${TSX}\n${ECHO}`);
      await form.getByRole('textbox', { name: 'Command', exact: true }).focus();
      await page.keyboard.press('Enter');
      await saidTimes(/^Added Keyboard server; it is connected\.$/);
      const line = page
        .getByRole('form', { name: 'Add a server' })
        .getByText('Added Keyboard server; it is connected.', {
          exact: true
        });
      await line.waitFor();
      const fresh = page.getByRole('form', { name: 'Add a server' });
      // The new card has the focus, its heading in the window and not under the bar at its top.
      await page.waitForFunction(() => document.activeElement?.matches('li[data-server-id="kbd"]'));
      assert.ok(await inSight(page.locator('li[data-server-id="kbd"] h3')), 'the new card’s heading is in sight');
      // The line by the form stays until the next Add server.
      await fresh.getByRole('button', { name: 'Add server' }).click();
      await line.waitFor({ state: 'hidden' });
      for (const label of ['Id', 'Name', 'Command'])
        await fresh.getByRole('textbox', { name: label, exact: true }).fill('');
    } finally {
      await page.setViewportSize({ width: 1100, height: 1400 });
    }
    assert.deepEqual(pageErrors, []);
  });

  it('grows the Arguments box to its lines, up to 8, then scrolls, in an 800×600 window', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    try {
      const form = page.getByRole('form', { name: 'Add a server' });
      const args = form.getByRole('textbox', { name: 'Arguments', exact: true });
      /** The Arguments box holding `count` lines: how tall it shows, and whether all of them show. */
      const holding = async (count: number) => {
        await args.fill(Array.from({ length: count }, (_, index) => `--arg-${index + 1}`).join('\n'));
        return args.evaluate((element) => ({
          height: element.clientHeight,
          whole: element.scrollHeight <= element.clientHeight
        }));
      };
      const three = await holding(3);
      assert.ok(three.whole, 'three arguments show whole');
      const five = await holding(5);
      assert.ok(five.whole, 'five arguments show whole: the first is not cut off');
      assert.ok(five.height > three.height, `taller with five (${five.height}px) than with three (${three.height}px)`);
      const eight = await holding(8);
      assert.ok(eight.whole, 'eight arguments show whole');
      // Past 8 lines it stops growing, and scrolls.
      const twelve = await holding(12);
      assert.equal(twelve.whole, false, 'twelve arguments scroll');
      assert.equal(twelve.height, eight.height, 'no taller than 8 lines');
    } finally {
      await page
        .getByRole('form', { name: 'Add a server' })
        .getByRole('textbox', { name: 'Arguments', exact: true })
        .fill('');
      await page.setViewportSize({ width: 1100, height: 1400 });
    }
    assert.deepEqual(pageErrors, []);
  });

  it('splits a command line typed whole into Command, and says so before anything is added', async () => {
    await recordSaid();
    const form = page.getByRole('form', { name: 'Add a server' });
    const command = form.getByRole('textbox', { name: 'Command', exact: true });
    const args = form.getByRole('textbox', { name: 'Arguments', exact: true });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Whole line');
    // As every README shows it (the slash of the package is no path), Arguments left empty.
    await command.fill('npx -y @modelcontextprotocol/server-everything');
    await command.press('Tab');
    assert.equal(await command.inputValue(), 'npx');
    assert.equal(await args.inputValue(), '-y\n@modelcontextprotocol/server-everything');
    const split = 'Split into the command npx and 2 arguments, one a line in Arguments.';
    assert.equal(await accessibleDescription(command), split);
    await saidTimes(/^Split into the command npx and 2 arguments, one a line in Arguments\.$/);
    // Typed in again, the words go; with Arguments typed, the line is left as the person parted it.
    await command.fill('npx -y other');
    assert.notEqual(await accessibleDescription(command), split);
    await args.focus();
    assert.equal(await command.inputValue(), 'npx -y other');
    assert.equal(await args.inputValue(), '-y\n@modelcontextprotocol/server-everything');

    // Pasted (as from a README): split at once, the focus still in Command.
    await args.fill('');
    await command.fill('');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.evaluate(() => navigator.clipboard.writeText('uvx mcp-server-git --repository "my repo"'));
    await command.press('ControlOrMeta+V');
    await saidTimes(/^Split into the command uvx and 3 arguments, one a line in Arguments\.$/);
    assert.equal(await command.inputValue(), 'uvx');
    assert.equal(await args.inputValue(), 'mcp-server-git\n--repository\nmy repo');
    assert.ok(await command.evaluate((element) => element === document.activeElement), 'the focus stays on Command');

    // Enter in Command with a whole line: split and shown first, added by the next Enter.
    await args.fill('');
    await command.fill(`${process.execPath} --import ${TSX} ${ECHO}`);
    await command.press('Enter');
    await saidTimes(/^Split into the command .* and 3 arguments/);
    assert.equal(await command.inputValue(), process.execPath);
    assert.equal(await args.inputValue(), `--import\n${TSX}\n${ECHO}`);
    assert.ok(await command.evaluate((element) => element === document.activeElement), 'the focus stays on Command');
    assert.equal((await host.call('servers.list', {})).filter((view) => view.name === 'Whole line').length, 0);
    await command.press('Enter');
    await saidTimes(/^Added Whole line; it is connected\.$/);
    const settings = await host.call('servers.get', { serverId: 'whole-line' });
    assert.deepEqual(settings.transport.type === 'stdio' && [settings.transport.command, settings.transport.args], [
      process.execPath,
      ['--import', TSX, ECHO]
    ]);
    await host.call('servers.remove', { serverId: 'whole-line' });
    await page.locator('li[data-server-id="whole-line"]').waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });

  it('says of a URL typed into Command that it is one, refuses it, and takes it to URL on Streamable HTTP', async () => {
    const words = 'This is a URL: choose Streamable HTTP for a server at an address.';
    const form = page.getByRole('form', { name: 'Add a server' });
    const command = form.getByRole('textbox', { name: 'Command', exact: true });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Web by mistake');
    await command.fill('http://127.0.0.1:58888/mcp');
    // Said as it is typed, before any Add server.
    await form.getByText(words).waitFor();
    assert.match((await accessibleDescription(command)) ?? '', /This is a URL: choose Streamable HTTP/);
    await form.getByRole('button', { name: 'Add server' }).click();
    await form.locator('.action-error').getByText('One field needs correcting.').waitFor();
    assert.equal(await command.getAttribute('aria-invalid'), 'true');
    assert.equal(await form.locator('.field-error:not([hidden])').textContent(), words);
    assert.ok(await command.evaluate((element) => element === document.activeElement), 'the focus is on Command');
    assert.equal(
      (await host.call('servers.list', {})).some((view) => view.name === 'Web by mistake'),
      false,
      'nothing added'
    );
    // Streamable HTTP chosen, the address is in URL: nothing left to correct.
    await form.getByRole('radio', { name: 'Streamable HTTP' }).check();
    assert.equal(
      await form.getByRole('textbox', { name: 'URL', exact: true }).inputValue(),
      'http://127.0.0.1:58888/mcp'
    );
    await form.locator('.action-error').waitFor({ state: 'hidden' });
    await form.getByRole('textbox', { name: 'URL', exact: true }).fill('');
    await form.getByRole('radio', { name: 'Local command (stdio)' }).check();
    for (const label of ['Id', 'Name', 'Command'])
      await form.getByRole('textbox', { name: label, exact: true }).fill('');

    // Edit: said on the field, and refused by Save.
    const card = page.locator('li[data-server-id="echo"]');
    await card.getByRole('button', { name: 'Edit Echo' }).click();
    const edit = card.getByRole('form', { name: 'Edit Echo' });
    const edited = edit.getByRole('textbox', { name: 'Command', exact: true });
    await edited.fill('https://mcp.example.com/mcp');
    await edit.getByText(words).waitFor();
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.locator('.action-error').getByText('One field needs correcting.').waitFor();
    assert.equal(await edited.getAttribute('aria-invalid'), 'true');
    const saved = await host.call('servers.get', { serverId: 'echo' });
    assert.equal(saved.transport.type === 'stdio' && saved.transport.command, process.execPath, 'nothing saved');
    await edit.getByRole('button', { name: 'Cancel', exact: true }).click();
    await discard().click();
    await edit.waitFor({ state: 'detached' });

    // A server saved so before (added through the API): warned of, and its other fields can still be saved.
    await host.call('servers.add', {
      id: 'url-command',
      name: 'Url command',
      autoConnect: false,
      transport: { type: 'stdio', command: 'http://127.0.0.1:58888/mcp', args: [] }
    });
    const old = page.locator('li[data-server-id="url-command"]');
    await old.getByRole('button', { name: 'Edit Url command' }).click();
    const oldEdit = old.getByRole('form', { name: 'Edit Url command' });
    await oldEdit.getByText(words).waitFor();
    await oldEdit.getByRole('textbox', { name: 'Name', exact: true }).fill('Url command renamed');
    await oldEdit.getByRole('button', { name: 'Save' }).click();
    await oldEdit.waitFor({ state: 'detached' });
    assert.equal((await host.call('servers.get', { serverId: 'url-command' })).name, 'Url command renamed');
    await host.call('servers.remove', { serverId: 'url-command' });
    await old.waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });

  it('keeps env vars in the order they were entered, secrets among them, after a save and a reload', async () => {
    const form = page.getByRole('form', { name: 'Add a server' });
    await form.getByRole('textbox', { name: 'Id', exact: true }).fill('ordered');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Ordered');
    await form.getByRole('textbox', { name: 'Command', exact: true }).fill('node');
    await form.getByLabel('Connect now and when Taskdesk starts').uncheck();
    const entered: Array<[string, string, boolean]> = [
      ['API_TOKEN', `tok-${MARK}-5`, true],
      ['MODE', 'fast', false],
      ['DB_PASSWORD', `pw-${MARK}-6`, true],
      ['LEVEL', '3', false]
    ];
    for (const [index, [name, value, secret]] of entered.entries()) {
      await form.getByRole('button', { name: 'Add variable' }).press('Enter');
      // The focus goes into the new row's name: what the person types next lands there.
      const added = form.getByLabel(`Name of variable ${index + 1}`);
      await added.and(page.locator(':focus')).waitFor({ timeout: 5_000 });
      await page.keyboard.type(name);
      assert.equal(await added.inputValue(), name);
      await form.getByLabel(`Value of ${name}`).fill(value);
      assert.equal(await form.getByLabel(`Secret ${name}`).isChecked(), secret, `${name} is taken for a secret or not`);
    }
    // Remove puts the focus in the name of the row that takes its place (here the one before it),
    // not on the page, where it went with the button.
    await form.getByRole('button', { name: 'Add variable' }).press('Enter');
    await form.getByRole('button', { name: 'Remove variable 5' }).press('Enter');
    await form.getByLabel('Name of variable 4').and(page.locator(':focus')).waitFor({ timeout: 5_000 });
    assert.equal(await form.getByLabel('Name of variable 5').count(), 0);
    await form.getByRole('button', { name: 'Add server' }).click();
    await liveRegion().getByText('Added Ordered.', { exact: true }).waitFor();

    /** The env rows of the Edit form, in its order: name, and whether it is a secret. */
    const rowsInEdit = async () => {
      const card = page.locator('li[data-server-id="ordered"]');
      await card.getByRole('button', { name: 'Edit Ordered' }).click();
      const edit = card.getByRole('form', { name: 'Edit Ordered' });
      await edit.getByLabel('Value of LEVEL').waitFor();
      const rows = await edit
        .locator('.entry-row')
        .evaluateAll((items) =>
          items.map((item) => [
            item.getAttribute('data-entry'),
            item.querySelector<HTMLInputElement>('input[type=checkbox]')!.checked
          ])
        );
      return { edit, rows };
    };
    const opened = await rowsInEdit();
    assert.deepEqual(opened.rows, [
      ['API_TOKEN', true],
      ['MODE', false],
      ['DB_PASSWORD', true],
      ['LEVEL', false]
    ]);
    // MODE moved to the end (removed, added again with a new value).
    await opened.edit.getByRole('button', { name: 'Remove MODE' }).click();
    await opened.edit.getByRole('button', { name: 'Add variable' }).press('Enter');
    // In Edit as in Add: the new row's name takes the focus.
    await opened.edit.getByLabel('Name of variable 4').and(page.locator(':focus')).waitFor({ timeout: 5_000 });
    await page.keyboard.type('MODE');
    await opened.edit.getByLabel('Value of MODE').fill('slow');
    await opened.edit.getByRole('button', { name: 'Save' }).click();
    await opened.edit.waitFor({ state: 'detached' });
    const saved = [
      ['API_TOKEN', true],
      ['DB_PASSWORD', true],
      ['LEVEL', false],
      ['MODE', false]
    ];
    const reopened = await rowsInEdit();
    assert.deepEqual(reopened.rows, saved);
    await reopened.edit.getByRole('button', { name: 'Cancel' }).click();
    await reopened.edit.waitFor({ state: 'detached' });

    await page.reload();
    await page.locator('nav').getByRole('link', { name: 'Servers', exact: true }).click();
    const reloaded = await rowsInEdit();
    assert.deepEqual(reloaded.rows, saved, 'after a reload');
    await reloaded.edit.getByRole('button', { name: 'Cancel' }).click();
    assert.ok(!(await page.content()).includes(MARK), 'no secret in the page');
    assert.ok(!bodies.join('\n').includes(MARK), 'no secret in any answer the page received');
    assert.deepEqual(pageErrors, []);
  });
});

describe('the Servers screen with 15 servers, by keyboard', () => {
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
    host = serversHost(data.dir);
    await host.call('servers.add', {
      id: 'echo',
      name: 'Echo',
      transport: { type: 'stdio', command: process.execPath, args: ['--import', TSX, ECHO] }
    });
    assert.equal((await host.call('servers.connect', { serverId: 'echo' })).state.status, 'ready');
    // Seven that failed (no such command) and seven never connected.
    for (let n = 1; n <= 14; n++) {
      await host.call('servers.add', {
        id: `s${n}`,
        name: `Server ${n}`,
        transport: { type: 'stdio', command: 'taskdesk-no-such-command' }
      });
      if (n <= 7) assert.equal((await host.call('servers.connect', { serverId: `s${n}` })).state.status, 'failed');
    }
    ({ server, browser, page } = await openDesk(host, built.dir, pageErrors, {
      viewport: { width: 1100, height: 900 }
    }));
    await page.locator('nav').getByRole('link', { name: 'Servers', exact: true }).click();
    await page.locator('li[data-server-id="s14"]').waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await host?.close();
    data?.remove();
    built?.remove();
  });

  /** What has the focus: its accessible label, else its text. */
  const focused = () =>
    page.evaluate(() => {
      const element = document.activeElement as HTMLInputElement | null;
      const label = element?.labels?.[0]?.textContent ?? element?.getAttribute('aria-label');
      return label ?? element?.textContent?.trim() ?? '';
    });

  it('jumps from the top of the screen to Add a server with a skip link', async () => {
    await page.locator('#heading-servers').focus();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to Add a server' });
    assert.ok(await skip.evaluate((link) => link === document.activeElement), 'the first stop after the heading');
    await page.keyboard.press('Enter');
    const add = page.getByRole('form', { name: 'Add a server' });
    assert.ok(
      await add.getByRole('heading', { name: 'Add a server' }).evaluate((heading) => heading === document.activeElement)
    );
    assert.equal(await page.evaluate(() => location.hash), '#servers', 'still on the Servers screen');
    await page.keyboard.press('Tab');
    assert.ok(
      await add.getByRole('textbox', { name: 'Name', exact: true }).evaluate((f) => f === document.activeElement)
    );
    assert.deepEqual(pageErrors, []);
  });

  it('keeps every card to its state and its actions in the Tab order, its settings folded', async () => {
    // Each card's summary says what its settings hold once it has read them.
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('details.server-settings > summary')).filter((summary) =>
          summary.textContent?.endsWith('no folders')
        ).length === 15
    );
    await page.locator('#heading-servers').focus();
    const stops: string[] = [];
    const add = page.getByRole('form', { name: 'Add a server' });
    while (!(await add.evaluate((form) => form.contains(document.activeElement))) && stops.length < 400) {
      await page.keyboard.press('Tab');
      stops.push(await focused());
    }
    assert.ok(stops.length <= 90, `${stops.length} Tab presses from the Servers heading to Add a server`);
    const failed = page.locator('li[data-server-id="s1"]');
    // Its state, why, and what to do about it are in sight.
    await failed.locator('[data-status="failed"]').waitFor();
    await failed.getByText(/The command "taskdesk-no-such-command" was not found/).waitFor();
    const from = stops.indexOf('Server output (stderr) of Server 1');
    assert.deepEqual(stops.slice(from, from + 5), [
      'Server output (stderr) of Server 1',
      'Settings of Server 1: model requests ask you first · no folders',
      'Edit Server 1',
      'Connect Server 1',
      'Remove Server 1'
    ]);
    // The ready server's settings are folded too: no policy choice nor folder in the Tab order.
    assert.ok(stops.includes('Settings of Echo: model requests ask you first · no folders'));
    assert.ok(!stops.includes('Folder path') && !stops.includes('Ask me first'), stops.join(' | '));
    assert.deepEqual(pageErrors, []);
  });

  it('opens a card’s settings when asked: its sampling policy and folders', async () => {
    const card = page.locator('li[data-server-id="s2"]');
    const policy = card.getByRole('group', { name: 'Model requests from Server 2' });
    assert.equal(await policy.isVisible(), false);
    await card.locator('summary', { hasText: 'Settings' }).click();
    await policy.getByRole('radio', { name: 'Refuse' }).check();
    await card.locator('fieldset[data-policy-mode="refuse"] .policy-saved').waitFor();
    assert.equal((await host.call('sampling.getPolicy', { serverId: 's2' })).mode, 'refuse');
    await card
      .getByRole('group', { name: /^Folders/ })
      .getByText('No folders.')
      .waitFor();
    await card.locator('summary', { hasText: 'Settings of Server 2: model requests refused · no folders' }).waitFor();
    // A choice that cannot be saved (a directory where the policies' file goes) says so in the field's words.
    const policies = path.join(data.dir, 'sampling-policies.json');
    fs.rmSync(policies);
    fs.mkdirSync(policies);
    // A click, not `check`: the choice goes back to Refuse as soon as the save fails, which `check` would take for a click that did nothing.
    await policy.getByRole('radio', { name: 'Ask me first' }).click();
    await card
      .locator('.action-error-what')
      .getByText('The model request setting of Server 2 was not saved.', { exact: true })
      .waitFor();
    fs.rmdirSync(policies);
    assert.equal((await host.call('sampling.getPolicy', { serverId: 's2' })).mode, 'refuse');
    await card.locator('fieldset[data-policy-mode="refuse"] input[value="refuse"]:checked').waitFor();
    await card.locator('.action-error-dismiss').click();
    // The ready server's settings are folded too, until asked; then they stay open, a drop of
    // the connection or not, until the person folds them.
    const ready = page.locator('li[data-server-id="echo"]');
    const readyPolicy = ready.getByRole('group', { name: 'Model requests from Echo' });
    const summary = ready.locator('summary', {
      hasText: 'Settings of Echo: model requests ask you first · no folders'
    });
    assert.equal(await readyPolicy.isVisible(), false);
    await summary.click();
    await readyPolicy.waitFor();
    await host.call('servers.disconnect', { serverId: 'echo' });
    await ready.getByRole('button', { name: 'Connect Echo' }).waitFor();
    assert.equal(await readyPolicy.isVisible(), true, 'still open after the server dropped');
    assert.equal((await host.call('servers.connect', { serverId: 'echo' })).state.status, 'ready');
    await ready.locator('[data-status="ready"]').waitFor();
    assert.equal(await readyPolicy.isVisible(), true, 'still open once it is ready again');
    await summary.click();
    await readyPolicy.waitFor({ state: 'hidden' });
    assert.deepEqual(pageErrors, []);
  });

  it('drops the line of the last add once its server is renamed or removed, something else on the screen reports, or the next server is begun', async () => {
    const addForm = () => page.getByRole('form', { name: 'Add a server' });
    /** Adds a server of a URL nothing answers at, not connected: the form's line says "Added <name>.". */
    const add = async (id: string, name: string) => {
      const form = addForm();
      await form.getByLabel('Name').fill(name);
      await form.getByLabel('Id').fill(id);
      await form.getByLabel('Streamable HTTP').check();
      await form.getByLabel('URL').fill(`http://127.0.0.1:9/${id}`);
      await form.getByLabel('Connect now and when Taskdesk starts').uncheck();
      await form.getByRole('button', { name: 'Add server' }).click();
      const line = addForm().locator('.form-status');
      await line.getByText(`Added ${name}.`, { exact: true }).waitFor();
      return line;
    };

    // Renamed: the line would name a server that is no longer called so.
    let line = await add('line-one', 'Line one');
    const one = page.locator('li[data-server-id="line-one"]');
    await one.getByRole('button', { name: 'Edit Line one' }).click();
    const edit = one.getByRole('form', { name: 'Edit Line one' });
    await edit.getByRole('textbox', { name: 'Name', exact: true }).fill('Line one renamed');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await line.waitFor({ state: 'hidden' });

    // Another server's Connect says how it went: the line would read as about that.
    line = await add('line-two', 'Line two');
    await one.getByRole('button', { name: 'Connect Line one renamed' }).click();
    await one.locator('[data-status="failed"]').waitFor();
    await line.waitFor({ state: 'hidden' });

    // Removed (from elsewhere: the host itself), the line goes with it.
    line = await add('line-three', 'Line three');
    await host.call('servers.remove', { serverId: 'line-three' });
    await page.locator('li[data-server-id="line-three"]').waitFor({ state: 'detached' });
    await line.waitFor({ state: 'hidden' });

    // The next server begun (a field edited): the line would read as about the one being filled in.
    line = await add('line-four', 'Line four');
    await addForm().getByLabel('Name').fill('Line f');
    await line.waitFor({ state: 'hidden' });
    line = await add('line-five', 'Line five');
    await addForm().getByLabel('Id').fill('line-s');
    await line.waitFor({ state: 'hidden' });

    for (const serverId of ['line-one', 'line-two', 'line-four', 'line-five'])
      await host.call('servers.remove', { serverId });
    await page.locator('li[data-server-id="line-two"]').waitFor({ state: 'detached' });
    assert.deepEqual(pageErrors, []);
  });
});
