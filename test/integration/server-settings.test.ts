import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { HostEvents, type HostEvent } from '../../app/contract/host-api.js';
import type { ServerSettings } from '../../app/contract/server-settings.js';
import { HostError } from '../../app/core/errors.js';
import { createHost, type Host } from '../../app/host/host.js';
import { loginShellEnv } from '../../app/mcp/login-env.js';
import { nextEvent, tempDir, filesUnder } from '../support/host-fixture.js';
import { root } from '../e2e/renderer-build.js';
import { stderrContaining } from '../support/stderr-wait.js';
import { ManualClock } from '../support/manual-clock.js';

const ECHO = path.join(root, 'test/support/env-echo-server.ts');
/** tsx by URL: a server started in another working directory still finds it. */
const TSX = import.meta.resolve('tsx');
/** Every secret below has this in it, so that one search finds any of them. */
const MARK = 'SeCrEt';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** Everything the host sends a window: every event, recorded as JSON. */
function recordEvents(host: Host): string[] {
  const seen: string[] = [];
  for (const name of Object.keys(HostEvents) as HostEvent[])
    host.on(name, (payload) => seen.push(JSON.stringify(payload)));
  return seen;
}

async function envOf(
  host: Host,
  serverId: string
): Promise<{ greeting: string | null; tokenSha256: string | null; cwd: string; args: string[] }> {
  const outcome = await host.call('tools.call', { serverId, name: 'env', arguments: {} });
  assert.equal(outcome.type, 'result');
  const content = (outcome.type === 'result' ? outcome.result.content : []) as Array<{ text: string }>;
  return JSON.parse(content[0]!.text) as never;
}

