import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { TOKEN_FILE_NAME } from '../../app/browser/token-file.js';
import { launchTestBrowser } from '../support/test-browser.js';
import { tempDir } from '../support/host-fixture.js';
import { buildRenderer, root } from './renderer-build.js';

/** A running `browser-mode.ts` child and what it printed. */
interface Launch {
  child: ChildProcess;
  url: string;
  token: string;
  port: number;
  stderr: () => string;
}

/** Starts browser mode and resolves once it prints its address, or rejects if it ends first. */
async function launch(dataDir: string, rendererDir: string, extra: string[] = []): Promise<Launch> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(root, 'app/cli/browser-mode.ts'),
      '--no-demo',
      '--data-dir',
      dataDir,
      '--renderer-dir',
      rendererDir,
      ...extra
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] }
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const match = /Open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(stdout);
      if (match) {
        child.stdout.off('data', onData);
        child.off('exit', onExit);
        resolve(match[1]!);
      }
    };
    const onExit = (code: number | null) =>
      reject(new Error(`browser mode exited (${code}) before printing its address:\n${stdout}\n${stderr}`));
    child.stdout.on('data', onData);
    child.once('exit', onExit);
  });
  const parsed = new URL(url);
  return { child, url, token: parsed.searchParams.get('token')!, port: Number(parsed.port), stderr: () => stderr };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** A host API call as our page makes it, with the token given; resolves with the HTTP status. */
async function callStatus(origin: string, token: string): Promise<number> {
  const response = await fetch(`${origin}/api/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, 'x-taskdesk-token': token },
    body: JSON.stringify({ method: 'servers.list', params: {} })
  });
  await response.body?.cancel();
  return response.status;
}

describe('browser mode keeps its access token in the data directory', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let data: ReturnType<typeof tempDir>;
  let browser: Browser;
  let page: Page;
  let current: Launch | undefined;
  let first: Launch;
  const tokenFile = () => path.join(data.dir, TOKEN_FILE_NAME);

  before(async () => {
    built = await buildRenderer();
    data = tempDir('taskdesk-browser-token-');
    browser = await launchTestBrowser();
  });

  after(async () => {
    await browser?.close();
    if (current) await stop(current.child);
    data?.remove();
    built?.remove();
  });

  it('saves the token it prints, readable by its owner only', async () => {
    current = first = await launch(data.dir, built.dir, ['--port', '0']);
    assert.match(first.token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(fs.readFileSync(tokenFile(), 'utf8').trim(), first.token);
    if (process.platform !== 'win32') assert.equal(fs.statSync(tokenFile()).mode & 0o777, 0o600);
    page = await browser.newPage();
    await page.goto(first.url);
    await page.locator('#app[data-ready="true"]').waitFor();
  });

  it('takes the same token after a restart: the open tab reconnects by itself and its calls work', async () => {
    await stop(first.child);
    current = undefined;
    // The tab notices the drop first, so the reconnect below is a real one.
    await page.getByText('Lost contact with Taskdesk. Reconnecting…').waitFor();
    current = await launch(data.dir, built.dir, ['--port', String(first.port)]);
    assert.equal(current.url, first.url);
    assert.equal(await callStatus(`http://127.0.0.1:${current.port}`, first.token), 200);
    // The event stream comes back: the banner goes, and no "token is out of date" shows up.
    await page.getByText('Lost contact with Taskdesk').waitFor({ state: 'hidden' });
    assert.equal(await page.getByText(/token is out of date|not the one Taskdesk printed/).count(), 0);
    // A call from the old page reaches the new host: a setting saved from it is saved.
    await page.locator('nav').getByRole('link', { name: 'History', exact: true }).click();
    const retention = page.getByRole('region', { name: 'History' }).getByRole('form', { name: 'Retention' });
    await retention.getByLabel('Days').fill('7');
    await retention.getByRole('button', { name: 'Save' }).click();
    await retention.getByText('Saved.').waitFor();
    assert.equal(await page.getByText(/token is out of date/).count(), 0);
  });

  it('makes a new token with --new-token, and refuses the old one', async () => {
    await stop(current!.child);
    current = await launch(data.dir, built.dir, ['--port', String(first.port), '--new-token']);
    assert.match(current.token, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(current.token, first.token);
    assert.equal(fs.readFileSync(tokenFile(), 'utf8').trim(), current.token);
    const origin = `http://127.0.0.1:${current.port}`;
    assert.equal(await callStatus(origin, first.token), 401);
    assert.equal(await callStatus(origin, current.token), 200);
    // The tab opened with the old token is told to open the new address.
    await page
      .getByRole('alert')
      .filter({ hasText: "Taskdesk was restarted; open the new address it printed (this tab's token is out of date)." })
      .waitFor();
  });

  it('replaces a token file that holds no token, and says so', async () => {
    const before = current!.token;
    await stop(current!.child);
    current = undefined;
    fs.writeFileSync(tokenFile(), 'not a token\n');
    current = await launch(data.dir, built.dir, ['--port', '0']);
    assert.match(current.stderr(), /browser-mode-token does not hold a browser mode token: made a new one\./);
    assert.match(current.token, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(current.token, before);
    assert.equal(fs.readFileSync(tokenFile(), 'utf8').trim(), current.token);
    if (process.platform !== 'win32') assert.equal(fs.statSync(tokenFile()).mode & 0o777, 0o600);
    assert.equal(await callStatus(`http://127.0.0.1:${current.port}`, current.token), 200);
  });

  it('shares the token with a second launch on the same data directory', async () => {
    const second = await launch(data.dir, built.dir, ['--port', '0']);
    try {
      assert.notEqual(second.port, current!.port);
      assert.equal(second.token, current!.token);
      assert.equal(await callStatus(`http://127.0.0.1:${second.port}`, current!.token), 200);
    } finally {
      await stop(second.child);
    }
  });
});
