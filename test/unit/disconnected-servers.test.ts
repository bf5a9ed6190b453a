import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { DisconnectedServers } from '../../app/host/disconnected-servers.js';
import { confStoreFactory } from '../../app/store/json-file-store.js';
import { tempDir } from '../support/host-fixture.js';

describe('the servers the person disconnected, kept over a restart', () => {
  it('keeps any server id, `__proto__` and `constructor` among them, as a plain key over a reload', () => {
    const temp = tempDir();
    try {
      const open = () =>
        new DisconnectedServers({
          dir: temp.dir,
          corruptDir: path.join(temp.dir, 'corrupt'),
          factory: confStoreFactory
        });
      const first = open();
      for (const id of ['__proto__', 'constructor', 'echo']) first.add(id, '2026-12-06T23:00:00.000Z');
      const second = open();
      assert.deepEqual(second.warnings, []);
      for (const id of ['__proto__', 'constructor', 'echo']) assert.equal(second.has(id), true, id);
      assert.equal(second.has('toString'), false);
      second.forget('__proto__');
      second.keepOnly(new Set(['echo']));
      const third = open();
      assert.deepEqual(
        ['__proto__', 'constructor', 'echo'].map((id) => third.has(id)),
        [false, false, true]
      );
    } finally {
      temp.remove();
    }
  });
});
