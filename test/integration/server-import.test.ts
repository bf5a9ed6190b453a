import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createHost, type Host } from '../../app/host/host.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { MAX_CONFIG_BYTES } from '../../app/servers-import/server-import.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { root } from '../e2e/renderer-build.js';

const MARK = 'ImPoRtSeCrEt';
const ECHO = path.join(root, 'test/support/env-echo-server.ts');
const TSX = import.meta.resolve('tsx');

/** A home directory holding a config of each shape, and a project with both project files. */
function writeFixtures(home: string, project: string): void {
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  };
  write(
    path.join(home, '.config/Claude/claude_desktop_config.json'),
    JSON.stringify({
      globalShortcut: 'Ctrl+Space',
      mcpServers: {
        filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] },
        github: {
          command: 'docker',
          args: ['run', '-i', '--rm', 'ghcr.io/github/github-mcp-server'],
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: `ghp-${MARK}-1`, LOG_LEVEL: 'info' },
          disabled: false
        }
      }
    })
  );
  write(
    path.join(home, '.cursor/mcp.json'),
    JSON.stringify({
      mcpServers: {
        linear: {
          url: 'https://mcp.linear.app/mcp',
          headers: { Authorization: `Bearer lin-${MARK}-2`, 'X-Team': 'core' }
        },
        legacy: { type: 'sse', url: 'https://old.example.com/sse' },
        filesystem: { command: 'npx', args: ['-y', 'other-fs'] }
      }
    })
  );
  write(
    path.join(home, '.config/Code/User/settings.json'),
    `{
  // VS Code's settings are JSONC
  "editor.fontSize": 14,
  "mcp": {
    "inputs": [{ "type": "promptString", "id": "api-key", "description": "Weather API key", "password": true }],
    "servers": {
      "weather": {
        "type": "stdio",
        "command": "uvx",
        "args": ["weather-mcp", "--key", "\${input:api-key}",],
        "env": { "WEATHER_API_KEY": "\${input:api-key}", "UNITS": "metric", "HOME_DIR": "\${env:HOME}" },
        "envFile": "\${workspaceFolder}/.env",
      },
    },
  },
}`
  );
  write(
    path.join(project, '.vscode/mcp.json'),
    `{
  "inputs": [
    { "type": "promptString", "id": "region", "description": "Region" },
    { "type": "promptString", "id": "token", "password": true }
  ],
  /* a workspace server */
  "servers": {
    "docs": {
      "type": "http",
      "url": "https://docs.example.com/mcp?region=\${input:region}",
      "headers": { "X-Api-Token": "\${input:token}", "X-Client": "taskdesk" }
    },
    "local": { "command": "node", "args": ["\${workspaceFolder}/server.js"], "cwd": "\${workspaceFolder}" }
  }
}`
  );
  // A broken file: a project's Cursor config cut short.
  write(path.join(project, '.cursor/mcp.json'), '{\n  "mcpServers": {\n    "half": { "command": "npx",\n');
}

async function withHost(
  run: (host: Host, home: string, project: string, dataDir: string) => Promise<void>
): Promise<void> {
  const home = tempDir('taskdesk-home-');
  const project = tempDir('taskdesk-project-');
  const data = tempDir();
  writeFixtures(home.dir, project.dir);
  const host = createHost({
    dataDir: data.dir,
    autoConnect: false,
    keyStore: new InMemoryKeyStore(),
    importPlaces: { home: home.dir, platform: 'linux' }
  });
  try {
    await run(host, home.dir, project.dir, data.dir);
  } finally {
    await host.close();
    home.remove();
    project.remove();
    data.remove();
  }
}

