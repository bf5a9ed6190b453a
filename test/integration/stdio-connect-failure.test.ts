import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHost } from '../../app/host/host.js';
import { tempDir } from '../support/host-fixture.js';

/** The failure reason of connecting to a stdio server started as `command args`. */
async function reasonOf(command: string, args: string[]): Promise<string | undefined> {
  const data = tempDir();
  const host = createHost({
    dataDir: data.dir,
    autoConnect: false,
    loginEnv: async () => ({ ...process.env }),
    servers: [{ id: 'crash', name: 'Crash', transport: { type: 'stdio', command, args } }]
  });
  try {
    const view = await host.connect('crash');
    assert.equal(view.state.status, 'failed');
    return view.state.reason;
  } finally {
    await host.close();
    data.remove();
  }
}

describe('a stdio server that crashes at start', () => {
  it('quotes the line of its stderr that says what went wrong, not the last lines (Node)', async () => {
    assert.equal(
      await reasonOf(process.execPath, ['-e', "throw new Error('boom: missing API key')"]),
      'Could not connect: The server exited with code 1 before it answered (stderr: Error: boom: missing API key)'
    );
    // An error printed with its own properties ends in a lone brace and Node's version.
    assert.equal(
      await reasonOf(process.execPath, [
        '-e',
        "throw Object.assign(new TypeError('Cannot read the config'), { code: 'E_CONFIG', path: '/etc/x' })"
      ]),
      'Could not connect: The server exited with code 1 before it answered (stderr: TypeError: Cannot read the config)'
    );
  });

  it('quotes the last line of a Python traceback', async () => {
    // What a Python server that fails at start writes, replayed by Node so that the test needs no Python.
    const traceback = [
      'Traceback (most recent call last):',
      '  File "<string>", line 4, in <module>',
      '  File "<string>", line 3, in main',
      '  File "<frozen os>", line 679, in __getitem__',
      "KeyError: 'WEATHER_API_KEY'"
    ].join('\n');
    assert.equal(
      await reasonOf(process.execPath, [
        '-e',
        `process.stderr.write(${JSON.stringify(traceback + '\n')}); process.exit(1)`
      ]),
      `Could not connect: The server exited with code 1 before it answered (stderr: KeyError: 'WEATHER_API_KEY')`
    );
  });

  /** The reason of a server whose command writes `stderr` and exits with code 1, replayed by Node. */
  const replayed = (stderr: string) =>
    reasonOf(process.execPath, ['-e', `process.stderr.write(${JSON.stringify(stderr)}); process.exit(1)`]);

  it('quotes what npm says went wrong, not its advice or the path of its log (npx of a missing package)', async () => {
    // npm 10's own words for `npx -y @modelcontextprotocol/server-doesnotexist-zz`, so that the test needs no network.
    const npm10 = [
      'npm error code E404',
      'npm error 404 Not Found - GET https://registry.npmjs.org/@modelcontextprotocol%2fserver-doesnotexist-zz - Not found',
      'npm error 404',
      "npm error 404  '@modelcontextprotocol/server-doesnotexist-zz@*' is not in this registry.",
      'npm error 404',
      'npm error 404 Note that you can also install from a',
      'npm error 404 tarball, folder, http url, or git url.',
      'npm error A complete log of this run can be found in: /root/.npm/_logs/2026-12-04T03_30_00_000Z-debug-0.log',
      ''
    ].join('\n');
    assert.equal(
      await replayed(npm10),
      'Could not connect: The server exited with code 1 before it answered (stderr: npm error 404 Not Found - GET https://registry.npmjs.org/@modelcontextprotocol%2fserver-doesnotexist-zz - Not found)'
    );
    // npm before 9 says `npm ERR!`, and leaves a blank line before the path of its log.
    const npm8 = [
      'npm ERR! code E404',
      'npm ERR! 404 Not Found - GET https://registry.npmjs.org/server-doesnotexist-zz - Not found',
      'npm ERR! 404 ',
      "npm ERR! 404  'server-doesnotexist-zz@*' is not in this registry.",
      'npm ERR! 404 Note that you can also install from a',
      'npm ERR! 404 tarball, folder, http url, or git url.',
      '',
      'npm ERR! A complete log of this run can be found in:',
      'npm ERR!     /root/.npm/_logs/2024-01-01T00_00_00_000Z-debug-0.log',
      ''
    ].join('\n');
    assert.equal(
      await replayed(npm8),
      'Could not connect: The server exited with code 1 before it answered (stderr: npm ERR! 404 Not Found - GET https://registry.npmjs.org/server-doesnotexist-zz - Not found)'
    );
  });

  it('quotes what uvx and docker say went wrong, with the lines that go on with it', async () => {
    // uv 0.9's words for `uvx mcp-server-doesnotexist-zz` (wrapped, as it wraps them), and docker's for a missing image.
    const uv = [
      '  × No solution found when resolving tool dependencies:',
      '  ╰─▶ Because mcp-server-doesnotexist-zz was not found in the package registry and you require',
      '      mcp-server-doesnotexist-zz, we can conclude that your requirements are unsatisfiable.',
      ''
    ].join('\n');
    assert.equal(
      await replayed(uv),
      'Could not connect: The server exited with code 1 before it answered (stderr: No solution found when resolving tool dependencies: Because mcp-server-doesnotexist-zz was not found in the package registry and you require mcp-server-doesnotexist-zz, we can conclude that your requirements are unsatisfiable.)'
    );
    assert.equal(
      await replayed(
        'error: Failed to spawn: `mcp-server-doesnotexist-zz`\n  Caused by: No such file or directory (os error 2)\n'
      ),
      'Could not connect: The server exited with code 1 before it answered (stderr: error: Failed to spawn: `mcp-server-doesnotexist-zz` | Caused by: No such file or directory (os error 2))'
    );
    const docker = [
      "Unable to find image 'mcp/doesnotexist-zz:latest' locally",
      "docker: Error response from daemon: pull access denied for mcp/doesnotexist-zz, repository does not exist or may require 'docker login'",
      '',
      "Run 'docker run --help' for more information",
      ''
    ].join('\n');
    assert.equal(
      await replayed(docker),
      "Could not connect: The server exited with code 1 before it answered (stderr: docker: Error response from daemon: pull access denied for mcp/doesnotexist-zz, repository does not exist or may require 'docker login')"
    );
  });

  it('quotes the last lines that say something when no line names an error', async () => {
    assert.equal(
      await reasonOf(process.execPath, [
        '-e',
        'console.error("starting weather server"); console.error("no config found in ~/.weather"); console.error("}"); console.error(""); process.exit(2)'
      ]),
      'Could not connect: The server exited with code 2 before it answered (stderr: starting weather server | no config found in ~/.weather)'
    );
  });
});
