import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { TaskHistory } from '../../../app/history/task-history.js';
import { SECRET_MASK } from '../../../app/core/secret-mask.js';
import type { OutboundTaskView } from '../../../app/contract/outbound-tasks.js';
import type { TaskRecord } from '../../../app/receiver/task-record.js';
import { confStoreFactory } from '../../../app/store/json-file-store.js';
import { ManualClock } from '../../support/manual-clock.js';
import { tempDir } from '../../support/host-fixture.js';

// In a describe of its own: npm test runs these files in one process, where a
// file's top-level hooks would run around every file's tests.
describe('secrets kept out of History', () => {
  const dirs: Array<{ remove: () => void }> = [];
  after(() => dirs.forEach((dir) => dir.remove()));

  const TOKEN = 'secret-123';
  /** A secret JSON text spells escaped: a tool answering with its environment as JSON shows it so. */
  const QUOTED = 'pa"ss\\word-42';

  function open(secrets: string[]) {
    const dir = tempDir('history-secrets-');
    dirs.push(dir);
    const history = new TaskHistory({
      dataDir: dir.dir,
      corruptDir: path.join(dir.dir, 'corrupt'),
      factory: confStoreFactory,
      clock: new ManualClock(Date.UTC(2026, 5, 1)),
      secretValues: () => secrets
    });
    history.load();
    return { history, dataDir: dir.dir };
  }

  /** Every file under `dir`, its bytes as text. */
  function filesText(dir: string): string {
    return fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8'))
      .join('\n');
  }

  describe('secrets in History', () => {
    it('masks secret values in a tool call’s arguments, result and error, in its search text and in the files', () => {
      const secrets = [TOKEN, QUOTED, 'short'];
      const { history, dataDir } = open(secrets);
      const env = JSON.stringify({ API_TOKEN: TOKEN, OTHER_TOKEN: QUOTED, NAME: 'short' }, null, 2);
      history.recordCall({
        call: {
          callId: 'c1',
          serverId: 'everything',
          serverName: 'Everything',
          toolName: 'get-env',
          startedAt: '2026-06-01T00:00:01.000Z',
          endedAt: '2026-06-01T00:00:02.000Z',
          state: 'completed'
        },
        arguments: { echo: `say ${TOKEN}` },
        result: { content: [{ type: 'text', text: env }] }
      });
      history.recordCall({
        call: {
          callId: 'c2',
          serverId: 'everything',
          serverName: 'Everything',
          toolName: 'echo',
          startedAt: '2026-06-01T00:00:03.000Z',
          endedAt: '2026-06-01T00:00:04.000Z',
          state: 'failed',
          error: { code: -32603, message: `bad token ${TOKEN}` }
        },
        arguments: {}
      });
      const [failed, answered] = history.list().entries.map((summary) => history.get(summary.id)!);
      assert.deepEqual(answered!.request, { name: 'get-env', arguments: { echo: `say ${SECRET_MASK}` } });
      const text = (answered!.result as { content: Array<{ text: string }> }).content[0]!.text;
      // Still the tool's JSON, the secrets masked; a value too short to mask is left.
      assert.deepEqual(JSON.parse(text), { API_TOKEN: SECRET_MASK, OTHER_TOKEN: SECRET_MASK, NAME: 'short' });
      assert.equal(failed!.error?.message, `bad token ${SECRET_MASK}`);
      assert.ok(
        !JSON.stringify(history.list().entries).includes(TOKEN),
        'nor do the rows (titles, previews, error lines)'
      );
      assert.equal(history.list({ text: TOKEN }).total, 0, 'a search for the secret finds nothing');
      assert.equal(history.list({ text: 'word-42' }).total, 0);
      assert.equal(history.list({ text: 'get-env' }).total, 1, 'the entry is still found by its tool');
      assert.ok(!history.exportJsonLines().includes(TOKEN));
      history.close();
      const stored = filesText(dataDir);
      assert.ok(stored.includes('get-env'), 'the entries were written');
      for (const secret of [TOKEN, 'word-42', JSON.stringify(QUOTED).slice(1, -1)])
        assert.ok(!stored.includes(secret), `the history files do not hold ${secret}`);
    });

    it('masks them in a received question and its answer, and in a requested task’s result', () => {
      const { history, dataDir } = open([TOKEN]);
      const at = '2026-06-01T00:00:00.000Z';
      const record: TaskRecord = {
        schemaVersion: 1,
        task: { taskId: 't1', status: 'completed', createdAt: at, lastUpdatedAt: at, ttl: 60_000 },
        owner: { serverId: 'alpha', serverName: 'Alpha', identity: 'id-alpha' },
        kind: 'elicitation',
        request: { mode: 'form', message: `Is ${TOKEN} yours?`, requestedSchema: { type: 'object', properties: {} } },
        expiresAt: null,
        notes: [],
        sequence: 1,
        outcome: { type: 'result', result: { action: 'accept', content: { answer: TOKEN } } }
      };
      history.recordReceived('t1', record);
      const view: OutboundTaskView = {
        outboundId: 'ob1',
        serverId: 'beta',
        serverName: 'Beta',
        toolName: 'report',
        arguments: { about: TOKEN },
        requestedTtl: 60_000,
        createdAt: at,
        updatedAt: at,
        taskId: 'st1',
        state: 'completed',
        task: { taskId: 'st1', status: 'completed', createdAt: at, lastUpdatedAt: at, ttl: 60_000 },
        expiresAt: null,
        progress: { count: 0, history: [] },
        outcome: { type: 'result', result: { content: [{ type: 'text', text: TOKEN }] }, fetchedAt: at }
      };
      history.recordRequested(view);
      const question = history.get('received:t1')!;
      assert.equal(question.title, `Is ${SECRET_MASK} yours?`);
      assert.deepEqual(question.result, { action: 'accept', content: { answer: SECRET_MASK } });
      const task = history.get('requested:ob1')!;
      assert.deepEqual(task.request, { name: 'report', arguments: { about: SECRET_MASK } });
      assert.deepEqual(task.result, { content: [{ type: 'text', text: SECRET_MASK }] });
      assert.equal(history.list({ text: TOKEN }).total, 0);
      history.close();
      assert.ok(!filesText(dataDir).includes(TOKEN));
    });

    it('keeps entries as they were when no secret is held', () => {
      const { history } = open([]);
      history.recordCall({
        call: {
          callId: 'c',
          serverId: 's',
          serverName: 'S',
          toolName: 'echo',
          startedAt: '2026-06-01T00:00:01.000Z',
          endedAt: '2026-06-01T00:00:02.000Z',
          state: 'completed'
        },
        arguments: { message: TOKEN },
        result: { content: [{ type: 'text', text: TOKEN }] }
      });
      assert.equal(history.list({ text: TOKEN }).total, 1);
      history.close();
    });
  });
});
