import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { listenOnPreferredPort } from '../../app/browser/preferred-port.js';
import { confStoreFactory } from '../../app/store/json-file-store.js';
import { tempDir } from '../support/host-fixture.js';

async function listen(port: number): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  };
}

describe("browser mode comes back on its last launch's port when it is free", () => {
  const data = tempDir('preferred-port-');
  after(() => data.remove());
  const open = () =>
    listenOnPreferredPort({
      dataDir: data.dir,
      corruptDir: path.join(data.dir, 'corrupt'),
      factory: confStoreFactory,
      start: listen
    });

  it('reuses the port, and takes another one when something else holds it', async () => {
    const first = await open();
    assert.equal(first.reused, false);
    await first.server.close();

    const second = await open();
    assert.equal(second.reused, true);
    assert.equal(second.server.port, first.server.port);
    await second.server.close();

    const squatter = http.createServer();
    squatter.listen(first.server.port, '127.0.0.1');
    await once(squatter, 'listening');
    const third = await open();
    assert.equal(third.reused, false);
    assert.notEqual(third.server.port, first.server.port);
    await third.server.close();
    squatter.close();

    const fourth = await open();
    assert.equal(fourth.server.port, third.server.port, 'the new port is the one remembered');
    await fourth.server.close();
  });
});