describe('editing a server, with its secrets in the key store', { skip: process.platform === 'win32' }, () => {
  it('edits every field, reconnects, and keeps secrets out of answers, events, the audit log and the settings file', async () => {
    const data = tempDir();
    const cwd = tempDir('taskdesk-cwd-');
    // The default key store: the 0600 key file in the data directory.
    const host = createHost({ dataDir: data.dir, autoConnect: false, loginEnv: async () => ({ ...process.env }) });
    const seen = recordEvents(host);
    const answers: string[] = [];
    const call: Host['call'] = async (method, params) => {
      const result = await host.call(method, params);
      answers.push(JSON.stringify(result));
      return result;
    };
    try {
      await call('servers.add', {
        id: 'echo',
        name: 'Echo',
        autoConnect: true,
        transport: {
          type: 'stdio',
          command: process.execPath,
          args: ['--import', TSX, ECHO],
          env: { GREETING: 'hello', API_TOKEN: `first-${MARK}-1` }
        },
        secrets: { env: ['API_TOKEN'], headers: [] }
      });
      await call('servers.add', {
        id: 'web',
        name: 'Web',
        autoConnect: false,
        transport: {
          type: 'http',
          url: 'http://127.0.0.1:9/mcp',
          headers: { Authorization: `Bearer hdr-${MARK}-2`, 'X-Api-Key': `key-${MARK}-3`, 'X-Plain': 'visible' }
        },
        secrets: { env: [], headers: ['X-Api-Key'] }
      });
      const connected = await call('servers.connect', { serverId: 'echo' });
      assert.equal(connected.state.status, 'ready', connected.state.reason);
      assert.deepEqual(await envOf(host, 'echo'), {
        greeting: 'hello',
        tokenSha256: sha(`first-${MARK}-1`),
        cwd: process.cwd(),
        args: []
      });

      // The Edit form's view: secrets by name only.
      const echo = await call('servers.get', { serverId: 'echo' });
      assert.deepEqual(echo.transport.type === 'stdio' && echo.transport.env, [
        { name: 'GREETING', value: 'hello', secret: false },
        { name: 'API_TOKEN', secret: true }
      ]);
      const web = await call('servers.get', { serverId: 'web' });
      // In the order they were given, secrets among the others.
      assert.deepEqual(web.transport.type === 'http' && web.transport.headers, [
        { name: 'Authorization', secret: true },
        { name: 'X-Api-Key', secret: true },
        { name: 'X-Plain', value: 'visible', secret: false }
      ]);

      // Every field changes; the secret is replaced; the server reconnects with them.
      const reconnected = nextEvent(
        host,
        'server.state',
        (event) => event.serverId === 'echo' && event.state.status === 'ready'
      );
      const updated = await call('servers.update', {
        serverId: 'echo',
        settings: {
          name: 'Echo renamed',
          autoConnect: false,
          protocol: '2025-11-25',
          transport: {
            type: 'stdio',
            command: process.execPath,
            args: ['--import', TSX, ECHO, '--flag'],
            cwd: cwd.dir,
            env: [
              { name: 'GREETING', value: 'bonjour', secret: false },
              { name: 'API_TOKEN', value: `second-${MARK}-4`, secret: true }
            ]
          }
        }
      });
      assert.equal(updated.settings.name, 'Echo renamed');
      assert.equal(updated.settings.protocol, '2025-11-25');
      assert.equal(updated.settings.autoConnect, false);
      await reconnected;
      const after = await envOf(host, 'echo');
      assert.equal(after.greeting, 'bonjour');
      assert.equal(after.tokenSha256, sha(`second-${MARK}-4`));
      assert.equal(fs.realpathSync(after.cwd), fs.realpathSync(cwd.dir));
      assert.deepEqual(after.args, ['--flag']);
      const view = (await call('servers.list', {})).find((server) => server.id === 'echo')!;
      assert.equal(view.name, 'Echo renamed');
      assert.equal(view.protocol, '2025-11-25');

      // A secret kept without its value, one removed, one made plain; the stderr quoting the token is redacted.
      const stderr = await stderrContaining(host, 'echo', 'env-echo started with token');
      assert.match(stderr.text, /env-echo started with token \[redacted\]/);
      await call('servers.update', {
        serverId: 'web',
        settings: {
          name: 'Web',
          autoConnect: false,
          protocol: 'auto',
          transport: {
            type: 'http',
            url: 'http://127.0.0.1:9/other',
            headers: [
              { name: 'Authorization', secret: true },
              { name: 'X-Plain', value: 'still visible', secret: false }
            ]
          }
        }
      });
      const web2 = await call('servers.get', { serverId: 'web' });
      assert.deepEqual(web2.transport.type === 'http' && web2.transport.headers, [
        { name: 'Authorization', secret: true },
        { name: 'X-Plain', value: 'still visible', secret: false }
      ]);
      // A secret without a value that was never stored is refused, and nothing changes.
      await assert.rejects(
        call('servers.update', {
          serverId: 'web',
          settings: {
            name: 'Web',
            autoConnect: false,
            protocol: 'auto',
            transport: { type: 'http', url: 'http://127.0.0.1:9/other', headers: [{ name: 'X-New', secret: true }] }
          }
        }),
        /Enter a value for the secret X-New/
      );
      // The Authorization header still reaches the server: its reason is redacted by it.
      const failed = await call('servers.connect', { serverId: 'web' });
      assert.equal(failed.state.status, 'failed');
      await call('audit.read', { limit: 5000 });
    } finally {
      await host.close();
    }
    const keyFile = path.join(data.dir, 'secrets', 'provider-keys.json');
    const keys = fs.readFileSync(keyFile, 'utf8');
    assert.ok(keys.includes(`second-${MARK}-4`) && keys.includes(`hdr-${MARK}-2`), 'the key file holds the secrets');
    assert.ok(!keys.includes(`first-${MARK}-1`), 'a replaced secret is gone');
    assert.ok(!keys.includes(`key-${MARK}-3`), 'a removed secret is gone');
    assert.equal(fs.statSync(keyFile).mode & 0o777, 0o600);
    for (const [what, text] of [
      ['answers', answers.join('\n')],
      ['events', seen.join('\n')]
    ] as const)
      assert.ok(
        !text.includes(MARK),
        `${what} hold no secret: ${text.slice(text.indexOf(MARK) - 80, text.indexOf(MARK) + 20)}`
      );
    // Grep the whole data directory: only the key file holds a secret.
    for (const file of filesUnder(data.dir).filter((file) => file !== keyFile))
      assert.ok(!fs.readFileSync(file, 'utf8').includes(MARK), `${path.relative(data.dir, file)} holds no secret`);
    data.remove();
    cwd.remove();
  });
});

