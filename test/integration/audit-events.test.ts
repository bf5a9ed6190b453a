import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { peerServer, startHostWith } from '../support/host-fixture.js';
import { ManualClock } from '../support/manual-clock.js';

describe('audit.changed', () => {
  it('tells windows that the audit log has new entries, of any kind, at most once every half second', async () => {
    const clock = new ManualClock();
    const fixture = await startHostWith({}, { clock, keyStore: new InMemoryKeyStore() });
    try {
      const { host } = fixture;
      // Whatever the start recorded has been told, and its half second is over.
      await clock.advance(1_000);
      let told = 0;
      host.on('audit.changed', () => told++);
      const entries = async () => (await host.call('audit.read', { type: 'provider' })).length;
      // A provider saved is recorded (no task or server event goes with it).
      const saved = new Promise<void>((resolve) => {
        const off = host.on('audit.changed', () => {
          off();
          resolve();
        });
      });
      await host.call('providers.save', { id: 'one', name: 'One', baseURL: 'http://127.0.0.1:9/v1', models: [] });
      await saved;
      assert.equal(told, 1);
      assert.equal(await entries(), 1);
      // Another within the half second: told once the half second is over.
      await host.call('providers.save', { id: 'two', name: 'Two', baseURL: 'http://127.0.0.1:9/v1', models: [] });
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(told, 1);
      await clock.advance(500);
      assert.equal(told, 2);
      assert.equal(await entries(), 2);
    } finally {
      await fixture.dispose();
    }
  });
});

describe('server.state entries', () => {
  it('say what happened to the connection and who the server is, without its capabilities; the person’s disconnect as theirs', async () => {
    const peer = peerServer('a');
    peer.server.registerCapabilities({ tools: { listChanged: true }, logging: {}, experimental: { big: { x: 1 } } });
    const fixture = await startHostWith({ a: peer });
    try {
      const { host } = fixture;
      await host.call('servers.disconnect', { serverId: 'a' });
      const entries = await host.call('audit.read', { type: 'server.state', serverId: 'a' });
      const ready = entries.find((entry) => entry.detail?.status === 'ready');
      const version = ready?.detail?.protocolVersion;
      assert.deepEqual(ready?.detail, {
        status: 'ready',
        ...(version !== undefined && { protocolVersion: version }),
        era: 'legacy',
        serverInfo: { name: 'a', version: '1.0.0' }
      });
      assert.deepEqual(
        entries.map((entry) => entry.detail),
        [{ status: 'closed', reason: 'Disconnected by you' }, ready?.detail, { status: 'connecting' }]
      );
    } finally {
      await fixture.dispose();
    }
  });
});
