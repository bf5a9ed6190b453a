import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ServerWaitsStore, waitOfEnded } from '../../../app/inbox/server-waits.js';
import { confStoreFactory } from '../../../app/store/json-file-store.js';
import { tempDir } from '../../support/host-fixture.js';

const ASKED = '2026-12-06T23:00:00.000Z';

/** An ordinary request asked at {@link ASKED} that ended `seconds` later, cancelled as given. */
function ended(seconds: number, cancelled?: { by?: 'you' | 'server' | 'taskdesk'; reason?: string }) {
  return {
    askedAt: ASKED,
    endedAt: new Date(Date.parse(ASKED) + seconds * 1000).toISOString(),
    ...(cancelled && { cancelled })
  };
}

describe('what the end of an ordinary request tells of how long its server waits', () => {
  it('sat through: answered; ended by the person or by Taskdesk unanswered tells nothing (the server may have stopped waiting unsaid)', () => {
    assert.deepEqual(waitOfEnded(ended(240)), { how: 'sat-through', waitedMs: 240_000 });
    assert.equal(
      waitOfEnded(ended(100, { by: 'you', reason: 'Disconnected by you before it was answered' })),
      undefined
    );
    assert.equal(waitOfEnded(ended(70, { by: 'taskdesk', reason: 'Taskdesk stopped' })), undefined);
  });

  it('gave up: withdrawn by its server saying it timed out (the SDK’s −32001), and nothing from any other cancel', () => {
    assert.deepEqual(
      waitOfEnded(ended(60, { by: 'server', reason: 'McpError: MCP error -32001: Request timed out' })),
      {
        how: 'gave-up',
        waitedMs: 60_000
      }
    );
    // Its caller stopped, or its connection closed: no wait of its own either way.
    assert.equal(waitOfEnded(ended(60, { by: 'server', reason: 'The user stopped it' })), undefined);
    assert.equal(waitOfEnded(ended(60, { by: 'server' })), undefined);
    assert.equal(waitOfEnded(ended(60, {})), undefined);
  });
});

describe('the waits of each server, kept over a restart', () => {
  it('keeps the longest wait sat through and the shortest given up after, in whole seconds, for any server id', () => {
    const temp = tempDir();
    try {
      const open = () =>
        new ServerWaitsStore({ dir: temp.dir, corruptDir: path.join(temp.dir, 'corrupt'), factory: confStoreFactory });
      const first = open();
      assert.equal(first.get('a'), undefined);
      // Under a second tells nothing.
      assert.equal(first.noteEnded('a', ended(0.4)), false);
      assert.equal(first.get('a'), undefined);
      assert.equal(first.noteEnded('a', { ...ended(240), endedAt: '2026-12-06T23:04:00.900Z' }), true);
      assert.equal(first.noteEnded('a', ended(30)), false, 'not longer');
      assert.equal(first.noteEnded('__proto__', ended(90, { by: 'server', reason: 'timed out' })), true);
      assert.equal(
        first.noteEnded('__proto__', ended(120, { by: 'server', reason: 'timed out' })),
        false,
        'not shorter'
      );
      assert.equal(first.noteEnded('__proto__', ended(200)), true);
      assert.equal(first.noteEnded('c', ended(50, { by: 'server' })), false);

      const second = open();
      assert.deepEqual(second.warnings, []);
      assert.deepEqual(second.get('a'), { longestMs: 240_000 });
      assert.deepEqual(second.get('__proto__'), { gaveUpAfterMs: 90_000, longestMs: 200_000 });
      assert.equal(second.get('c'), undefined);
      assert.equal(second.get('constructor'), undefined);
      second.forget('a');
      second.keepOnly(new Set(['__proto__']));
      assert.deepEqual(
        [open().get('a'), open().get('__proto__')],
        [undefined, { gaveUpAfterMs: 90_000, longestMs: 200_000 }]
      );
    } finally {
      temp.remove();
    }
  });

  it('moves a file it cannot read aside with a warning, and starts empty', () => {
    const temp = tempDir();
    try {
      fs.writeFileSync(
        path.join(temp.dir, 'server-waits.json'),
        '{"schemaVersion":1,"value":[["a",{"longestMs":-1}]]}'
      );
      const store = new ServerWaitsStore({
        dir: temp.dir,
        corruptDir: path.join(temp.dir, 'corrupt'),
        factory: confStoreFactory
      });
      assert.equal(store.get('a'), undefined);
      assert.equal(store.warnings.length, 1);
      assert.match(store.warnings[0]!.message, /how long servers wait for answers/);
    } finally {
      temp.remove();
    }
  });
});
