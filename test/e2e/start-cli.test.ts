import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tempDir } from '../support/host-fixture.js';
import { buildRenderer, root } from './renderer-build.js';

/** Everything a child printed, and a promise of the first stdout match (rejected if it exits first). */
function watch(child: ChildProcess, pattern: RegExp): { output: () => string; match: Promise<RegExpMatchArray> } {
  let stdout = '';
  let stderr = '';
  const match = new Promise<RegExpMatchArray>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const found = stdout.match(pattern);
      if (found) resolve(found);
    });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${stdout}\n${stderr}`)));
  });
  return { output: () => `${stdout}${stderr}`, match };
}

describe('npm start on a machine where Electron cannot be downloaded', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  const dirs: Array<{ remove: () => void }> = [];
  const children: ChildProcess[] = [];

  before(async () => {
    built = await buildRenderer();
  });
  after(async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    }
    for (const dir of dirs) dir.remove();
    built.remove();
  });

  it('says so in one line and starts browser mode, whose address serves the Desk', async () => {
    // An Electron package without its binary whose download fails, as @electron/get fails offline.
    const electron = tempDir('fake-electron-');
    const data = tempDir('start-data-');
    dirs.push(electron, data);
    fs.writeFileSync(
      path.join(electron.dir, 'install.js'),
      "console.error('TypeError: fetch failed\\n    at node:internal/deps/undici/undici:15270:13'); process.exit(1);\n"
    );
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(root, 'app/cli/start.ts'),
        '--port',
        '0',
        '--data-dir',
        data.dir,
        '--renderer-dir',
        built.dir,
        '--no-demo'
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TASKDESK_ELECTRON_PACKAGE: electron.dir } }
    );
    children.push(child);
    const watched = watch(child, /Open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/);
    const url = (await watched.match)[1]!;

    const lines = watched.output().split('\n');
    const notice = lines.filter((line) => line.includes('browser mode'));
    assert.deepEqual(notice, [
      "Electron's binary could not be downloaded (TypeError: fetch failed): starting Taskdesk in browser mode instead; open the address below."
    ]);
    assert.ok(!lines.some((line) => /^\s+at /.test(line)), 'no stack trace is printed');
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<html/i);
  });
});
