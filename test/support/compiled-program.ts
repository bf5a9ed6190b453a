/**
 * Test programs (servers, clients, churners) run as plain JavaScript, compiled once rather than
 * at every start of a child process.
 *
 * `node --import tsx <program>.ts` loads tsx's hooks and passes every module of the program
 * through them at each start: about half a second of CPU for a server of a few modules, a
 * second for one that loads the host core. Tests that start a program dozens of times (a server
 * per connect, a client per conformance scenario) spent most of their time there. Here every
 * `.ts` module of `app/` and `test/support/` is transpiled by esbuild (what tsx runs them through
 * too), module for module, into a tree beside the checkout's `node_modules`; a program is started
 * with `node <tree>/test/support/<program>.js`. Each module keeps its own file, so what a module
 * finds relative to itself (`import.meta.url`: the document writer's worker, a program's "am I
 * the entry point" check) is found as under tsx, or as in the built app (`build/app`).
 *
 * The tree is named after a hash of its sources, built once for a set of sources (by whichever
 * test process asks first, into a temporary directory renamed into place), and shared by the test
 * processes that run at once. Stack traces name the compiled files: run the program with
 * `--enable-source-maps` to see TypeScript lines.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, version as esbuildVersion } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** The folders whose modules a compiled program may import (packages come from `node_modules`, as they are). */
const SOURCE_DIRS = ['app', path.join('test', 'support')];
/** The TypeScript settings esbuild reads for those modules. */
const TSCONFIGS = ['tsconfig.base.json', path.join('app', 'tsconfig.json'), path.join('test', 'tsconfig.json')];
/** Trees no test process started with for this long are removed when a tree of other sources is built. */
const STALE_MS = 60 * 60_000;

let tree: string | undefined;

/**
 * The compiled JavaScript of `program` (a `.ts` file under `test/support/` or `app/`), to run as
 * `node <path> <args>` where `node --import tsx <program> <args>` ran it.
 */
export function compiledProgram(program: string): string {
  const relative = path.relative(root, path.resolve(program));
  if (!SOURCE_DIRS.some((dir) => relative.startsWith(`${dir}${path.sep}`)) || !relative.endsWith('.ts'))
    throw new Error(`${program} is not a TypeScript module under ${SOURCE_DIRS.join(' or ')}`);
  const compiled = path.join((tree ??= compiledTree()), relative.replace(/\.ts$/, '.js'));
  if (!fs.existsSync(compiled)) throw new Error(`${program} was not compiled (no ${compiled})`);
  // Its real path: Node runs a program from there (its `import.meta.url`), and a program that
  // checks whether it is the entry point compares that with the path it was started by, which a
  // `node_modules` linked from elsewhere would make differ.
  return fs.realpathSync(compiled);
}

/** The tree of the current sources, built if no test process has built it yet. */
function compiledTree(): string {
  const cache = path.join(root, 'node_modules', '.cache', 'taskdesk-test-programs');
  for (;;) {
    const { sources, key } = currentSources();
    const dir = path.join(cache, key);
    if (fs.existsSync(path.join(dir, 'package.json'))) {
      // Marked as in use, so that a test process building a tree of other sources leaves it alone.
      const now = new Date();
      fs.utimesSync(dir, now, now);
      return dir;
    }
    fs.mkdirSync(cache, { recursive: true });
    const building = fs.mkdtempSync(`${dir}-building-`);
    try {
      buildSync({
        absWorkingDir: root,
        entryPoints: sources,
        outbase: root,
        outdir: building,
        platform: 'node',
        format: 'esm',
        target: `node${process.versions.node}`,
        sourcemap: 'linked',
        logLevel: 'error'
      });
      // Under node_modules, no package.json of the checkout applies: these are ES modules all the same.
      fs.writeFileSync(path.join(building, 'package.json'), '{ "type": "module" }\n');
    } catch (error) {
      fs.rmSync(building, { recursive: true, force: true });
      throw error;
    }
    // A source edited while it was compiled: this tree is not that of `key`; compile again.
    if (currentSources().key !== key) {
      fs.rmSync(building, { recursive: true, force: true });
      continue;
    }
    try {
      fs.renameSync(building, dir);
    } catch (error) {
      fs.rmSync(building, { recursive: true, force: true });
      // Another test process built the same sources first: its tree serves.
      if (!fs.existsSync(path.join(dir, 'package.json'))) throw error;
    }
    removeStaleTrees(cache, dir);
    return dir;
  }
}

/** The modules to compile, and a key for them as they are now (their text, the compiler settings, this Node). */
function currentSources(): { sources: string[]; key: string } {
  const sources = SOURCE_DIRS.flatMap((dir) =>
    fs.globSync(`${dir}/**/*.ts`, { cwd: root }).filter((file) => !file.endsWith('.d.ts'))
  ).sort();
  const hash = createHash('sha256').update(`esbuild ${esbuildVersion}, node ${process.versions.node}\n`);
  for (const file of [...TSCONFIGS, ...sources])
    hash
      .update(`${file}\n`)
      .update(fs.readFileSync(path.join(root, file)))
      .update('\n');
  return { sources, key: hash.digest('hex').slice(0, 16) };
}

/** Removes the trees (and abandoned builds) that no test process started with for {@link STALE_MS}. */
function removeStaleTrees(cache: string, current: string): void {
  for (const name of fs.readdirSync(cache)) {
    const other = path.join(cache, name);
    if (other === current || other.startsWith(`${current}-building-`)) continue;
    try {
      if (Date.now() - fs.statSync(other).mtimeMs > STALE_MS) fs.rmSync(other, { recursive: true, force: true });
    } catch {
      // Removed by another test process meanwhile.
    }
  }
}
