import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { StderrTail } from '../../../app/mcp/stderr-tail.js';
import { mergePaths, resolveCommand } from '../../../app/mcp/command-resolution.js';
import { tempDir } from '../../support/host-fixture.js';

describe('a server’s stderr tail', () => {
  it('keeps at most 64 KiB and 200 lines, newest last, and says it dropped some', () => {
    const tail = new StderrTail();
    tail.append('first\n');
    assert.deepEqual([tail.text, tail.truncated], ['first\n', false]);
    const long = 'x'.repeat(1000);
    for (let index = 0; index < 100; index++) tail.append(`${index} ${long}\n`);
    assert.ok(Buffer.byteLength(tail.text) <= 64 * 1024);
    assert.ok(tail.text.endsWith(`99 ${long}\n`));
    assert.equal(tail.truncated, true);
    const lines = new StderrTail();
    for (let index = 1; index <= 300; index++) lines.append(`line ${index}\n`);
    const kept = lines.text.trim().split('\n');
    assert.deepEqual([kept.length, kept[0], kept.at(-1)], [200, 'line 101', 'line 300']);
    assert.equal(lines.last(2), 'line 299 | line 300');
  });
});

describe('finding a command', { skip: process.platform === 'win32' }, () => {
  it('finds an executable on PATH, names the directories searched when it is not there', () => {
    const dir = tempDir('taskdesk-bin-');
    try {
      const tool = path.join(dir.dir, 'tool');
      fs.writeFileSync(tool, '#!/bin/sh\n', { mode: 0o755 });
      fs.writeFileSync(path.join(dir.dir, 'not-executable'), '', { mode: 0o644 });
      assert.deepEqual(resolveCommand('tool', { PATH: `/nonexistent:${dir.dir}` }), { found: true, executable: tool });
      const missing = resolveCommand('not-executable', { PATH: `/nonexistent:${dir.dir}` });
      assert.equal(missing.found, false);
      assert.equal(
        missing.found ? '' : missing.message,
        `The command "not-executable" was not found in the 2 directories of the PATH (your login shell's, then Taskdesk's own): /nonexistent, ${dir.dir}. Install it, or give its full path.`
      );
      assert.deepEqual(resolveCommand('./tool', { PATH: '', cwd: dir.dir }), { found: true, executable: tool });
      assert.match(
        (resolveCommand('./nope', { PATH: '', cwd: dir.dir }) as { message: string }).message,
        /does not exist/
      );
      assert.equal(mergePaths('/login/bin:/usr/bin', '/usr/bin:/bin', 'linux'), '/login/bin:/usr/bin:/bin');
    } finally {
      dir.remove();
    }
  });
});
