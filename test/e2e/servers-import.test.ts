import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Locator, type Page } from 'playwright-core';
import type { Host } from '../../app/host/host.js';
import { root } from './renderer-build.js';
import { openImportDesk, type ImportDesk } from './import-desk.js';

const ECHO = path.join(root, 'test/support/env-echo-server.ts');
const TSX = import.meta.resolve('tsx');

/** Claude Desktop's, Cursor's and VS Code's configs in a home of their own, as a person who used all three has them. */
function writeConfigs(home: string): void {
  const write = (file: string, value: unknown) => {
    fs.mkdirSync(path.dirname(path.join(home, file)), { recursive: true });
    fs.writeFileSync(path.join(home, file), JSON.stringify(value));
  };
  const github = (image: string) => ({
    command: 'taskdesk-e2e-no-such-docker',
    args: ['run', '-i', '--rm', image],
    env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp-e2e', LOG_LEVEL: 'info' }
  });
  write('.config/Claude/claude_desktop_config.json', {
    mcpServers: {
      // Connects: the echo server, as `npx @modelcontextprotocol/server-filesystem` would.
      filesystem: { command: process.execPath, args: ['--import', TSX, ECHO] },
      github: github('ghcr.io/github/github-mcp-server'),
      weather: { command: 'taskdesk-e2e-no-such-uvx', args: ['weather-mcp'] },
      // Switched off in Claude Desktop: it would connect (the echo server), if it were connected.
      paused: { command: process.execPath, args: ['--import', TSX, ECHO, '--paused'], disabled: true }
    }
  });
  write('.cursor/mcp.json', {
    mcpServers: {
      github: github('ghcr.io/github/github-mcp-server:cursor'),
      legacy: { type: 'sse', url: 'http://127.0.0.1:9/sse' }
    }
  });
  write('.config/Code/User/mcp.json', {
    // Not a password: where it goes shows (a secret's value, and so its use, is not shown to the page).
    inputs: [{ type: 'promptString', id: 'docs-token', description: 'Docs token' }],
    servers: {
      docs: {
        type: 'http',
        url: 'http://127.0.0.1:9/docs',
        headers: { Authorization: 'Bearer ${input:docs-token}', 'X-Client': 'taskdesk ${input:docs-token}' }
      }
    }
  });
}

