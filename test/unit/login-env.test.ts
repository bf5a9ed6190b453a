import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loginShellEnv, resolveLoginEnvironmentOnce } from '../../app/mcp/login-env.js';
import { tempDir } from '../support/host-fixture.js';

/** A fake login shell (run as `shell -ilc <command>`): `body` runs first, then the command. */
function fakeShell(dir: string, name: string, body: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\nexec /bin/sh -c "$2"\n`, { mode: 0o755 });
  return file;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the login shell environment', { skip: process.platform === 'win32' }, () => {
  it('reads what the login shell exports, leaving out what its dotfiles print', async () => {
    const dir = tempDir();
    try {
      const shell = fakeShell(
        dir.dir,
        'chatty',
        'echo "Welcome back"; TASKDESK_LOGIN_X="a=b c"; export TASKDESK_LOGIN_X'
      );
      const found = await resolveLoginEnvironmentOnce(loginShellEnv(shell), 20_000)();
      assert.equal(found.warning, undefined);
      assert.equal(found.env.TASKDESK_LOGIN_X, 'a=b c');
      assert.ok(!Object.keys(found.env).some((key) => key.includes('Welcome')));
    } finally {
      dir.remove();
    }
  });

  it('stops a login shell that hangs, and what it started, once the time limit runs out', async () => {
    const dir = tempDir();
    try {
      const pidFile = path.join(dir.dir, 'pids');
      // Its dotfiles start a child and wait on it (as `pyenv rehash` waits on a stale lock).
      const shell = fakeShell(dir.dir, 'hangs', `sleep 600 & echo "$$ $!" > "${pidFile}"; wait`);
      const found = await resolveLoginEnvironmentOnce(loginShellEnv(shell), 300)();
      assert.match(found.warning ?? '', /did not answer within 300 ms/);
      assert.equal(found.env.PATH, process.env.PATH, "Taskdesk's own environment stands in");
      const pids = fs.readFileSync(pidFile, 'utf8').trim().split(' ').map(Number);
      assert.equal(pids.length, 2);
      // The kill is sent as the limit runs out; wait for both to be reaped by the system.
      for (const pid of pids) {
        await new Promise<void>((resolve) => {
          const check = () => (alive(pid) ? setImmediate(check) : resolve());
          check();
        });
      }
    } finally {
      dir.remove();
    }
  });

  it('says why when the login shell ends without printing its environment', async () => {
    const dir = tempDir();
    try {
      const shell = path.join(dir.dir, 'broken');
      fs.writeFileSync(shell, '#!/bin/sh\nexit 3\n', { mode: 0o755 });
      const found = await resolveLoginEnvironmentOnce(loginShellEnv(shell), 20_000)();
      assert.match(found.warning ?? '', /could not be read: .*ended \(code 3\) before it printed its environment/);
    } finally {
      dir.remove();
    }
  });
});
