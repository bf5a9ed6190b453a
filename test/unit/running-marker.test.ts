import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { RunningMarker } from '../../app/host/running-marker.js';
import { tempDir } from '../support/host-fixture.js';

describe('the running marker', () => {
  it('leaves another running instance alone, reports a stale or dead one once, and goes at a clean close', () => {
    const data = tempDir();
    try {
      const dir = path.join(data.dir, 'running');
      fs.mkdirSync(dir);
      // Another Taskdesk on this directory: a live process (our parent), its marker touched just now.
      const other = path.join(dir, `${process.ppid}-other.json`);
      fs.writeFileSync(other, '{}');
      const first = RunningMarker.start(data.dir);
      assert.equal(first.unclean, undefined);
      assert.equal(first.problem, undefined);
      assert.ok(fs.existsSync(other), "another instance's marker stays");
      first.marker.remove();
      assert.deepEqual(fs.readdirSync(dir), [path.basename(other)]);

      // Untouched for an hour: its process id is someone else's now.
      const hourAgo = new Date(Date.now() - 3_600_000);
      fs.utimesSync(other, hourAgo, hourAgo);
      const second = RunningMarker.start(data.dir);
      assert.ok(Math.abs((second.unclean?.lastSeenAt ?? 0) - hourAgo.getTime()) < 1_000, 'when it was last touched');
      assert.ok(!fs.existsSync(other), 'reported once');
      second.marker.remove();
      assert.deepEqual(fs.readdirSync(dir), []);
    } finally {
      data.remove();
    }
  });

  it('runs on when the marker cannot be written', () => {
    const data = tempDir();
    try {
      // A file where the directory should be: nothing can be written under it.
      fs.writeFileSync(path.join(data.dir, 'running'), '');
      const started = RunningMarker.start(data.dir);
      assert.equal(started.unclean, undefined);
      assert.match(started.problem ?? '', /EEXIST|ENOTDIR/);
      started.marker.remove();
    } finally {
      data.remove();
    }
  });

  it('writes its marker again when another Taskdesk took it for stale while it still runs', (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    const data = tempDir();
    try {
      const { marker } = RunningMarker.start(data.dir);
      const file = path.join(data.dir, 'running', `${marker.id}.json`);
      fs.rmSync(file);
      t.mock.timers.tick(60_000);
      assert.ok(fs.existsSync(file), 'back at the next touch');
      assert.deepEqual(RunningMarker.runningIds(data.dir), new Set([marker.id]));
      marker.remove();
      t.mock.timers.tick(60_000);
      assert.ok(!fs.existsSync(file), 'a clean close removes it for good');
    } finally {
      data.remove();
    }
  });
});
