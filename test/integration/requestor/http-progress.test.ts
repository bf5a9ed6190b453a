import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { systemClock } from '../../../app/core/clock.js';
import { OutboundTasks } from '../../../app/requestor/outbound-tasks.js';
import { resultText, tempTaskDir, waitForTask } from '../../support/requestor-harness.js';
import { startTaskToolHttpServer } from '../../support/requestor-http-server.js';
import { ClockedTaskStore } from '../../support/requestor-task-store.js';

test(
  'Streamable HTTP: progress a server sends after its CreateTaskResult (on the session stream) reaches the task',
  { timeout: 20_000 },
  async () => {
    const temp = tempTaskDir();
    const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 100 });
    const http = await startTaskToolHttpServer({ clock: systemClock, store });
    const manager = new OutboundTasks({ dir: temp.dir, clock: systemClock });
    const client = new Client({ name: 'taskdesk-test', version: '0.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(http.url));
      manager.attach('http', 'HTTP Task Server', client);
      const outcome = await manager.callTool('http', 'work-required', {
        durationMs: 1500,
        label: 'weekly',
        progressSteps: 2
      });
      assert.equal(outcome.type, 'task');
      const { outboundId } = outcome.type === 'task' ? outcome.task : assert.fail('not a task');
      // Both steps come after the CreateTaskResult (at a third and two thirds of the work).
      const withProgress = await waitForTask(manager, outboundId, (t) => t.progress.count === 2);
      assert.deepEqual(
        withProgress.progress.history.map((entry) => [entry.progress, entry.total, entry.message]),
        [
          [1, 2, 'step 1'],
          [2, 2, 'step 2']
        ]
      );
      const done = await waitForTask(manager, outboundId, (t) => t.outcome !== undefined);
      assert.equal(resultText(done), 'done: weekly');
      assert.equal(done.progress.count, 2, 'the progress is kept with the finished task');
    } finally {
      manager.close();
      await client.close();
      store.close();
      await http.close();
      temp.cleanup();
    }
  }
);
