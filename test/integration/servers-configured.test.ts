import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { peerServer, startHostWith } from '../support/host-fixture.js';

describe('a server given by Taskdesk’s configuration, beside one the person added', () => {
  it('is marked configured in its view, and a remove is refused before it is disconnected', async () => {
    const fixture = await startHostWith({ given: peerServer('given') });
    const { host } = fixture;
    try {
      await host.call('servers.add', {
        id: 'mine',
        name: 'Mine',
        transport: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
        autoConnect: false
      });
      const views = await host.call('servers.list', {});
      assert.equal(views.find((view) => view.id === 'given')?.configured, true);
      assert.equal(views.find((view) => view.id === 'mine')?.configured, undefined);

      await assert.rejects(
        host.call('servers.remove', { serverId: 'given' }),
        (error: { code?: number; message?: string }) => {
          assert.equal(error.code, -32600);
          assert.match(error.message ?? '', /^Server given is given by Taskdesk's configuration/);
          return true;
        }
      );
      // Nothing changed: it is still listed, and still connected.
      const after = await host.call('servers.list', {});
      assert.equal(after.find((view) => view.id === 'given')?.state.status, 'ready');

      await host.call('servers.remove', { serverId: 'mine' });
      assert.deepEqual(
        (await host.call('servers.list', {})).map((view) => view.id),
        ['given']
      );
    } finally {
      await fixture.dispose();
    }
  });
});