describe('the Servers screen: importing the servers of Claude Desktop, Cursor and VS Code', () => {
  let desk: ImportDesk | undefined;
  let host: Host;
  let page: Page;
  let pageErrors: string[] = [];

  before(async () => {
    desk = await openImportDesk({ viewport: { width: 1100, height: 1400 }, writeHome: writeConfigs });
    ({ host, page, pageErrors } = desk);
  });

  after(async () => {
    await desk?.close();
  });

  const panel = () => page.getByRole('region', { name: 'Import from other apps' });
  const section = (kind: string) => panel().locator(`li.import-source[data-kind="${kind}"]`);
  const look = async (projects = '') => {
    await panel().getByLabel('Project folders').fill(projects);
    await panel().getByRole('button', { name: 'Look for servers' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'heading-import-found');
  };
  const row = (source: Locator, key: string) => source.locator(`li.import-server[data-key="${key}"]`);
  const keyStoreBox = (serverRow: Locator, name: string) => serverRow.getByLabel(`Keep in the key store (${name})`);

  it('ticks or unticks, by a label in one app’s section, the box of that section only, even “Keep in the key store”', async () => {
    await look();
    const claude = row(section('claude-desktop'), 'github');
    const cursor = row(section('cursor'), 'github');
    // A server Taskdesk does not have yet says, as the others say what becomes of them, that Import adds it.
    for (const [kind, key] of [
      ['claude-desktop', 'filesystem'],
      ['claude-desktop', 'github'],
      ['claude-desktop', 'weather'],
      ['cursor', 'github'],
      ['vscode-user', 'docs']
    ] as const)
      assert.equal(
        await row(section(kind), key)
          .locator('p.small-text')
          .getByText('New to Taskdesk: importing adds it.', { exact: true })
          .count(),
        1,
        `${kind} ${key}`
      );
    // One that cannot be imported says only why.
    assert.equal(
      await row(section('cursor'), 'legacy')
        .getByText(/^New to Taskdesk/)
        .count(),
      0
    );
    // Both start ticked, as every server that can be imported does: Cursor's label unticks Cursor's only.
    assert.equal(await cursor.getByRole('checkbox', { name: /^github/ }).isChecked(), true);
    assert.equal(await claude.getByRole('checkbox', { name: /^github/ }).isChecked(), true);
    await cursor.locator('label', { has: page.locator('strong', { hasText: 'github' }) }).click();
    assert.equal(await cursor.getByRole('checkbox', { name: /^github/ }).isChecked(), false);
    assert.equal(await claude.getByRole('checkbox', { name: /^github/ }).isChecked(), true);

    assert.equal(await keyStoreBox(claude, 'GITHUB_PERSONAL_ACCESS_TOKEN').isChecked(), true);
    await cursor.locator('label', { hasText: 'GITHUB_PERSONAL_ACCESS_TOKEN' }).click();
    assert.equal(await keyStoreBox(cursor, 'GITHUB_PERSONAL_ACCESS_TOKEN').isChecked(), false);
    assert.equal(
      await keyStoreBox(claude, 'GITHUB_PERSONAL_ACCESS_TOKEN').isChecked(),
      true,
      'Claude Desktop’s token stays in the key store'
    );

    // No id is on the page twice, and every label of the panel names one control.
    const twice = await page.evaluate(() => {
      const seen = new Map<string, number>();
      for (const element of Array.from(document.querySelectorAll('[id]')))
        seen.set(element.id, (seen.get(element.id) ?? 0) + 1);
      return [...seen].filter(([, count]) => count > 1).map(([id]) => id);
    });
    assert.deepEqual(twice, []);
    assert.deepEqual(pageErrors, []);
  });

  it('says, once imported, which servers did not connect and why, and takes the person to their cards', async () => {
    await look();
    const claude = section('claude-desktop');
    // Switched off in Claude Desktop: not ticked, and its row says why and what importing it does.
    const paused = row(claude, 'paused');
    assert.equal(await paused.getByRole('checkbox', { name: /^paused/ }).isChecked(), false);
    await paused
      .getByText('Switched off in Claude Desktop, so not ticked; if you import it, it is not connected.', {
        exact: true
      })
      .waitFor();
    // "disabled" is used now: not among the fields Taskdesk does not use.
    assert.equal(await paused.getByText(/^Not imported/).count(), 0);
    for (const key of ['filesystem', 'github', 'weather', 'paused'])
      await row(claude, key)
        .getByRole('checkbox', { name: new RegExp(`^${key}`) })
        .check();
    assert.equal(await claude.getByLabel('Connect them now and when Taskdesk starts').isChecked(), true);
    await claude.getByRole('button', { name: /Import 4 selected/ }).click();

    // Said as they connect; the import's outcome once all three asked to connect have answered.
    const result = claude.locator('.import-result p');
    await result.getByText(/Did not connect/).waitFor();
    await result.getByText(/Still connecting/).waitFor({ state: 'detached' });
    // Each server named once: paused, imported, is left off, since Claude Desktop has it switched off.
    assert.match(
      (await result.textContent()) ?? '',
      /^Imported 4 servers\. Connected: filesystem\. Did not connect: github \(The command "taskdesk-e2e-no-such-docker" was not found[^;)]*\); weather \(The command "taskdesk-e2e-no-such-uvx" was not found[^;)]*\)\. Switched off in Claude Desktop, so not connected: paused\.$/
    );
    await row(claude, 'weather')
      .getByText(/^Imported as “weather”: it did not connect \(The command "taskdesk-e2e-no-such-uvx" was not found/)
      .waitFor();
    await row(claude, 'filesystem').getByText('Imported as “filesystem”: connected.', { exact: true }).waitFor();
    await paused
      .getByText('Imported as “paused”: not connected, since it is switched off in Claude Desktop.', { exact: true })
      .waitFor();
    const pausedServer = await host.call('servers.get', { serverId: 'paused' });
    assert.equal(pausedServer.autoConnect, false, 'not connected when Taskdesk starts either');
    assert.equal((await host.call('servers.list', {})).find((server) => server.id === 'paused')?.state.status, 'idle');

    // Each name is a way to its card, far above: the card takes the focus, in sight.
    for (const id of ['weather', 'paused']) {
      await result.getByRole('button', { name: id, exact: true }).click();
      await page.waitForFunction(
        (serverId) => document.activeElement?.matches(`li.card.server[data-server-id="${serverId}"]`),
        id
      );
      const top = await page.evaluate(() => document.activeElement!.getBoundingClientRect().top);
      assert.ok(top >= 0 && top < 1400, `${id}’s card is in sight (top ${top})`);
    }
    assert.deepEqual(pageErrors, []);
  });

  it('skips, looked for again, what Taskdesk has already with the same settings, and each row says what Import will do', async () => {
    await look();
    const claude = section('claude-desktop');
    await claude.getByLabel('Connect them now and when Taskdesk starts').uncheck();
    for (const key of ['filesystem', 'github', 'weather'])
      await row(claude, key)
        .getByRole('checkbox', { name: new RegExp(`^${key}`) })
        .check();
    const skipped = (what: string) =>
      `Taskdesk already has this server (the same command and settings), as “${what}”: it is skipped, unless you choose to import a copy.`;
    await row(claude, 'filesystem').getByText(skipped('filesystem'), { exact: true }).waitFor();
    await row(claude, 'weather').getByText(skipped('weather'), { exact: true }).waitFor();
    // github keeps a secret, which cannot be compared: it only shares a name, and is numbered.
    await row(claude, 'github')
      .getByText(
        'Taskdesk already has a server with this id or name: if you import it anyway, it is added as “github (2)”.',
        {
          exact: true
        }
      )
      .waitFor();
    const copies = claude.getByRole('group', { name: /^When Taskdesk has the same server already/ });
    const namesakes = claude.getByRole('group', { name: 'When Taskdesk has another server of that id or name' });
    assert.equal(await copies.getByLabel('Skip it').isChecked(), true);
    assert.equal(await namesakes.getByLabel(/^Import it anyway/).isChecked(), true);
    const button = claude.getByRole('button', { name: /^Import \d* ?selected/ });
    assert.match((await button.textContent()) ?? '', /^Import 1 selected/);

    // Skipped, github says so, and nothing is left to import.
    await namesakes.getByLabel('Skip it').check();
    await row(claude, 'github')
      .getByText('Taskdesk already has a server with this id or name: it is skipped.', { exact: true })
      .waitFor();
    assert.equal(await button.isDisabled(), true);
    // A copy asked for: its row says the name it is added under.
    await copies.getByLabel(/^Import a copy anyway/).check();
    await row(claude, 'filesystem')
      .getByText(
        'Taskdesk already has this server (the same command and settings), as “filesystem”: a copy is added, as “filesystem (2)”.',
        { exact: true }
      )
      .waitFor();
    await copies.getByLabel('Skip it').check();
    await namesakes.getByLabel(/^Import it anyway/).check();
    await button.click();
    await claude
      .locator('.import-result p')
      .getByText(
        'Imported github (2). Skipped filesystem: Taskdesk has it already, as “filesystem”. Skipped weather: Taskdesk has it already, as “weather”.',
        { exact: true }
      )
      .waitFor();
    assert.deepEqual(
      (await host.call('servers.list', {})).map((s) => s.name),
      ['filesystem', 'github', 'weather', 'paused', 'github (2)']
    );
    assert.deepEqual(pageErrors, []);
  });

  it('says what a VS Code input is for and that it is required; badges an SSE server as not importable; says a project folder does not exist', async () => {
    const gone = path.join(desk!.home, 'no-such-project');
    await look(gone);
    // Its box takes a config file's path too: a path with nothing at it is not said to be a folder.
    await panel().getByText(`There is no folder or file at ${gone}.`, { exact: true }).waitFor();
    assert.equal(
      await panel()
        .getByText(/Not found: .*no-such-project/)
        .count(),
      0
    );

    const legacy = row(section('cursor'), 'legacy');
    assert.equal(await legacy.locator('.kind-tag').textContent(), 'cannot be imported');
    await legacy.getByText(/^Cannot be imported: .*SSE/).waitFor();

    const vscode = section('vscode-user');
    await row(vscode, 'docs').getByRole('checkbox', { name: /^docs/ }).check();
    const token = vscode.getByRole('textbox', { name: /^Docs token, for docs/ });
    assert.equal(await token.getAttribute('aria-required'), 'true');
    assert.equal(await vscode.locator('label', { hasText: 'Docs token, for docs' }).locator('.required').count(), 1);
    const hint = await token.evaluate((input) =>
      (input.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent)
        .join(' ')
    );
    assert.match(hint, /\$\{input:docs-token\}/);
    assert.match(hint, /docs’s settings use it, such as its header X-Client/);

    await vscode.getByLabel('Connect them now and when Taskdesk starts').uncheck();
    await vscode.getByRole('button', { name: /Import 1 selected/ }).click();
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-invalid') === 'true');
    assert.equal(await token.evaluate((input) => input === document.activeElement), true);
    await vscode.getByText('Enter a value: the import needs it.').waitFor();
    await token.fill('tok');
    await vscode.getByRole('button', { name: /Import 1 selected/ }).click();
    await vscode.locator('.import-result p').getByText('Imported docs.', { exact: true }).waitFor();
    assert.deepEqual(pageErrors, []);
  });
});
