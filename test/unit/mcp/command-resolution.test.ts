import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveCommand } from '../../../app/mcp/command-resolution.js';
import { tempDir } from '../../support/host-fixture.js';

describe('a command line typed whole into Command', { skip: process.platform === 'win32' }, () => {
  it('is named as typed, not as a path of the working folder, and the arguments are sent to Arguments', () => {
    const dir = tempDir('taskdesk-cwd-');
    try {
      // The slash of a scoped package makes it look like a relative path.
      const scoped = resolveCommand('npx -y @modelcontextprotocol/server-everything', { PATH: '', cwd: dir.dir });
      assert.equal(
        scoped.found ? '' : scoped.message,
        'The command "npx -y @modelcontextprotocol/server-everything" was not found. If that is a command followed by its arguments, put the command alone in Command and each argument on its own line in Arguments.'
      );
      assert.ok(!scoped.found && !scoped.message.includes(dir.dir));
      const bare = resolveCommand('uvx mcp-server-git', { PATH: '/nonexistent' });
      assert.equal(
        bare.found ? '' : bare.message,
        `The command "uvx mcp-server-git" was not found in the 1 directory of the PATH (your login shell's, then Taskdesk's own): /nonexistent. If that is a command followed by its arguments, put the command alone in Command and each argument on its own line in Arguments.`
      );
      // A path, with no space, is still said in full: where it was looked for.
      const path = resolveCommand('./bin/server', { PATH: '', cwd: dir.dir });
      assert.equal(
        path.found ? '' : path.message,
        `The command ${dir.dir}/bin/server does not exist or cannot be run (it is not an executable file).`
      );
    } finally {
      dir.remove();
    }
  });
});

describe('a server address typed into Command', () => {
  it('is said to be an address to add as a Streamable HTTP server, not made into a path of the working folder', () => {
    const dir = tempDir('taskdesk-cwd-');
    try {
      for (const platform of ['linux', 'win32'] as const) {
        const url = resolveCommand('http://127.0.0.1:58888/mcp', { PATH: '/nonexistent', cwd: dir.dir, platform });
        assert.deepEqual(url, {
          found: false,
          searched: [],
          message: 'http://127.0.0.1:58888/mcp is an address, not a command: add it as a Streamable HTTP server.'
        });
      }
      // Its credentials are not repeated in the reason.
      const secret = resolveCommand(' https://user:pw@mcp.example.com/mcp?token=abc123 ', { PATH: '', cwd: dir.dir });
      assert.equal(
        secret.found ? '' : secret.message,
        'https://[redacted]@mcp.example.com/mcp?token=[redacted] is an address, not a command: add it as a Streamable HTTP server.'
      );
      // A command whose name only starts like one is still looked for.
      const named = resolveCommand('http-server', { PATH: '/nonexistent' });
      assert.match(named.found ? '' : named.message, /^The command "http-server" was not found in the 1 directory/);
    } finally {
      dir.remove();
    }
  });
});
