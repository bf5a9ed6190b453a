import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { ServerConfig } from '../../../app/contract/host-api.js';
import { createHost } from '../../../app/host/host.js';
import { tempDir } from '../../support/host-fixture.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const support = (name: string) => fileURLToPath(new URL(`../../support/${name}`, import.meta.url));

const legacy = (id: string, onProbe: 'ignore' | 'error-exit', log: string, protocol: ServerConfig['protocol']) => ({
  id,
  name: id,
  transport: {
    type: 'stdio' as const,
    command: process.execPath,
    args: ['--import', 'tsx', support('legacy-probe-server.ts'), JSON.stringify({ onProbe, log })],
    cwd: root
  },
  autoConnect: false,
  protocol
});

describe('a server pinned to one MCP revision', () => {
  const data = tempDir('protocol-pin-');
  after(() => data.remove());

  it('2025-11-25: initialized at once, never sent server/discover; 2026-07-28 against a legacy server: a clear failure, no initialize', async () => {
    const pinnedLog = path.join(data.dir, 'pinned.log');
    const wrongLog = path.join(data.dir, 'wrong.log');
    const host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [
        legacy('pinned-legacy', 'ignore', pinnedLog, '2025-11-25'),
        legacy('wrongly-modern', 'error-exit', wrongLog, '2026-07-28')
      ]
    });
    try {
      const pinned = await host.connect('pinned-legacy');
      assert.equal(pinned.state.status, 'ready', pinned.state.reason);
      assert.equal(pinned.state.era, 'legacy');
      assert.equal(pinned.protocol, '2025-11-25', 'servers.list shows the setting');
      const seen = fs.readFileSync(pinnedLog, 'utf8');
      assert.match(seen, / initialize\n/);
      assert.doesNotMatch(seen, /server\/discover/, 'the probe is never sent');

      const wrong = await host.connect('wrongly-modern');
      assert.equal(wrong.state.status, 'failed');
      assert.match(
        wrong.state.reason ?? '',
        // The server answers and exits: which Taskdesk reads first decides the words.
        /set to MCP 2026-07-28, but it (answered server\/discover as an MCP 2025-11-25 server does|closed the connection|exited with code \d+ before it answered server\/discover)/
      );
      assert.doesNotMatch(fs.readFileSync(wrongLog, 'utf8'), / initialize\n/, 'no initialize is tried');
    } finally {
      await host.close();
    }
  });

  it('2026-07-28 against a modern server: connected without initialize', async () => {
    const host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [
        {
          id: 'pinned-modern',
          name: 'Pinned modern',
          transport: {
            type: 'stdio',
            command: process.execPath,
            args: ['--import', 'tsx', support('modern-task-server.ts'), '{"legacy":"reject"}'],
            cwd: root
          },
          autoConnect: false,
          protocol: '2026-07-28'
        }
      ]
    });
    try {
      const view = await host.connect('pinned-modern');
      assert.equal(view.state.status, 'ready', view.state.reason);
      assert.equal(view.state.era, 'modern');
    } finally {
      await host.close();
    }
  });
});
