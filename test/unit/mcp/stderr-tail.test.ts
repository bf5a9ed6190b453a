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
    assert.equal(lines.summary(), 'line 298 | line 299 | line 300');
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

describe('the stderr a failure reason quotes', () => {
  const summary = (text: string) => {
    const tail = new StderrTail();
    tail.append(text);
    return tail.summary();
  };

  it('is the line that names the error: Node, Python (an exception group too), a CLI', () => {
    assert.equal(
      summary(
        "[eval]:1\nthrow new Error('x')\n^\n\nError [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod'\n    at [eval]:1:7 {\n  code: 'ERR_MODULE_NOT_FOUND'\n}\n\nNode.js v20.20.2\n"
      ),
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod'"
    );
    assert.equal(
      summary(
        'Traceback (most recent call last):\n  File "server.py", line 3, in <module>\n    import mcp\nModuleNotFoundError: No module named \'mcp\'\n'
      ),
      "ModuleNotFoundError: No module named 'mcp'"
    );
    assert.equal(
      summary(
        '  + Exception Group Traceback (most recent call last):\n  | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)\n  +-+---------------- 1 ----------------\n    | Traceback (most recent call last):\n    | httpx.ConnectError: All connection attempts failed\n    +------------------------------------\n'
      ),
      'httpx.ConnectError: All connection attempts failed'
    );
    assert.equal(
      summary('usage: server.py [-h] --token TOKEN\nserver.py: error: the following arguments are required: --token\n'),
      'server.py: error: the following arguments are required: --token'
    );
  });

  it('is otherwise the last lines that say something, without braces, blank lines or Node’s version', () => {
    assert.equal(summary('listening\nconfig missing\n}\n\nNode.js v22.1.0\n'), 'listening | config missing');
    assert.equal(summary('a\nb\nc\nd\n'), 'b | c | d');
    assert.equal(summary('\n\n'), '');
    assert.equal(summary(`${'y'.repeat(1000)}\n`).length, 300);
  });
});
