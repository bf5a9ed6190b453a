import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { OutboundTaskStore } from '../../../app/requestor/outbound-task-store.js';
import { SECRET_MASK } from '../../../app/core/secret-mask.js';
import { OutboundTaskViewSchema, type OutboundTaskView } from '../../../app/contract/outbound-tasks.js';
import { countingOutboundLog, tempTaskDir } from '../../support/requestor-harness.js';

const TOKEN = 'secret-123';
const at = new Date(Date.UTC(2026, 0, 1)).toISOString();

function finished(outboundId: string): OutboundTaskView {
  return OutboundTaskViewSchema.parse({
    outboundId,
    serverId: 'srv',
    serverName: 'Server',
    toolName: 'get-env',
    arguments: {},
    requestedTtl: 60_000,
    createdAt: at,
    updatedAt: at,
    taskId: `t-${outboundId}`,
    state: 'completed',
    task: { taskId: `t-${outboundId}`, status: 'completed', createdAt: at, lastUpdatedAt: at, ttl: 60_000 },
    expiresAt: null,
    progress: { count: 0, history: [] },
    outcome: {
      type: 'result',
      result: { content: [{ type: 'text', text: JSON.stringify({ API_TOKEN: TOKEN }) }] },
      fetchedAt: at
    }
  });
}

/** Every file under `dir`, its bytes as text. */
function filesText(dir: string): string {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

test('a task’s stored outcome has the secret values masked, in documents and in the log; the live view keeps them', async () => {
  const temp = tempTaskDir();
  try {
    const view = finished('ob-doc');
    const documents = new OutboundTaskStore(temp.dir, undefined, undefined, () => [TOKEN]);
    await documents.save(view);
    const logged = countingOutboundLog(temp);
    const log = new OutboundTaskStore(temp.dir, logged.log, undefined, () => [TOKEN]);
    await log.save(finished('ob-log'));
    assert.deepEqual(view, finished('ob-doc'), 'the view given (what Tasks shows while Taskdesk runs) is not changed');
    const records = logged.reload();
    log.close();
    const stored = filesText(temp.root);
    assert.ok(stored.includes('get-env'), 'the tasks were written');
    assert.ok(!stored.includes(TOKEN), 'no file holds the secret');
    const outcomes = [
      new OutboundTaskStore(temp.dir).loadAll().tasks.find((task) => task.outboundId === 'ob-doc')?.outcome,
      records.get('ob-log')?.outcome
    ];
    for (const outcome of outcomes)
      assert.deepEqual(outcome, {
        type: 'result',
        result: { content: [{ type: 'text', text: JSON.stringify({ API_TOKEN: SECRET_MASK }) }] },
        fetchedAt: at
      });
  } finally {
    temp.cleanup();
  }
});