describe('adding a server under an id in use', () => {
  it('refuses it, naming the server that has the id, on the Id field (`data.fields.id`); nothing changes', async () => {
    const data = tempDir();
    const host = createHost({ dataDir: data.dir, autoConnect: false, loginEnv: async () => ({ ...process.env }) });
    try {
      const first = { id: 'same', name: 'First', transport: { type: 'stdio' as const, command: 'node', args: [] } };
      await host.call('servers.add', first);
      await assert.rejects(host.call('servers.add', { ...first, name: 'Second' }), (error: unknown) => {
        assert.ok(error instanceof HostError);
        assert.equal(error.code, -32602);
        const message = 'Id already used by First: choose another, or edit that server.';
        assert.equal(error.message, message);
        assert.deepEqual(error.data, { fields: { id: message } });
        return true;
      });
      assert.deepEqual(
        (await host.call('servers.list', {})).map((view) => [view.id, view.name]),
        [['same', 'First']]
      );
    } finally {
      await host.close();
      data.remove();
    }
  });
});

describe('when a server was added', () => {
  it('is dated by Taskdesk as it is added (a date given is not taken), kept through an edit and a restart', async () => {
    const data = tempDir();
    const clock = new ManualClock(Date.UTC(2026, 11, 4, 9, 30));
    const open = () => createHost({ dataDir: data.dir, autoConnect: false, clock });
    let host = open();
    try {
      const added = await host.call('servers.add', {
        id: 'dated',
        name: 'Dated',
        transport: { type: 'stdio', command: 'node', args: [] },
        addedAt: '1999-01-01T00:00:00.000Z'
      });
      assert.equal(added.addedAt, '2026-12-04T09:30:00.000Z');
      await clock.advance(60_000);
      await host.call('servers.update', {
        serverId: 'dated',
        settings: {
          name: 'Renamed',
          autoConnect: false,
          transport: { type: 'stdio', command: 'node', args: [], env: [] }
        }
      });
      await host.close();
      host = open();
      const [view] = await host.call('servers.list', {});
      assert.deepEqual([view?.name, view?.addedAt], ['Renamed', '2026-12-04T09:30:00.000Z']);
    } finally {
      await host.close();
      data.remove();
    }
  });

  it('is not said of a server from Taskdesk’s own configuration', async () => {
    const data = tempDir();
    const host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [
        { id: 'given', name: 'Given', transport: { type: 'stdio', command: 'node' }, addedAt: '2020-01-01T00:00:00Z' }
      ]
    });
    try {
      assert.equal((await host.call('servers.list', {}))[0]?.addedAt, undefined);
    } finally {
      await host.close();
      data.remove();
    }
  });
});

