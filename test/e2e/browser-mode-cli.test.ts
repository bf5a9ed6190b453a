import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchTestBrowser } from '../support/test-browser.js';
import { tempDir } from '../support/host-fixture.js';
import { buildRenderer, root } from './renderer-build.js';

/** Resolves with the first stdout line that matches, or rejects if the process ends first. */
function waitForLine(child: ChildProcess, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const match = buffer.match(pattern);
      if (match) {
        child.stdout!.off('data', onData);
        resolve(match);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`browser mode exited (${code}) before printing ${pattern}:\n${buffer}\n${stderr}`))
    );
  });
}

/** A running `browser-mode.ts` child and what it printed. */
interface Launch {
  child: ChildProcess;
  url: string;
  stdout: () => string;
}

async function launch(dataDir: string, rendererDir: string): Promise<Launch> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(root, 'app/cli/browser-mode.ts'),
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--renderer-dir',
      rendererDir
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe']
    }
  );
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const url = (await waitForLine(child, /Open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/))[1]!;
  return { child, url, stdout: () => stdout };
}

async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  // What it prints as it stops is read to the end: its output closes when it has ended.
  const printed = once(child.stdout!, 'close');
  child.kill(signal);
  const [code] = (await once(child, 'exit')) as [number | null];
  await printed;
  return code;
}

/** Runs one of browser mode's scripts with `arg` and no more, to its exit. */
const run = async (arg: string, script = 'app/cli/browser-mode.ts') => {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, script), arg], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe']
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, out, err };
};

describe('browser mode from the command line', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let data: ReturnType<typeof tempDir>;
  let first: Launch;
  let second: Launch | undefined;
  let browser: Browser;

  before(async () => {
    built = await buildRenderer();
    data = tempDir('taskdesk-browser-mode-');
    first = await launch(data.dir, built.dir);
    browser = await launchTestBrowser();
  });

  after(async () => {
    await browser?.close();
    if (first) await stop(first.child);
    if (second) await stop(second.child);
    data?.remove();
    built?.remove();
  });

  it('starts with the bundled demo server when none is saved, and the page shows it ready', async () => {
    assert.match(first.stdout(), /added the bundled demo server/);
    const page = await browser.newPage();
    await page.goto(`${first.url}#servers`);
    const item = page.locator('li[data-server-id="everything"]');
    await item.getByRole('heading', { name: 'Everything (demo)' }).waitFor();
    await item.locator('[data-status="ready"]').waitFor();
    assert.match((await item.locator('.facts').textContent()) ?? '', /server-everything[\s\S]*stdio/);
    await page.close();
  });

  it('tells a page opened without the token to use the printed URL', async () => {
    const page = await browser.newPage();
    await page.goto(first.url.replace(/\?token=.*/, ''));
    await page.getByText('This page needs its launch token.').waitFor();
    await page.close();
  });

  it('stops cleanly on SIGTERM, and says so in the terminal', async () => {
    assert.equal(await stop(first.child), 0);
    // Nothing without a task was open: its last line says only that it closed.
    assert.equal(first.stdout().trimEnd().split('\n').at(-1), 'Taskdesk closed.');
  });

  it('keeps the demo server saved: the next launch does not add it again, and connects it', async () => {
    second = await launch(data.dir, built.dir);
    assert.doesNotMatch(second.stdout(), /added the bundled demo server/);
    assert.equal(
      new URL(second.url).searchParams.get('token'),
      new URL(first.url).searchParams.get('token'),
      'the token is kept in the data directory'
    );
    const page = await browser.newPage();
    await page.goto(`${second.url}#servers`);
    await page.locator('li[data-server-id="everything"] [data-status="ready"]').waitFor();
    assert.equal(await page.locator('li[data-server-id]').count(), 1);
    await page.close();
  });

  it('stops cleanly on Ctrl+C (SIGINT), and says so in the terminal', async () => {
    assert.ok(second);
    assert.equal(await stop(second.child, 'SIGINT'), 0);
    assert.equal(second.stdout().trimEnd().split('\n').at(-1), 'Taskdesk closed.');
  });

  it('prints its options for --help, and refuses an unknown option with its name and the usage (exit 2)', async () => {
    const help = await run('--help');
    assert.equal(help.code, 0);
    assert.match(help.out, /^Usage: npm run start:browser -- \[--port N\]/);
    assert.match(help.out, /--data-dir DIR/);
    const wrong = await run('--prot');
    assert.equal(wrong.code, 2);
    assert.match(wrong.err, /Unknown option '--prot'[\s\S]*Usage:/);
    assert.equal(wrong.out, '');
  });

  it('answers --help and a mistyped option of npm run start:browser before it builds the renderer', async () => {
    // The build it would start (Vite's, into build/renderer) prints its progress on stdout.
    const help = await run('--help', 'app/cli/start-browser.ts');
    assert.equal(help.code, 0);
    assert.match(help.out, /^Usage: npm run start:browser -- \[--port N\]/);
    assert.doesNotMatch(help.out, /vite|building/i);
    const wrong = await run('--prot', 'app/cli/start-browser.ts');
    assert.equal(wrong.code, 2);
    assert.match(wrong.err, /Unknown option '--prot'[\s\S]*Usage:/);
    assert.equal(wrong.out, '');
    const port = await run('--port=99999', 'app/cli/start-browser.ts');
    assert.equal(port.code, 2);
    assert.match(port.err, /--port must be a port number, got 99999/);
    assert.equal(port.out, '');
  });

  it('builds the Desk as npm run start:browser does without a warning of its bundle’s size', async () => {
    // Its `vite build`, with the project's config, into a directory of its own (not build/renderer).
    const out = tempDir('taskdesk-vite-build-');
    try {
      const child = spawn(
        process.execPath,
        [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', out.dir, '--emptyOutDir'],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] }
      );
      let printed = '';
      child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString('utf8')));
      const [code] = (await once(child, 'exit')) as [number | null];
      assert.equal(code, 0, printed);
      assert.doesNotMatch(printed, /larger than \d+ kB|chunkSizeWarningLimit/);
      // The build itself stands: the one entry module the page loads.
      assert.ok(fs.statSync(path.join(out.dir, 'main.js')).size > 0);
    } finally {
      out.remove();
    }
  });
});
