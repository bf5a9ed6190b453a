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
