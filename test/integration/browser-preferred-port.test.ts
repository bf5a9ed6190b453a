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

describe('a launch with --port is remembered too', () => {
  const data = tempDir('preferred-port-given-');
  after(() => data.remove());
  const open = (port?: number) =>
    listenOnPreferredPort({
      dataDir: data.dir,
      corruptDir: path.join(data.dir, 'corrupt'),
      factory: confStoreFactory,
      start: listen,
      ...(port !== undefined && { port })
    });

  it('--port 0 (any free port) and --port N each leave their port for the next launch without --port', async () => {
    const anyFree = await open(0);
    assert.equal(anyFree.reused, false);
    await anyFree.server.close();
    const after0 = await open();
    assert.equal(after0.reused, true, 'the next launch without --port comes back on it');
    assert.equal(after0.server.port, anyFree.server.port);

    // --port N: taken as given, even when another port is remembered.
    const spare = await listen(0);
    await spare.close();
    await after0.server.close();
    const given = await open(spare.port);
    assert.equal(given.server.port, spare.port);
    await given.server.close();
    const afterN = await open();
    assert.equal(afterN.reused, true);
    assert.equal(afterN.server.port, spare.port, 'the port given is the one remembered');
    await afterN.server.close();
  });

  it('a port given that is taken fails the launch, as before, and the remembered port stays', async () => {
    const first = await open();
    await first.server.close();
    const squatter = await listen(0);
    const taken = open(squatter.port).then(async (opened) => {
      await opened.server.close();
      return opened;
    });
    await assert.rejects(taken, /EADDRINUSE/);
    await squatter.close();
    const next = await open();
    assert.equal(next.server.port, first.server.port);
    await next.server.close();
  });
});