describe('importing the servers of other hosts', () => {
  it('finds each config shape: name, transport, command or URL, env and header names, inputs, unknown fields', async () => {
    await withHost(async (host, home, project) => {
      const { sources } = await host.call('servers.importFind', { projectDirs: [project] });
      const byPath = (file: string) => sources.find((source) => source.path === file)!;

      const claude = byPath(path.join(home, '.config/Claude/claude_desktop_config.json'));
      assert.equal(claude.kind, 'claude-desktop');
      assert.equal(claude.exists, true);
      assert.deepEqual(
        claude.servers.map((server) => [server.key, server.transport, server.target]),
        [
          ['filesystem', 'stdio', 'npx -y @modelcontextprotocol/server-filesystem /tmp'],
          ['github', 'stdio', 'docker run -i --rm ghcr.io/github/github-mcp-server']
        ]
      );
      const github = claude.servers[1]!;
      assert.deepEqual(github.env, [
        { name: 'GITHUB_PERSONAL_ACCESS_TOKEN', secret: true },
        { name: 'LOG_LEVEL', value: 'info', secret: false }
      ]);
      // `"disabled": false` is read (the server is on), not reported as a field Taskdesk does not use.
      assert.deepEqual(github.unknownFields, []);
      assert.equal(github.disabled, undefined);

      const cursor = byPath(path.join(home, '.cursor/mcp.json'));
      const linear = cursor.servers.find((server) => server.key === 'linear')!;
      assert.equal(linear.transport, 'http');
      assert.equal(linear.target, 'https://mcp.linear.app/mcp');
      assert.deepEqual(linear.headers, [
        { name: 'Authorization', secret: true },
        { name: 'X-Team', value: 'core', secret: false }
      ]);
      assert.match(cursor.servers.find((server) => server.key === 'legacy')!.problem!, /SSE/);

      const vscode = byPath(path.join(home, '.config/Code/User/settings.json'));
      assert.equal(vscode.error, undefined, 'JSONC with comments and trailing commas is read');
      const weather = vscode.servers[0]!;
      assert.equal(weather.key, 'weather');
      assert.equal(weather.target, 'uvx weather-mcp --key ••••');
      assert.deepEqual(weather.inputs, ['api-key']);
      assert.deepEqual(vscode.inputs, [{ id: 'api-key', description: 'Weather API key', password: true }]);
      assert.deepEqual(weather.unknownFields, ['envFile']);
      assert.deepEqual(weather.unresolved, ['${env:HOME}'], 'envFile is not read, so its variable is not listed');
      assert.equal(weather.env.find((entry) => entry.name === 'WEATHER_API_KEY')?.secret, true);

      const workspace = byPath(path.join(project, '.vscode/mcp.json'));
      assert.equal(workspace.kind, 'vscode-workspace');
      assert.deepEqual(
        workspace.servers.map((server) => [server.key, server.transport, server.inputs]),
        [
          ['docs', 'http', ['region', 'token']],
          ['local', 'stdio', []]
        ]
      );
      assert.equal(workspace.servers[0]!.headers.find((entry) => entry.name === 'X-Api-Token')?.secret, true);
      assert.deepEqual(workspace.servers[1]!.unresolved, [], '${workspaceFolder} is known for a workspace file');

      const broken = byPath(path.join(project, '.cursor/mcp.json'));
      assert.equal(broken.exists, true);
      assert.match(broken.error!, /is not a config Taskdesk can read: .* Nothing was imported from it\./);
      assert.deepEqual(broken.servers, []);

      // VS Code's user mcp.json does not exist here: listed, not found.
      const missing = byPath(path.join(home, '.config/Code/User/mcp.json'));
      assert.equal(missing.exists, false);

      // No value of a secret is in the answer.
      assert.ok(!JSON.stringify(sources).includes(MARK));
    });
  });

  it('adds picked servers with their inputs and secrets; a broken file adds nothing; clashes are renamed or skipped', async () => {
    await withHost(async (host, home, project, dataDir) => {
      // A broken file: a clear message, nothing added.
      await assert.rejects(
        host.call('servers.importAdd', {
          origin: { path: path.join(project, '.cursor/mcp.json') },
          picks: [{ key: 'half' }],
          onClash: 'rename'
        }),
        /is not a config Taskdesk can read: Property name expected at line 4, column 1 \(the text ends too early\)\. Nothing was imported from it\./
      );
      // A file named that is not a config: read, refused, and nothing of it said but where it goes wrong.
      const notes = path.join(project, 'notes.txt');
      fs.writeFileSync(notes, 'my secret notes');
      await assert.rejects(
        host.call('servers.importAdd', { origin: { path: notes }, picks: [{ key: 'x' }], onClash: 'skip' }),
        (error: Error) =>
          /is not a config Taskdesk can read: Invalid symbol at line 1, column 1\./.test(error.message) &&
          !error.message.includes('secret notes')
      );
      assert.deepEqual(await host.call('servers.list', {}), []);

      const claude = await host.call('servers.importAdd', {
        origin: { path: path.join(home, '.config/Claude/claude_desktop_config.json') },
        picks: [{ key: 'filesystem' }, { key: 'github', secretEnv: ['GITHUB_PERSONAL_ACCESS_TOKEN'] }],
        onClash: 'rename'
      });
      assert.deepEqual(claude.added, [
        { key: 'filesystem', id: 'filesystem', name: 'filesystem', autoConnect: false },
        { key: 'github', id: 'github', name: 'github', autoConnect: false }
      ]);
      const github = await host.call('servers.get', { serverId: 'github' });
      // In the file's order, the secret among the others.
      assert.deepEqual(github.transport.type === 'stdio' && github.transport.env, [
        { name: 'GITHUB_PERSONAL_ACCESS_TOKEN', secret: true },
        { name: 'LOG_LEVEL', value: 'info', secret: false }
      ]);

      // Cursor also has a "filesystem": renamed once, skipped once.
      const renamed = await host.call('servers.importAdd', {
        origin: { path: path.join(home, '.cursor/mcp.json') },
        picks: [{ key: 'filesystem' }, { key: 'linear' }, { key: 'legacy' }],
        onClash: 'rename'
      });
      assert.deepEqual(renamed.added, [
        { key: 'filesystem', id: 'filesystem-2', name: 'filesystem (2)', autoConnect: false },
        { key: 'linear', id: 'linear', name: 'linear', autoConnect: false }
      ]);
      assert.match(renamed.skipped[0]!.reason, /SSE/);
      // Found again, it is a copy of the server it became (same command and arguments): said, and skipped under "skip".
      const again = (await host.call('servers.importFind', {})).sources.find(
        (source) => source.path === path.join(home, '.cursor/mcp.json')
      );
      assert.equal(again?.servers.find((server) => server.key === 'filesystem')?.sameAs, 'filesystem (2)');
      // One with a secret is no one's copy (two accounts may differ only there): github, imported above.
      const claudeAgain = (await host.call('servers.importFind', {})).sources.find(
        (source) => source.kind === 'claude-desktop'
      );
      assert.deepEqual(
        claudeAgain?.servers.map((server) => [server.key, server.sameAs]),
        [
          ['filesystem', 'filesystem'],
          ['github', undefined]
        ]
      );
      const skipped = await host.call('servers.importAdd', {
        origin: { path: path.join(home, '.cursor/mcp.json') },
        picks: [{ key: 'filesystem' }],
        onClash: 'skip'
      });
      assert.deepEqual(skipped.added, []);
      assert.equal(skipped.skipped[0]!.reason, 'filesystem (2) runs the same command, arguments and settings already');
      // Only its name taken (another command): skipped under "skip" for that.
      const named = await host.call('servers.importAdd', {
        origin: { text: JSON.stringify({ mcpServers: { filesystem: { command: 'npx', args: ['-y', 'third-fs'] } } }) },
        picks: [{ key: 'filesystem' }],
        onClash: 'skip'
      });
      assert.deepEqual(named.added, []);
      assert.match(named.skipped[0]!.reason, /exists already/);

      // VS Code workspace: inputs are asked for; a missing one adds nothing.
      const origin = { path: path.join(project, '.vscode/mcp.json') };
      await assert.rejects(
        host.call('servers.importAdd', {
          origin,
          picks: [{ key: 'docs' }, { key: 'local' }],
          onClash: 'rename',
          inputs: { region: 'eu' }
        }),
        /Enter a value for the input token/
      );
      // Left empty in the panel (sent as ''), or blank, it is missing too: nothing is added.
      await assert.rejects(
        host.call('servers.importAdd', {
          origin,
          picks: [{ key: 'docs' }, { key: 'local' }],
          onClash: 'rename',
          inputs: { region: ' ', token: '' }
        }),
        /Enter a value for the inputs (region, token|token, region)$/
      );
      assert.equal((await host.call('servers.list', {})).length, 4);
      const vscode = await host.call('servers.importAdd', {
        origin,
        picks: [{ key: 'docs' }, { key: 'local' }],
        onClash: 'rename',
        inputs: { region: 'eu', token: `tok-${MARK}-3` }
      });
      assert.equal(vscode.added.length, 2);
      const docs = await host.call('servers.get', { serverId: 'docs' });
      assert.equal(docs.transport.type === 'http' && docs.transport.url, 'https://docs.example.com/mcp?region=eu');
      assert.deepEqual(docs.transport.type === 'http' && docs.transport.headers, [
        { name: 'X-Api-Token', secret: true },
        { name: 'X-Client', value: 'taskdesk', secret: false }
      ]);
      const local = await host.call('servers.get', { serverId: 'local' });
      assert.deepEqual(local.transport.type === 'stdio' && [local.transport.args, local.transport.cwd], [
        [`${project}/server.js`],
        project
      ]);

      // Pasted JSON in Cursor's shape, with a clash renamed.
      const pasted = await host.call('servers.importAdd', {
        origin: { text: JSON.stringify({ mcpServers: { linear: { url: 'https://other.example.com/mcp' } } }) },
        picks: [{ key: 'linear' }],
        onClash: 'rename'
      });
      assert.deepEqual(pasted.added, [{ key: 'linear', id: 'linear-2', name: 'linear (2)', autoConnect: false }]);
      await assert.rejects(
        host.call('servers.importAdd', {
          origin: { text: '{"mcpServers": {' },
          picks: [{ key: 'x' }],
          onClash: 'rename'
        }),
        /The pasted text is not a config Taskdesk can read/
      );

      // Secrets went to the key store: not in the server list.
      const saved = fs.readFileSync(path.join(dataDir, 'servers.json'), 'utf8');
      assert.ok(!saved.includes(MARK), 'the server list holds no imported secret');
      assert.ok(!JSON.stringify(await host.call('servers.list', {})).includes(MARK));
    });
  });
  it('says a server its app has switched off, and imports it, if picked, off: not connected', async () => {
    await withHost(async (host, home) => {
      const echo = { command: process.execPath, args: ['--import', TSX, ECHO] };
      const file = path.join(home, '.config/Claude/claude_desktop_config.json');
      fs.writeFileSync(
        file,
        JSON.stringify({
          mcpServers: { live: echo, paused: { ...echo, args: [...echo.args, '--paused'], disabled: true } }
        })
      );
      const claude = (await host.call('servers.importFind', {})).sources.find((source) => source.path === file)!;
      const [live, paused] = claude.servers;
      assert.equal(live!.disabled, undefined);
      assert.equal(paused!.disabled, true, 'said to be switched off');
      assert.deepEqual(paused!.unknownFields, [], '"disabled" is used, not reported as a field Taskdesk does not use');

      // Every state change is heard, from before the import: a connection of paused would show here.
      const states: string[] = [];
      host.on('server.state', (event) => states.push(`${event.serverId} ${event.state.status}`));
      const liveReady = nextEvent(
        host,
        'server.state',
        (event) => event.serverId === 'live' && event.state.status === 'ready'
      );
      const imported = await host.call('servers.importAdd', {
        origin: { path: file },
        picks: [{ key: 'live' }, { key: 'paused' }],
        onClash: 'rename',
        autoConnect: true
      });
      // As the file was at the import: the Desk's result line says this, not what the look found.
      assert.deepEqual(
        imported.added.map(({ id, autoConnect, switchedOff }) => ({ id, autoConnect, switchedOff })),
        [
          { id: 'live', autoConnect: true, switchedOff: undefined },
          { id: 'paused', autoConnect: false, switchedOff: true }
        ]
      );
      assert.equal((await host.call('servers.get', { serverId: 'live' })).autoConnect, true);
      assert.equal(
        (await host.call('servers.get', { serverId: 'paused' })).autoConnect,
        false,
        'nor when Taskdesk starts'
      );
      // live, connected at once as asked, is ready; paused, started in the same loop, was never connected.
      await liveReady;
      assert.deepEqual(
        states.filter((state) => state.startsWith('paused ')),
        []
      );
      const list = await host.call('servers.list', {});
      assert.equal(list.find((server) => server.id === 'paused')?.state.status, 'idle');
    });
  });

  it('says a project folder given to look in does not exist, or is not a folder, rather than only that its files are missing', async () => {
    await withHost(async (host, home, project) => {
      const gone = path.join(project, 'no-such-project');
      // Neither a folder nor a file: a device.
      const device = '/dev/null';
      const { sources } = await host.call('servers.importFind', { projectDirs: [gone, device, project] });
      const of = (folder: string) => sources.filter((source) => source.path?.startsWith(`${folder}${path.sep}`));
      assert.deepEqual(
        of(gone).map((source) => [source.exists, source.error]),
        [
          // Its box takes a config file's path too: one with nothing at it is not said to be a folder.
          [false, `There is no folder or file at ${gone}`],
          [false, `There is no folder or file at ${gone}`]
        ]
      );
      assert.deepEqual(
        of(device).map((source) => [source.exists, source.error]),
        [
          [false, `${device} is not a folder or a config file`],
          [false, `${device} is not a folder or a config file`]
        ]
      );
      // A user file that is not there is only not found: its folder is the app's, not one the person gave.
      const userMcp = sources.find((source) => source.path === path.join(home, '.config/Code/User/mcp.json'));
      assert.deepEqual([userMcp?.exists, userMcp?.error], [false, undefined]);
    });
  });

  it('reads a config file given by its path, wherever it is, and imports from it, leaving it as it was', async () => {
    await withHost(async (host, home, project) => {
      const elsewhere = tempDir('taskdesk-elsewhere-');
      try {
        const file = path.join(elsewhere.dir, 'claude_desktop_config.json');
        const text = JSON.stringify({
          mcpServers: {
            notes: { command: 'notes-mcp', args: ['serve'] },
            off: { url: 'https://x.example/mcp', disabled: true }
          }
        });
        fs.writeFileSync(file, text);
        const before = fs.statSync(file).mtimeMs;
        // A project's own file, named beside its folder, is read once, as that project's.
        const workspaceFile = path.join(project, '.vscode/mcp.json');
        const { sources } = await host.call('servers.importFind', { projectDirs: [file, project, workspaceFile] });
        const given = sources.filter((source) => source.path === file);
        assert.deepEqual(
          given.map((source) => [source.kind, source.label, source.exists, source.error]),
          [['file', 'Config file', true, undefined]]
        );
        assert.deepEqual(
          given[0]!.servers.map((server) => [server.key, server.target, server.disabled]),
          [
            ['notes', 'notes-mcp serve', undefined],
            ['off', 'https://x.example/mcp', true]
          ]
        );
        assert.deepEqual(
          sources.filter((source) => source.path === workspaceFile).map((source) => source.kind),
          ['vscode-workspace']
        );

        const added = await host.call('servers.importAdd', {
          origin: { path: file },
          picks: [{ key: 'notes' }, { key: 'off' }],
          onClash: 'rename',
          autoConnect: false
        });
        assert.deepEqual(added.added, [
          { key: 'notes', id: 'notes', name: 'notes', autoConnect: false },
          { key: 'off', id: 'off', name: 'off', autoConnect: false }
        ]);
        // Read only.
        assert.equal(fs.readFileSync(file, 'utf8'), text);
        assert.equal(fs.statSync(file).mtimeMs, before);
        assert.deepEqual(fs.readdirSync(elsewhere.dir), ['claude_desktop_config.json']);

        // What is not a file is not read: a named pipe would hold the host up.
        const pipe = path.join(elsewhere.dir, 'pipe.json');
        execFileSync('mkfifo', [pipe]);
        await assert.rejects(
          host.call('servers.importAdd', { origin: { path: pipe }, picks: [{ key: 'x' }], onClash: 'skip' }),
          /pipe\.json is not a config file/
        );
        const found = await host.call('servers.importFind', { projectDirs: [pipe] });
        assert.deepEqual(
          found.sources.filter((source) => source.path?.startsWith(pipe)).map((source) => source.error),
          [`${pipe} is not a folder or a config file`, `${pipe} is not a folder or a config file`]
        );
        // Nor is a file too big to be a config.
        const big = path.join(elsewhere.dir, 'big.json');
        fs.writeFileSync(big, `{"mcpServers": {}, "pad": "${'x'.repeat(5 * 1024 * 1024)}"}`);
        await assert.rejects(
          host.call('servers.importAdd', { origin: { path: big }, picks: [{ key: 'x' }], onClash: 'skip' }),
          /big\.json is too big to be a config/
        );
      } finally {
        elsewhere.remove();
      }
    });
  });

  it('reads at most 4 MiB of a file, whatever its size says, and opens only a regular file, through a symlink too', async () => {
    await withHost(async (host, home, project) => {
      const cursorFile = path.join(project, '.cursor/mcp.json');
      const errorOf = async (where: string) =>
        (await host.call('servers.importFind', { projectDirs: [project] })).sources.find(
          (source) => source.path === where
        )?.error;
      const linkTo = (target: string) => {
        fs.rmSync(cursorFile, { force: true });
        fs.symlinkSync(target, cursorFile);
      };

      // A config of exactly 4 MiB is read; its size is not what refuses a file.
      const edge = path.join(home, 'edge.json');
      const json = '{"mcpServers": {"edge": {"command": "edge-mcp"}}}';
      fs.writeFileSync(edge, json + ' '.repeat(MAX_CONFIG_BYTES - json.length));
      const atEdge = (await host.call('servers.importFind', { projectDirs: [edge] })).sources.find(
        (source) => source.path === edge
      );
      assert.deepEqual([atEdge?.error, atEdge?.servers.map((server) => server.key)], [undefined, ['edge']]);

      // /proc/self/pagemap says it has 0 bytes and holds 8 for every page of the address space
      // (hundreds of gigabytes): as a file that grows while it is read, it is refused once it
      // has more than 4 MiB, not read to its end.
      const pagemap = '/proc/self/pagemap';
      assert.equal(fs.statSync(pagemap).size, 0);
      linkTo(pagemap);
      assert.equal(await errorOf(cursorFile), `${cursorFile} is too big to be a config`);
      await assert.rejects(
        host.call('servers.importAdd', { origin: { path: pagemap }, picks: [{ key: 'x' }], onClash: 'skip' }),
        /\/proc\/self\/pagemap is too big to be a config/
      );

      // What is not a regular file is known by its kind before anything opens it. A socket shows
      // it: opening one fails (ENXIO), which would be said as "could not be read".
      const elsewhere = tempDir('taskdesk-socket-');
      const socket = net.createServer();
      try {
        const socketPath = path.join(elsewhere.dir, 'mcp.sock');
        await new Promise<void>((resolve) => socket.listen(socketPath, resolve));
        linkTo(socketPath);
        assert.equal(await errorOf(cursorFile), `${cursorFile} is not a config file (not a regular file)`);
      } finally {
        await new Promise((resolve) => socket.close(resolve));
        elsewhere.remove();
      }
      // A device likewise, where a project's config is expected.
      linkTo('/dev/zero');
      assert.equal(await errorOf(cursorFile), `${cursorFile} is not a config file (not a regular file)`);
      assert.deepEqual(await host.call('servers.list', {}), []);
    });
  });
});
