import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';
import { systemClock } from '../../../app/core/clock.js';
import { type HostError } from '../../../app/core/errors.js';
import { OutboundTasks } from '../../../app/requestor/outbound-tasks.js';
import {
  recordResponses,
  recordSends,
  resultText,
  tempTaskDir,
  waitForTask,
  type SentMessage
} from '../../support/requestor-harness.js';

// In a describe of its own: npm test runs the integration files in one process, where a
// file's top-level hooks would run around every file's tests.
describe('the requestor against server-everything over stdio', () => {
  /**
   * The third-party reference server over stdio: `simulate-research-query` declares
   * `taskSupport: required`, runs four 1 s stages, and with `ambiguous: true` goes
   * `input_required` and elicits through the `tasks/result` side channel.
   */
  const serverPath = fileURLToPath(
    new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url)
  );

  let temp: ReturnType<typeof tempTaskDir>;
  let manager: OutboundTasks;
  let client: Client;
  let sent: SentMessage[];
  let responses: Map<string | number, number>;
  const elicitations: Array<{ relatedTaskId: string | undefined; described: unknown; message: string }> = [];
  const onSent = new Set<() => void>();

  /** Resolves once `count` tasks/get of the task have been sent after its (blocking) tasks/result. */
  function pollsWhileBlocked(taskId: string, count: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        const blocking = sent.find((m) => m.method === 'tasks/result' && m.params?.taskId === taskId);
        if (!blocking) return;
        const polls = sent.filter(
          (m) => m.method === 'tasks/get' && m.params?.taskId === taskId && m.seq > blocking.seq
        );
        if (polls.length < count) return;
        onSent.delete(check);
        resolve();
      };
      onSent.add(check);
      check();
    });
  }

  before(async () => {
    temp = tempTaskDir();
    manager = new OutboundTasks({ dir: temp.dir, clock: systemClock });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [serverPath, 'stdio'],
      stderr: 'pipe'
    });
    sent = recordSends(transport, systemClock);
    // Told after each message sent (wrapping the recorder), for what waits on the wire's traffic.
    const recordedSend = transport.send.bind(transport);
    transport.send = async (message) => {
      await recordedSend(message);
      for (const listener of [...onSent]) listener();
    };
    client = new Client({ name: 'taskdesk-test', version: '0.0.0' }, { capabilities: { elicitation: {} } });
    // Stands in for the inbox, which the lead's connection code routes side-channel requests to.
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const related = request.params._meta?.[RELATED_TASK_META_KEY];
      elicitations.push({
        relatedTaskId: related?.taskId,
        described: related ? manager.describe('everything', related.taskId) : undefined,
        message: request.params.message
      });
      // Answered once the follower has polled twice while its tasks/result waits on this answer:
      // the test below asserts that it keeps polling meanwhile, which real time alone made a race.
      if (related?.taskId) await pollsWhileBlocked(related.taskId, 2);
      return { action: 'accept', content: { interpretation: 'snake' } };
    });
    await client.connect(transport);
    responses = recordResponses(transport);
    manager.attach('everything', 'Everything', client);
  });

  after(async () => {
    manager.close();
    await client.close();
    temp.cleanup();
  });

  test('simulate-research-query is never called plainly: the refusal sends nothing', async () => {
    const tools = await manager.listTools('everything');
    const research = tools.find((t) => t.name === 'simulate-research-query');
    assert.equal(research?.taskSupport, 'required');
    assert.equal(research?.callMode, 'task');
    await assert.rejects(
      manager.callTool('everything', 'simulate-research-query', { topic: 'x' }, { asTask: false }),
      (e: HostError) => /requires task execution/.test(e.message)
    );
    assert.equal(sent.filter((m) => m.method === 'tools/call').length, 0);
  });

  test(
    'a research query completes, and an ambiguous one elicits through tasks/result and then completes',
    { timeout: 30_000 },
    async () => {
      const states: string[] = [];
      const plain = await manager.callTool('everything', 'simulate-research-query', { topic: 'MCP tasks' });
      const ambiguous = await manager.callTool('everything', 'simulate-research-query', {
        topic: 'python',
        ambiguous: true
      });
      assert.equal(plain.type, 'task');
      assert.equal(ambiguous.type, 'task');
      if (plain.type !== 'task' || ambiguous.type !== 'task') return;
      manager.on((e) => {
        if (e.type === 'changed' && e.task.outboundId === ambiguous.task.outboundId && states.at(-1) !== e.task.state)
          states.push(e.task.state);
      });

      const [plainDone, ambiguousDone] = await Promise.all([
        waitForTask(manager, plain.task.outboundId, (t) => t.outcome !== undefined && t.state === 'completed'),
        waitForTask(manager, ambiguous.task.outboundId, (t) => t.outcome !== undefined && t.state === 'completed')
      ]);

      assert.match(resultText(plainDone) ?? '', /# Research Report: MCP tasks/);
      assert.match(resultText(ambiguousDone) ?? '', /# Research Report: python \(snake\)/);
      assert.ok(states.includes('input_required'), `went through input_required: ${states.join(' → ')}`);
      assert.equal(states.at(-1), 'completed');

      assert.equal(elicitations.length, 1);
      assert.equal(elicitations[0]!.relatedTaskId, ambiguous.task.taskId);
      assert.deepEqual(elicitations[0]!.described, {
        toolName: 'simulate-research-query',
        outboundId: ambiguous.task.outboundId
      });

      // On the wire: every tools/call was task-augmented, and polling went on while tasks/result was blocked.
      const calls = sent.filter((m) => m.method === 'tools/call');
      assert.equal(calls.length, 2);
      assert.ok(calls.every((m) => typeof m.params?.task === 'object'));
      const ambiguousTaskId = ambiguous.task.taskId;
      const blocking = sent.find((m) => m.method === 'tasks/result' && m.params?.taskId === ambiguousTaskId);
      assert.ok(blocking?.id !== undefined);
      const answeredAt = responses.get(blocking.id);
      assert.ok(answeredAt !== undefined);
      const pollsWhileBlocked = sent.filter(
        (m) =>
          m.method === 'tasks/get' && m.params?.taskId === ambiguousTaskId && m.seq > blocking.seq && m.seq < answeredAt
      );
      assert.ok(
        pollsWhileBlocked.length >= 2,
        `kept polling while tasks/result was pending (${pollsWhileBlocked.length} polls)`
      );
    }
  );
});
