import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_IMPORT_TEXT } from '../../app/contract/import-limits.js';
import { createHost, type Host } from '../../app/host/host.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { tempDir } from '../support/host-fixture.js';

/** A host whose apps' configs are looked for in an empty home of its own. */
async function withHost(run: (host: Host) => Promise<void>): Promise<void> {
  const home = tempDir('taskdesk-home-');
  const data = tempDir();
  const host = createHost({
    dataDir: data.dir,
    autoConnect: false,
    keyStore: new InMemoryKeyStore(),
    importPlaces: { home: home.dir, platform: 'linux' }
  });
  try {
    await run(host);
  } finally {
    await host.close();
    home.remove();
    data.remove();
  }
}

const NAME = 'claude_desktop_config.json';
const TEXT = JSON.stringify({
  mcpServers: {
    'task-tools': { command: 'taskdesk-no-such-task-tools', args: ['serve'] },
    'echo-two': { url: 'https://echo.example.com/mcp' }
  }
});

/**
 * A config file chosen in the page: the page reads it (a browser gives no path) and sends its
 * text with its name, read as pasted text is and said by its name, in the Import panel, in what
 * cannot be read, and in the audit log.
 */
describe('importing from a config file chosen in the page', () => {
  it('reads its text as a config of its own, labelled with its name, without a path', async () => {
    await withHost(async (host) => {
      const { sources } = await host.call('servers.importFind', { file: { name: NAME, text: TEXT } });
      const chosen = sources.filter((source) => source.kind === 'file');
      assert.equal(chosen.length, 1);
      assert.deepEqual(
        [chosen[0]!.label, chosen[0]!.path, chosen[0]!.exists, chosen[0]!.error],
        [NAME, undefined, true, undefined]
      );
      assert.deepEqual(
        chosen[0]!.servers.map((server) => [server.key, server.transport, server.target]),
        [
          ['task-tools', 'stdio', 'taskdesk-no-such-task-tools serve'],
          ['echo-two', 'http', 'https://echo.example.com/mcp']
        ]
      );
      // With pasted text too, each is a config of its own.
      const both = await host.call('servers.importFind', {
        file: { name: NAME, text: TEXT },
        text: JSON.stringify({ mcpServers: { pasted: { command: 'p' } } })
      });
      assert.deepEqual(
        both.sources.filter((source) => source.exists).map((source) => [source.kind, source.label]),
        [
          ['file', NAME],
          ['pasted', 'Pasted JSON']
        ]
      );
    });
  });

  it('says by its name a chosen file that is not a config, an empty one included', async () => {
    await withHost(async (host) => {
      const { sources } = await host.call('servers.importFind', {
        file: { name: 'broken.json', text: '{"mcpServers": {"a": {"command": "x"} "b": {}}}' }
      });
      assert.equal(
        sources.find((source) => source.kind === 'file')?.error,
        'broken.json is not a config Taskdesk can read: Comma expected at line 1, column 39. Nothing was imported from it.'
      );
      const empty = await host.call('servers.importFind', { file: { name: 'empty.json', text: '' } });
      assert.match(
        empty.sources.find((source) => source.kind === 'file')?.error ?? '',
        /^empty\.json is not a config Taskdesk can read: /
      );
    });
  });

  it('refuses a chosen file’s text longer than pasted text may be', async () => {
    await withHost(async (host) => {
      await assert.rejects(
        host.call('servers.importFind', { file: { name: 'big.json', text: ' '.repeat(MAX_IMPORT_TEXT + 1) } }),
        /Invalid params for servers\.importFind: file\.text: Too big/
      );
    });
  });

  it('imports the picked servers from its text, naming the file in the audit log', async () => {
    await withHost(async (host) => {
      const result = await host.call('servers.importAdd', {
        origin: { text: TEXT, name: NAME },
        picks: [{ key: 'task-tools' }, { key: 'echo-two' }],
        onClash: 'rename'
      });
      assert.deepEqual(
        result.added.map((one) => one.name),
        ['task-tools', 'echo-two']
      );
      const imported = (await host.call('audit.read', { type: 'server.imported' })).reverse();
      assert.deepEqual(
        imported.map((entry) => entry.detail?.from),
        [`chosen file ${NAME}`, `chosen file ${NAME}`]
      );
      await assert.rejects(
        host.call('servers.importAdd', {
          origin: { text: '{"mcpServers": {', name: 'broken.json' },
          picks: [{ key: 'x' }],
          onClash: 'rename'
        }),
        /^HostError: broken\.json is not a config Taskdesk can read: /
      );
    });
  });
});
