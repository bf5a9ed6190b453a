import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { systemClock } from '../../../app/core/clock.js';
import { OutboundTasks } from '../../../app/requestor/outbound-tasks.js';
import { countSent, recordSends, resultText, tempTaskDir, waitForTask } from '../../support/requestor-harness.js';
import { startTaskToolHttpServer } from '../../support/requestor-http-server.js';
import { ClockedTaskStore } from '../../support/requestor-task-store.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const stdioServer = fileURLToPath(new URL('../../support/requestor-stdio-server.ts', import.meta.url));

async function connect(transport: Transport) {
  const sent = recordSends(transport, systemClock);
  const client = new Client({ name: 'taskdesk-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, sent };
}

function callTask(manager: OutboundTasks, serverId: string, args: Record<string, unknown>) {
  return manager.callTool(serverId, 'work-required', args).then((outcome) => {
    assert.equal(outcome.type, 'task');
    return outcome.type === 'task' ? outcome.task : assert.fail('not a task');
  });
}

test(
  'Streamable HTTP: a task started by one manager is resumed and finished by the next one on the same directory',
  { timeout: 20_000 },
  async () => {
    const temp = tempTaskDir();
    const store = new ClockedTaskStore({ clock: systemClock, pollInterval: 100 });
    const http = await startTaskToolHttpServer({ clock: systemClock, store });
    try {
      const first = new OutboundTasks({ dir: temp.dir, clock: systemClock });
      const one = await connect(new StreamableHTTPClientTransport(http.url));
      first.attach('http', 'HTTP Task Server', one.client);
      const created = await callTask(first, 'http', { durationMs: 800, label: 'durable' });
      first.close();
      await one.client.close();

      const second = new OutboundTasks({ dir: temp.dir, clock: systemClock });
      const reloaded = second.get(created.outboundId);
      assert.equal(reloaded?.state, 'working');
      assert.equal(reloaded?.taskId, created.taskId);
      const two = await connect(new StreamableHTTPClientTransport(http.url));
      second.attach('http', 'HTTP Task Server', two.client);
      const done = await waitForTask(second, created.outboundId, (t) => t.outcome !== undefined);
      assert.equal(done.state, 'completed');
      assert.equal(resultText(done), 'done: durable');
      assert.equal(countSent(two.sent, 'tools/call'), 0, 'resumed, not called again');
      assert.ok(countSent(two.sent, 'tasks/get') >= 1);
      assert.equal(countSent(two.sent, 'tasks/result'), 1);
      second.close();
      await two.client.close();
      assert.equal(
        new OutboundTasks({ dir: temp.dir, clock: systemClock }).get(created.outboundId)?.state,
        'completed',
        'the outcome is on disk'
      );
    } finally {
      store.close();
      await http.close();
      temp.cleanup();
    }
  }
);

test(
  'stdio: after both sides restart, a server that forgot the task makes it lost, with the reason',
  { timeout: 20_000 },
  async () => {
    const temp = tempTaskDir();
    const spawn = () =>
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', stdioServer, '{"pollInterval":200}'],
        cwd: root,
        stderr: 'pipe'
      });
    try {
      const first = new OutboundTasks({ dir: temp.dir, clock: systemClock });
      const one = await connect(spawn());
      first.attach('stdio', 'Stdio Task Server', one.client);
      const created = await callTask(first, 'stdio', { durationMs: 60_000 });
      first.close();
      await one.client.close(); // ends the server process and everything it knew

      const second = new OutboundTasks({ dir: temp.dir, clock: systemClock });
      const two = await connect(spawn());
      second.attach('stdio', 'Stdio Task Server', two.client);
      const lost = await waitForTask(second, created.outboundId, (t) => t.state === 'lost');
      // A sentence for a person: the server's own words, without the SDK's "MCP error -32602: " or the task id.
      assert.equal(
        lost.reason,
        'Stdio Task Server no longer has this task (it may have restarted, or keeps its tasks for one connection only). (It answered: Failed to retrieve task: Task not found.)'
      );
      assert.equal(lost.outcome, undefined);
      assert.equal(countSent(two.sent, 'tasks/result'), 0);
      second.close();
      await two.client.close();
    } finally {
      temp.cleanup();
    }
  }
);
