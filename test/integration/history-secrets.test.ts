import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createHost } from '../../app/host/host.js';
import { SECRET_MASK } from '../../app/core/secret-mask.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { everythingServer } from '../support/everything-server.js';
import { tempDir } from '../support/host-fixture.js';

const TOKEN = 'secret-123';
/** A secret with a quote and a backslash: the tool's JSON answer spells it escaped. */
const QUOTED = 'pa"ss\\word-42';

/** Every file under `dir`, as bytes. */
function filesUnder(dir: string): Array<{ file: string; bytes: Buffer }> {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return { file: path.relative(dir, file), bytes: fs.readFileSync(file) };
    });
}

describe('a secret a server’s tool repeats back', () => {
  it('is shown in the call’s answer, but History, its search and its files hold only the mask', async () => {
    const data = tempDir();
    const host = createHost({ dataDir: data.dir, autoConnect: false, keyStore: new InMemoryKeyStore() });
    try {
      await host.call('servers.add', {
        ...everythingServer,
        transport: { ...everythingServer.transport, env: { API_TOKEN: TOKEN, OTHER_TOKEN: QUOTED } },
        secrets: { env: ['API_TOKEN', 'OTHER_TOKEN'], headers: [] }
      });
      const view = await host.call('servers.connect', { serverId: 'everything' });
      assert.equal(view.state.status, 'ready', view.state.reason);
      // get-env answers the server's environment as JSON: the person's own screen shows it.
      const outcome = await host.call('tools.call', { serverId: 'everything', name: 'get-env', arguments: {} });
      assert.equal(outcome.type, 'result');
      const shown = JSON.stringify(outcome);
      assert.ok(shown.includes(TOKEN), 'the live answer has the value');

      const found = await host.call('history.list', { filter: { text: 'get-env' } });
      assert.equal(found.total, 1, 'the call is in History');
      const entry = await host.call('history.get', { id: found.entries[0]!.id });
      const result = entry.result as { content: Array<{ text: string }> };
      const env = JSON.parse(result.content[0]!.text) as Record<string, string>;
      assert.equal(env.API_TOKEN, SECRET_MASK);
      assert.equal(env.OTHER_TOKEN, SECRET_MASK);
      assert.ok(!JSON.stringify(entry).includes(TOKEN), 'the entry does not hold the secret');
      for (const text of [TOKEN, 'word-42'])
        assert.equal(
          (await host.call('history.list', { filter: { text } })).total,
          0,
          `a search for ${text} finds nothing`
        );
      const exported = await host.call('history.export', {});
      assert.ok(!JSON.stringify(exported).includes(TOKEN), 'nor does an export');
    } finally {
      await host.close();
    }
    try {
      const files = filesUnder(data.dir);
      assert.ok(
        files.some(({ file }) => file.startsWith('history')),
        `History wrote its files: ${files.map(({ file }) => file).join(', ')}`
      );
      for (const secret of [TOKEN, QUOTED, JSON.stringify(QUOTED).slice(1, -1), 'word-42'])
        for (const { file, bytes } of files)
          assert.ok(!bytes.includes(Buffer.from(secret)), `${file} does not hold ${secret}`);
    } finally {
      data.remove();
    }
  });
});
