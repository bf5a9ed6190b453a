import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { OPEN_WORK_DIR, OpenWorkRecord } from '../../app/host/open-work-record.js';
import { tempDir } from '../support/host-fixture.js';

describe('the record of open plain work and secrets', () => {
  it('keeps no secret of a server in the quote of a waiting question, not even one the quote would cut in two', async () => {
    const data = tempDir();
    try {
      const secret = 'sk-live-0123456789abcdef';
      const record = new OpenWorkRecord(data.dir, 'run-1');
      record.maskWith(() => [secret]);
      // The quote keeps 80 characters: the secret starts at 70, so cutting first would leave "sk-live-01".
      const message = `${'x'.repeat(70)}${secret} – use this key?`;
      record.requestStarted(
        'elicitation',
        { message },
        {
          serverId: 'b',
          serverName: 'Server b',
          askedAt: '2026-12-04T10:01:00.000Z',
          signal: new AbortController().signal
        }
      );
      await record.landed();
      const text = fs.readFileSync(path.join(data.dir, OPEN_WORK_DIR, 'run-1.jsonl'), 'utf8');
      assert.ok(!text.includes('sk-live-01'), text);
      assert.ok(text.includes('••••'), 'the secret is masked where it was');

      const left = OpenWorkRecord.takeLeft(data.dir, new Set());
      assert.equal(left.work.length, 1);
      assert.ok(!(left.work[0]?.question ?? '').includes('sk-live'), left.work[0]?.question);
    } finally {
      data.remove();
    }
  });
});
