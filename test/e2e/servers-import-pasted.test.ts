import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Locator, type Page } from 'playwright-core';
import { openImportDesk, type ImportDesk } from './import-desk.js';

/**
 * The Import panel of a person with none of Claude Desktop, Cursor or VS Code's configs, who
 * pastes one: what it says (once each), a server that cannot be imported offering no choices, and
 * the panel's blocks laid out as the Desk's forms are (headings level, room between blocks).
 */
describe('the Servers screen: importing a pasted config, with no app configs on the computer', () => {
  let desk: ImportDesk | undefined;
  let page: Page;
  let pageErrors: string[] = [];

  before(async () => {
    desk = await openImportDesk({ viewport: { width: 800, height: 1400 } });
    ({ page, pageErrors } = desk);
  });

  after(async () => {
    await desk?.close();
  });

  const panel = () => page.getByRole('region', { name: 'Import from other apps' });
  const pasted = () => panel().locator('li.import-source[data-kind="pasted"]');
  const row = (key: string) => pasted().locator(`li.import-server[data-key="${key}"]`);
  const look = async () => {
    await panel().getByRole('button', { name: 'Look for servers' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'heading-import-found');
  };
  const box = async (locator: Locator) => {
    const found = await locator.boundingBox();
    assert.ok(found, 'shown');
    return found;
  };
  /** The room from the bottom of one thing to the top of the next below it. */
  const gap = async (above: Locator, below: Locator) => {
    const [a, b] = [await box(above), await box(below)];
    return b.y - (a.y + a.height);
  };
  const widths = [800, 1280] as const;

  it('says in plain sentences what it reads and which servers start ticked', async () => {
    assert.equal(
      await panel().locator('#heading-import ~ p').first().textContent(),
      'Reads the servers of Claude Desktop, Cursor and VS Code where they keep them. Servers found start ticked, except those Taskdesk has already and those switched off in their app. Untick any you do not want. Nothing is added until you press Import.'
    );
    assert.deepEqual(pageErrors, []);
  });

  it('has its two fields’ headings and boxes level, and room between its blocks, at 800 and 1280 px', async () => {
    const projects = panel().locator('label', { hasText: 'Project folders' });
    const paste = panel().locator('label', { hasText: 'Or paste a config' });
    for (const width of widths) {
      await page.setViewportSize({ width, height: 1400 });
      const [left, right] = [await box(projects), await box(paste)];
      assert.ok(Math.abs(left.y - right.y) <= 1, `at ${width} px the headings are level: ${left.y}, ${right.y}`);
      const [leftBox, rightBox] = [
        await box(panel().getByLabel('Project folders')),
        await box(panel().getByLabel('Or paste a config'))
      ];
      assert.ok(Math.abs(leftBox.y - rightBox.y) <= 1, `at ${width} px the boxes are level`);
      const intro = panel().locator('#heading-import ~ p').first();
      const belowIntro = await gap(intro, projects);
      assert.ok(belowIntro >= 8, `at ${width} px room under the description: ${belowIntro} px`);
      const belowBoxes = await gap(
        panel().getByLabel('Project folders'),
        panel().getByRole('button', { name: 'Look for servers' })
      );
      assert.ok(belowBoxes >= 8, `at ${width} px room above Look for servers: ${belowBoxes} px`);
    }
    await page.setViewportSize({ width: 800, height: 1400 });
    assert.deepEqual(pageErrors, []);
  });

  /** Looks once, for the tests below: a config pasted with a server that has no command. */
  const weatherConfig = {
    mcpServers: {
      filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] },
      weather: { args: ['weather-server.js'], env: { API_KEY: 'abc123' } }
    }
  };

  it('offers no choice for a server that cannot be imported: its tick and its env vars’ key store boxes', async () => {
    await panel()
      .getByLabel('Or paste a config')
      .fill(JSON.stringify(weatherConfig, null, 2));
    await look();
    assert.equal(
      await row('weather')
        .getByRole('checkbox', { name: /^weather / })
        .isDisabled(),
      true
    );
    // Its env var is still shown (what the config holds), with nothing to choose about it.
    await row('weather').getByText('API_KEY', { exact: true }).waitFor();
    assert.equal(
      await row('weather')
        .getByRole('checkbox', { name: /Keep in the key store/ })
        .count(),
      0
    );
    // One that can be imported is ticked, as before.
    assert.equal(
      await row('filesystem')
        .getByRole('checkbox', { name: /^filesystem / })
        .isChecked(),
      true
    );
    assert.deepEqual(pageErrors, []);
  });

  it('says once why a server with no command cannot be imported, and shows no empty command', async () => {
    const text = (await row('weather').textContent()) ?? '';
    assert.doesNotMatch(text, /No command given/);
    assert.doesNotMatch(text, /''|""/);
    assert.equal(
      await row('weather')
        .getByText(/^Cannot be imported: /)
        .count(),
      1
    );
    await row('weather').getByText('Cannot be imported: "command" is missing', { exact: true }).waitFor();
    assert.equal(await row('weather').locator('code.url').count(), 0);
    assert.deepEqual(pageErrors, []);
  });

  it('does not list, after a pasted config, the app configs it did not find', async () => {
    const text = (await panel().textContent()) ?? '';
    assert.doesNotMatch(text, /Not found/);
    // Nor where it looked for them, in the home of its own.
    assert.equal(text.includes(desk!.home), false);
    assert.deepEqual(pageErrors, []);
  });

  it('has room between “Connect them now…” and the Import button, at 800 and 1280 px', async () => {
    for (const width of widths) {
      await page.setViewportSize({ width, height: 1400 });
      const room = await gap(
        pasted().locator('.checkbox-row', { hasText: 'Connect them now and when Taskdesk starts' }),
        pasted().getByRole('button', { name: /^Import 1 selected/ })
      );
      assert.ok(room >= 8, `at ${width} px room above Import: ${room} px`);
    }
    await page.setViewportSize({ width: 800, height: 1400 });
    assert.deepEqual(pageErrors, []);
  });

  it('says, after a look at the apps only, where it looked for their configs, as information', async () => {
    await panel().getByLabel('Or paste a config').fill('');
    await look();
    assert.equal(await panel().locator('#heading-import-found').textContent(), 'Found no configs to import from.');
    const places = [
      '.config/Claude/claude_desktop_config.json',
      '.cursor/mcp.json',
      '.config/Code/User/settings.json',
      '.config/Code/User/mcp.json'
    ].map((file) => path.join(desk!.home, file));
    await panel()
      .getByText(
        `Looked for Claude Desktop, Cursor and VS Code configs in: ${places.slice(0, -1).join(', ')} and ${places.at(-1)!} (none there).`,
        { exact: true }
      )
      .waitFor();
    assert.doesNotMatch((await panel().textContent()) ?? '', /Not found/);
    assert.deepEqual(pageErrors, []);
  });
});
