import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import {
  peerServer,
  startHostWith,
  tempDir,
  type InMemoryHostFixture,
  type PeerServer
} from '../support/host-fixture.js';

/**
 * Roots with a 2025-11-25 server (an SDK `Server` in memory): Taskdesk declares `roots` with
 * `listChanged`, answers the server's own `roots/list` with the folders the user chose for it
 * (none by default), and sends `notifications/roots/list_changed` when they change.
 */
describe('roots for a 2025-11-25 server', () => {
  let fixture: InMemoryHostFixture;
  let peer: PeerServer;
  const folders = tempDir('taskdesk-roots-');

  before(async () => {
    peer = peerServer('roots-peer');
    fixture = await startHostWith({ a: peer });
  });
  after(async () => {
    await fixture.dispose();
    folders.remove();
  });

  it('declares roots with listChanged at initialize', () => {
    assert.deepEqual(peer.server.getClientCapabilities()?.roots, { listChanged: true });
  });

  it('answers roots/list with no folder by default, then with the chosen ones after telling the server', async () => {
    assert.deepEqual(await peer.server.listRoots(), { roots: [] });
    const folder = path.join(folders.dir, 'project');
    fs.mkdirSync(folder);
    const told = peer.nextNotification('notifications/roots/list_changed');
    await fixture.host.call('roots.set', { serverId: 'a', folders: [folder] });
    await told;
    assert.deepEqual(await peer.server.listRoots(), { roots: [{ uri: pathToFileURL(folder).href, name: 'project' }] });
    await fixture.host.call('roots.set', { serverId: 'a', folders: [] });
    assert.deepEqual(await peer.server.listRoots(), { roots: [] });
  });
});
