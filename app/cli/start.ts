/**
 * `npm start`: the Electron app when Electron's binary is there (or can be downloaded), and
 * otherwise browser mode, said in one line, so that the README's run command works on every
 * machine, offline ones included.
 *
 *   node build/app/cli/start.js [browser mode's options, used when it falls back]
 *
 * The `electron` npm package downloads its binary on first use; where that cannot happen it
 * throws a stack trace advising to delete node_modules/electron, which says nothing of the
 * browser mode that would have worked.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from './package-root.js';

/** Where Electron's npm package is (tests point this at a package of their own). */
const ELECTRON_PACKAGE_ENV = 'TASKDESK_ELECTRON_PACKAGE';

/** Whether the Electron package in `dir` has its binary, downloading it first if needed. */
function ensureElectronBinary(dir: string): { ok: true } | { ok: false; reason: string } {
  if (installed(dir)) return { ok: true };
  const install = path.join(dir, 'install.js');
  if (!fs.existsSync(install)) return { ok: false, reason: `no Electron package in ${dir}` };
  console.log("Downloading Electron's binary (once)...");
  const result = spawnSync(process.execPath, [install], { cwd: dir, encoding: 'utf8', timeout: 10 * 60_000 });
  if (result.status === 0 && installed(dir)) return { ok: true };
  return { ok: false, reason: firstErrorLine(`${result.stderr ?? ''}\n${result.stdout ?? ''}`, result.error) };
}

function installed(dir: string): boolean {
  try {
    const relative = fs.readFileSync(path.join(dir, 'path.txt'), 'utf8').trim();
    return relative !== '' && fs.existsSync(path.join(dir, 'dist', relative));
  } catch {
    return false;
  }
}

/** The one line of a failed download worth showing ("TypeError: fetch failed"), not its stack. */
function firstErrorLine(output: string, error: Error | undefined): string {
  if (error) return error.message;
  const line = output
    .split('\n')
    .map((text) => text.trim())
    .find((text) => text !== '' && !text.startsWith('at '));
  return line ?? 'the download failed';
}

async function main(): Promise<void> {
  const root = packageRoot();
  const electronDir = process.env[ELECTRON_PACKAGE_ENV] ?? path.join(root, 'node_modules', 'electron');
  const electron = ensureElectronBinary(electronDir);
  if (electron.ok) {
    const forge = path.join(
      root,
      'node_modules',
      '.bin',
      process.platform === 'win32' ? 'electron-forge.cmd' : 'electron-forge'
    );
    // Windows runs the .cmd shim through its shell, which splits an unquoted path at its spaces.
    const windows = process.platform === 'win32';
    const child = spawn(windows ? `"${forge}"` : forge, ['start'], { cwd: root, stdio: 'inherit', shell: windows });
    child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
    return;
  }
  console.log(
    `Electron's binary could not be downloaded (${electron.reason}): starting Taskdesk in browser mode instead; open the address below.`
  );
  await import('./browser-mode.js');
}

await main();