describe('commands that start', { skip: process.platform === 'win32' }, () => {
  it('starts a command found only on the login shell PATH while Taskdesk has a minimal one, and shows where it was found', async () => {
    const data = tempDir();
    const bin = tempDir('taskdesk-loginbin-');
    const script = path.join(bin.dir, 'login-only-echo');
    fs.writeFileSync(script, `#!/bin/sh\nexec "${process.execPath}" --import "${TSX}" "${ECHO}" "$@"\n`, {
      mode: 0o755
    });
    // A fake login shell, as shell-env runs it (`-ilc <command>`): its profile puts bin on PATH.
    const shell = path.join(bin.dir, 'fake-login-shell');
    fs.writeFileSync(shell, `#!/bin/sh\nPATH="${bin.dir}:/usr/bin:/bin"; export PATH\nexec /bin/sh -c "$2"\n`, {
      mode: 0o755
    });
    const ownPath = process.env.PATH;
    process.env.PATH = '/usr/bin:/bin';
    const host = createHost({ dataDir: data.dir, autoConnect: false, loginEnv: loginShellEnv(shell) });
    try {
      await host.call('servers.add', {
        id: 'login',
        name: 'Login only',
        autoConnect: false,
        transport: { type: 'stdio', command: 'login-only-echo', args: [] }
      });
      const view = await host.call('servers.connect', { serverId: 'login' });
      assert.equal(view.state.status, 'ready', view.state.reason);
      assert.equal(view.state.executable, script);

      await host.call('servers.add', {
        id: 'missing',
        name: 'Missing',
        autoConnect: false,
        transport: { type: 'stdio', command: 'definitely-not-a-command', args: [] }
      });
      const missing = await host.call('servers.connect', { serverId: 'missing' });
      assert.equal(missing.state.status, 'failed');
      assert.match(missing.state.reason!, /The command "definitely-not-a-command" was not found/);
      assert.ok(missing.state.reason!.includes(bin.dir), `the login directories are named: ${missing.state.reason}`);
      assert.ok(!/ENOENT|spawn/.test(missing.state.reason!), missing.state.reason);
    } finally {
      process.env.PATH = ownPath;
      await host.close();
      data.remove();
      bin.remove();
    }
  });

  it('keeps a bounded stderr of the server, shown even when it fails at start', async () => {
    const data = tempDir();
    const host = createHost({ dataDir: data.dir, autoConnect: false, loginEnv: async () => ({ ...process.env }) });
    try {
      await host.call('servers.add', {
        id: 'chatty',
        name: 'Chatty',
        autoConnect: false,
        transport: {
          type: 'stdio',
          command: process.execPath,
          args: ['--import', TSX, ECHO],
          env: { STDERR_LINES: '500' }
        }
      });
      assert.equal((await host.call('servers.connect', { serverId: 'chatty' })).state.status, 'ready');
      const chatty = await stderrContaining(host, 'chatty', 'env-echo started with token');
      const lines = chatty.text.trim().split('\n');
      assert.equal(lines.length, 200, 'the last 200 lines are kept');
      assert.equal(lines.at(-2), 'env-echo stderr line 500');
      assert.equal(chatty.truncated, true);

      await host.call('servers.add', {
        id: 'crash',
        name: 'Crash',
        autoConnect: false,
        transport: {
          type: 'stdio',
          command: process.execPath,
          args: ['-e', 'console.error("Error: cannot find config ~/.crash.toml"); process.exit(2)']
        }
      });
      const crashed = await host.call('servers.connect', { serverId: 'crash' });
      assert.equal(crashed.state.status, 'failed');
      const crash = await stderrContaining(host, 'crash', 'cannot find config');
      assert.equal(crash.text, 'Error: cannot find config ~/.crash.toml\n');
      assert.equal(crash.truncated, false);
    } finally {
      await host.close();
      data.remove();
    }
  });
});

