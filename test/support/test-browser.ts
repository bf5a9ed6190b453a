import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

/** Chromium flags for a quiet headless run in a container. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync'
];

/** The environment variable that names the browser binary the tests use. */
export const BROWSER_ENV = 'TASKDESK_TEST_BROWSER';

/** A browser the e2e tests can launch, and where it was found. */
export interface TestBrowser {
  executablePath: string;
  source: 'environment' | 'system' | 'npm';
}

const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome'];

/**
 * Finds the browser the e2e tests drive, in this order: the binary named by
 * `TASKDESK_TEST_BROWSER`; the system's Chromium (Debian's `chromium`, or a Chrome, on `PATH`);
 * the Chromium that the npm package `@sparticuz/chromium` carries inside it (unpacked into the
 * temp directory on first use), so that `npm ci && npm test` needs no browser installed by hand.
 */
export async function resolveTestBrowser(env: NodeJS.ProcessEnv = process.env): Promise<TestBrowser> {
  const named = env[BROWSER_ENV];
  if (named) {
    if (!isExecutable(named)) throw new Error(`${BROWSER_ENV}=${named} is not an executable file`);
    return { executablePath: named, source: 'environment' };
  }
  const system = findOnPath(SYSTEM_NAMES, env.PATH ?? '');
  if (system) return { executablePath: system, source: 'system' };
  return { executablePath: await unpackNpmChromium(), source: 'npm' };
}

let resolved: Promise<TestBrowser> | undefined;

/** Launches the test browser headless (resolved once per process). */
export async function launchTestBrowser(options: LaunchOptions = {}): Promise<Browser> {
  resolved ??= resolveTestBrowser();
  const { executablePath } = await resolved;
  return chromium.launch({ ...options, executablePath, args: [...CHROMIUM_ARGS, ...(options.args ?? [])] });
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function findOnPath(names: string[], searchPath: string): string | undefined {
  for (const name of names) {
    for (const dir of searchPath.split(path.delimiter)) {
      if (!dir) continue;
      const candidate = path.join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * The npm package's Chromium. Its `executablePath()` treats an existing `/tmp/chromium` as
 * unpacked, so two test processes unpacking at once could launch a half-written binary: a lock
 * directory makes the first one unpack and the others wait for it.
 */
async function unpackNpmChromium(): Promise<string> {
  const { default: npmChromium } = await import('@sparticuz/chromium');
  const lock = path.join(
    (await import('node:os')).tmpdir(),
    `taskdesk-chromium-unpack-${process.getuid?.() ?? 'user'}.lock`
  );
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock left by a process that died while unpacking is stale after two minutes.
      if (Date.now() - fs.statSync(lock).mtimeMs > 120_000) fs.rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await npmChromium.executablePath();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
