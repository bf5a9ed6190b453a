/**
 * `npm run start:browser`: builds the renderer only when its sources changed since the last build
 * made here, then starts browser mode (which runs from source under tsx, so it needs no `tsc`).
 *
 *   node --import tsx app/cli/start-browser.ts [browser mode's options]
 *
 * A restart with nothing changed skips the build and prints its address sooner. The options are
 * read first: `--help`, or one it does not know, answers without building; with `--renderer-dir`
 * nothing is built.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { readBrowserModeArgs } from './browser-mode-args.js';
import { builtRendererDir, packageRoot } from './package-root.js';

/**
 * A fingerprint of what the renderer bundle is made from (its sources, the contract it imports,
 * the Vite config, the installed packages) and of the bundle itself, so that a bundle written by
 * anything else since (`npm run build` of other sources) is not taken for ours.
 */
function rendererFingerprint(root: string): string | undefined {
  const hash = createHash('sha256');
  for (const dir of ['renderer', 'app/contract']) {
    for (const file of fs.readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).sort()) {
      const full = path.join(root, dir, file);
      if (fs.statSync(full).isFile()) hash.update(`${dir}/${file}\0`).update(fs.readFileSync(full)).update('\0');
    }
  }
  for (const file of ['vite.config.ts', 'package-lock.json', 'node_modules/.package-lock.json']) {
    const full = path.join(root, file);
    if (fs.existsSync(full)) hash.update(`${file}\0`).update(fs.readFileSync(full)).update('\0');
  }
  const out = builtRendererDir(root);
  for (const file of ['index.html', 'main.js']) {
    const full = path.join(out, file);
    if (!fs.existsSync(full)) return undefined;
    const stat = fs.statSync(full);
    hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\0`);
  }
  return hash.digest('hex');
}

function buildRendererIfChanged(root: string): void {
  // Outside build/renderer, which Vite empties on every build.
  const stamp = path.join(root, 'build', 'renderer.stamp');
  const before = rendererFingerprint(root);
  let saved: string | undefined;
  try {
    saved = fs.readFileSync(stamp, 'utf8');
  } catch {
    // Never built here: build below.
  }
  if (before !== undefined && before === saved) return;
  // Vite's package exports no bin path: find it from its manifest, as npm does.
  const manifest = createRequire(path.join(root, 'package.json')).resolve('vite/package.json');
  const { bin } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { bin: { vite: string } };
  const vite = path.join(path.dirname(manifest), bin.vite);
  const result = spawnSync(process.execPath, [vite, 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    fs.rmSync(stamp, { force: true });
    console.error('The renderer did not build (see above).');
    process.exit(1);
  }
  const after = rendererFingerprint(root);
  if (after !== undefined) fs.writeFileSync(stamp, after);
}

// `--help` and a mistyped option answer before the build, which can take a while. A Desk built
// elsewhere (`--renderer-dir`) is served as it is: the project's own build is not needed.
if (readBrowserModeArgs(process.argv.slice(2))['renderer-dir'] === undefined) buildRendererIfChanged(packageRoot());
await import('./browser-mode.js');