describe('the order of env vars and headers', () => {
  const stdioEnv = (settings: ServerSettings) =>
    settings.transport.type === 'stdio' ? settings.transport.env : undefined;

  it('keeps the order they were entered in, secrets among them, across an edit and a restart, no secret value in the server list', async () => {
    const data = tempDir();
    const open = () =>
      createHost({ dataDir: data.dir, autoConnect: false, loginEnv: async () => ({ ...process.env }) });
    let host = open();
    try {
      await host.call('servers.add', {
        id: 'ordered',
        name: 'Ordered',
        autoConnect: false,
        transport: {
          type: 'stdio',
          command: 'node',
          args: [],
          env: { API_TOKEN: `tok-${MARK}-1`, MODE: 'fast', DB_PASSWORD: `pw-${MARK}-2`, LEVEL: '3' }
        },
        secrets: { env: ['API_TOKEN', 'DB_PASSWORD'], headers: [] }
      });
      await host.call('servers.add', {
        id: 'web',
        name: 'Web',
        autoConnect: false,
        transport: {
          type: 'http',
          url: 'http://127.0.0.1:9/mcp',
          headers: { 'X-Plain': 'visible', Authorization: `Bearer hdr-${MARK}-3`, 'X-Team': 'core' }
        }
      });
      assert.deepEqual(stdioEnv(await host.call('servers.get', { serverId: 'ordered' })), [
        { name: 'API_TOKEN', secret: true },
        { name: 'MODE', value: 'fast', secret: false },
        { name: 'DB_PASSWORD', secret: true },
        { name: 'LEVEL', value: '3', secret: false }
      ]);
      const web = await host.call('servers.get', { serverId: 'web' });
      assert.deepEqual(web.transport.type === 'http' && web.transport.headers, [
        { name: 'X-Plain', value: 'visible', secret: false },
        { name: 'Authorization', secret: true },
        { name: 'X-Team', value: 'core', secret: false }
      ]);

      // Reordered in the Edit form, a secret kept by name, one dropped, one added between plain ones.
      await host.call('servers.update', {
        serverId: 'ordered',
        settings: {
          name: 'Ordered',
          autoConnect: false,
          protocol: 'auto',
          transport: {
            type: 'stdio',
            command: 'node',
            args: [],
            env: [
              { name: 'LEVEL', value: '4', secret: false },
              { name: 'API_TOKEN', secret: true },
              { name: 'NEW_KEY', value: `new-${MARK}-4`, secret: true },
              { name: 'MODE', value: 'slow', secret: false }
            ]
          }
        }
      });
      const edited = [
        { name: 'LEVEL', value: '4', secret: false },
        { name: 'API_TOKEN', secret: true },
        { name: 'NEW_KEY', secret: true },
        { name: 'MODE', value: 'slow', secret: false }
      ];
      assert.deepEqual(stdioEnv(await host.call('servers.get', { serverId: 'ordered' })), edited);

      await host.close();
      host = open();
      assert.deepEqual(stdioEnv(await host.call('servers.get', { serverId: 'ordered' })), edited, 'after a restart');
      const again = await host.call('servers.get', { serverId: 'web' });
      assert.deepEqual(again.transport.type === 'http' && again.transport.headers, [
        { name: 'X-Plain', value: 'visible', secret: false },
        { name: 'Authorization', secret: true },
        { name: 'X-Team', value: 'core', secret: false }
      ]);
    } finally {
      await host.close();
    }
    // The order is kept as names: no secret value is in the server list.
    const list = fs.readFileSync(path.join(data.dir, 'servers.json'), 'utf8');
    assert.ok(!list.includes(MARK), list);
    assert.ok(list.includes('NEW_KEY'), 'the list names the secret');
    data.remove();
  });

  it('loads a list an older build saved, with no order: plain ones first, then secrets; an edit saves the order', async () => {
    const data = tempDir();
    fs.writeFileSync(
      path.join(data.dir, 'servers.json'),
      JSON.stringify({
        schemaVersion: 1,
        value: [
          {
            id: 'old',
            name: 'Old',
            autoConnect: false,
            transport: { type: 'stdio', command: 'node', args: [], env: { MODE: 'x', LEVEL: '1' } },
            secrets: { env: ['API_TOKEN'], headers: [] }
          },
          {
            id: 'legacy-web',
            name: 'Legacy web',
            autoConnect: false,
            // An Authorization header an older build kept in the list itself.
            transport: {
              type: 'http',
              url: 'http://127.0.0.1:9/mcp',
              headers: { Authorization: 'Bearer old', 'X-A': 'a' }
            }
          }
        ]
      }),
      { mode: 0o600 }
    );
    const open = () =>
      createHost({ dataDir: data.dir, autoConnect: false, loginEnv: async () => ({ ...process.env }) });
    let host = open();
    try {
      assert.deepEqual(stdioEnv(await host.call('servers.get', { serverId: 'old' })), [
        { name: 'MODE', value: 'x', secret: false },
        { name: 'LEVEL', value: '1', secret: false },
        { name: 'API_TOKEN', secret: true }
      ]);
      const web = await host.call('servers.get', { serverId: 'legacy-web' });
      assert.deepEqual(web.transport.type === 'http' && web.transport.headers, [
        { name: 'X-A', value: 'a', secret: false },
        { name: 'Authorization', secret: true }
      ]);
      await host.call('servers.update', {
        serverId: 'old',
        settings: {
          name: 'Old',
          autoConnect: false,
          protocol: 'auto',
          transport: {
            type: 'stdio',
            command: 'node',
            args: [],
            env: [
              { name: 'API_TOKEN', secret: true },
              { name: 'LEVEL', value: '1', secret: false },
              { name: 'MODE', value: 'x', secret: false }
            ]
          }
        }
      });
      await host.close();
      host = open();
      assert.deepEqual(stdioEnv(await host.call('servers.get', { serverId: 'old' })), [
        { name: 'API_TOKEN', secret: true },
        { name: 'LEVEL', value: '1', secret: false },
        { name: 'MODE', value: 'x', secret: false }
      ]);
    } finally {
      await host.close();
      data.remove();
    }
  });
});
