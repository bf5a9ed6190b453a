import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createHost, type Host } from '../../../app/host/host.js';
import type { ServerConfigInput } from '../../../app/mcp/server-config.js';
import { nextEvent, tempDir } from '../../support/host-fixture.js';

/**
 * A 2026-07-28 server that declares `tools.listChanged` tells of a changed tool list only on a
 * `subscriptions/listen` stream: Taskdesk opens one when it connects, and a change said on it
 * makes the host read the tools again and tell the Desk (`tools.changed`), as a 2025-11-25
 * server's notification does. Against a real server on the v2 server package, over stdio.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const serverScript = fileURLToPath(new URL('../../support/changing-tools-server.ts', import.meta.url));

const server: ServerConfigInput = {
  id: 'changing',
  name: 'Changing tools',
  transport: { type: 'stdio', command: process.execPath, args: ['--import', 'tsx', serverScript], cwd: root },
  autoConnect: false,
  protocol: '2026-07-28'
};

describe('a 2026-07-28 server tells of its changed tools on subscriptions/listen', () => {
  let host: Host;
  const data = tempDir();
  before(async () => {
    host = createHost({ dataDir: data.dir, autoConnect: false });
    await host.call('servers.add', server);
    const view = await host.connect('changing');
    assert.equal(view.state.status, 'ready', view.state.reason);
    assert.equal(view.state.era, 'modern');
  });
  after(async () => {
    await host.close();
    data.remove();
  });

  it('a tool the server adds is listed after its notification, with tools.changed told', async () => {
    const names = async () => (await host.call('tools.list', { serverId: 'changing' })).map((tool) => tool.name).sort();
    assert.deepEqual(await names(), ['add-tool']);
    const changed = nextEvent(host, 'tools.changed', (event) => event.serverId === 'changing');
    const outcome = await host.call('tools.call', {
      serverId: 'changing',
      name: 'add-tool',
      arguments: { name: 'fresh' },
      asTask: false
    });
    assert.equal(outcome.type, 'result');
    await changed;
    assert.deepEqual(await names(), ['add-tool', 'fresh']);
  });
});
