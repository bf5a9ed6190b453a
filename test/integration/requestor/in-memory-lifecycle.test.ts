import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, afterEach, beforeEach, test } from 'node:test';
import { ManualClock } from '../../support/manual-clock.js';
import { type HostError } from '../../../app/core/errors.js';
import { OutboundTasks } from '../../../app/requestor/outbound-tasks.js';
import type { OutboundTaskEvent } from '../../../app/contract/outbound-tasks.js';
import { connectInMemory, countSent, resultText, tempTaskDir } from '../../support/requestor-harness.js';
import { createPlainToolServer, createTaskToolServer } from '../../support/task-tool-server.js';

// In a describe of its own: npm test runs the integration files in one process, where a
// file's top-level hooks would run around every file's tests.
describe('outbound tasks over in-memory servers: their lifecycle', () => {
  let temp: ReturnType<typeof tempTaskDir>;
  let clock: ManualClock;
  let manager: OutboundTasks;

  beforeEach(() => {
    temp = tempTaskDir();
    clock = new ManualClock();
    manager = new OutboundTasks({ dir: temp.dir, clock, defaultTtlMs: 600_000 });
  });
  afterEach(() => {
    manager.close();
    temp.cleanup();
  });

  async function taskServer(options: Partial<Parameters<typeof createTaskToolServer>[0]> = {}) {
    const { server, store } = createTaskToolServer({ clock, pollInterval: 1000, ...options });
    const { client, sent } = await connectInMemory(server, clock);
    manager.attach('srv', 'Task Server', client);
    return { server, store, client, sent };
  }

  function taskOf(outcome: Awaited<ReturnType<OutboundTasks['callTool']>>) {
    assert.equal(outcome.type, 'task');
    return outcome.task;
  }

  test('a required tool runs as a task: polled exactly at pollInterval, result fetched and persisted, events emitted', async () => {
    const { sent } = await taskServer({ immediateResponse: 'Working on it; I will report back.' });
    const events: OutboundTaskEvent[] = [];
    manager.on((e) => events.push(e));

    const created = taskOf(
      await manager.callTool('srv', 'work-required', { durationMs: 2500, label: 'a' }, { ttlMs: 120_000 })
    );
    assert.equal(created.state, 'working');
    assert.equal(created.immediateResponse, 'Working on it; I will report back.');
    assert.equal(created.requestedTtl, 120_000);
    assert.equal(created.task.ttl, 120_000);
    const call = sent.find((m) => m.method === 'tools/call');
    assert.deepEqual(call?.params?.task, { ttl: 120_000 });

    await clock.advance(999);
    assert.equal(countSent(sent, 'tasks/get'), 0, 'no poll before createdAt + pollInterval');
    await clock.advance(1);
    assert.equal(countSent(sent, 'tasks/get'), 1);
    await clock.advance(2000); // polls at 2000 (working) and 3000 (completed, work ended at 2500)
    const start = created.createdAt;
    const pollTimes = sent.filter((m) => m.method === 'tasks/get').map((m) => m.at - Date.parse(start));
    assert.deepEqual(
      pollTimes,
      [1000, 2000, 3000],
      'ceil(2500 / 1000) polls, each exactly one interval after the last'
    );
    assert.equal(countSent(sent, 'tasks/result'), 1);

    const done = manager.get(created.outboundId)!;
    assert.equal(done.state, 'completed');
    assert.equal(resultText(done), 'done: a');
    await clock.advance(10_000);
    assert.equal(countSent(sent, 'tasks/get'), 3, 'no polling after the result is kept');

    const onDisk = JSON.parse(fs.readFileSync(path.join(temp.dir.dir, `${created.outboundId}.json`), 'utf8'));
    assert.equal(onDisk.schemaVersion, 1);
    assert.equal(onDisk.state, 'completed');
    assert.equal(onDisk.toolName, 'work-required');
    assert.deepEqual(onDisk.arguments, { durationMs: 2500, label: 'a' });
    assert.equal(onDisk.outcome.result.content[0].text, 'done: a');
    const states = events.flatMap((e) => (e.type === 'changed' ? [e.task.state] : []));
    assert.equal(states[0], 'working');
    assert.equal(states.at(-1), 'completed');
    assert.deepEqual(manager.describe('srv', created.taskId), {
      toolName: 'work-required',
      outboundId: created.outboundId
    });
  });

  test('optional tools are tasks by default and plain on request; forbidden tools are plain; wrong choices are refused unsent', async () => {
    const { sent } = await taskServer({ pollInterval: 20 });
    const tools = await manager.listTools('srv');
    const modes = Object.fromEntries(tools.map((t) => [t.name, [t.taskSupport, t.callMode]]));
    assert.deepEqual(modes['work-required'], ['required', 'task']);
    assert.deepEqual(modes['work-optional'], ['optional', 'task-or-plain']);
    assert.deepEqual(modes['work-forbidden'], ['forbidden', 'plain']);
    assert.ok(tools.find((t) => t.name === 'work-required')?.inputSchema.properties);

    taskOf(await manager.callTool('srv', 'work-optional', { durationMs: 10 }));
    const plain = await manager.callTool('srv', 'work-forbidden', { label: 'x' });
    assert.deepEqual(plain, { type: 'result', result: { content: [{ type: 'text', text: 'plain: x' }] } });

    const before = countSent(sent, 'tools/call');
    await assert.rejects(
      manager.callTool('srv', 'work-forbidden', {}, { asTask: true }),
      (e: HostError) => e.code === -32600 && /cannot be called as a task/.test(e.message)
    );
    await assert.rejects(
      manager.callTool('srv', 'work-required', { durationMs: 1 }, { asTask: false }),
      (e: HostError) => /requires task execution/.test(e.message)
    );
    assert.equal(countSent(sent, 'tools/call'), before, 'refused calls are never sent');

    const toolCalls = sent.filter((m) => m.method === 'tools/call');
    assert.deepEqual(
      toolCalls.map((m) => [m.params?.name, m.params?.task !== undefined]),
      [
        ['work-optional', true],
        ['work-forbidden', false]
      ]
    );
  });

  test('an optional tool called plainly on request sends no task and returns the result', async () => {
    // The SDK server runs an optional tool called plainly as a task of its own and waits in real time.
    const { sent, store } = await taskServer({ pollInterval: 5 });
    const pending = manager.callTool('srv', 'work-optional', { durationMs: 0, label: 'p' }, { asTask: false });
    await clock.advance(0);
    const outcome = await pending;
    assert.equal(outcome.type, 'result');
    assert.equal(sent.find((m) => m.method === 'tools/call')?.params?.task, undefined);
    assert.equal(manager.list().length, 0, 'a plain call is not an outbound task');
    store.close();
  });

  test('arguments are validated against inputSchema with one problem per field, and nothing is sent', async () => {
    const { sent } = await taskServer();
    await manager.listTools('srv');
    const before = sent.length;
    await assert.rejects(
      manager.callTool('srv', 'work-required', { durationMs: 'soon', progressSteps: -1 }),
      (e: HostError) => {
        assert.equal(e.code, -32602);
        const problems = (e.data as { problems: Array<{ path: string; message: string }> }).problems;
        assert.deepEqual(problems.map((p) => p.path).sort(), ['/durationMs', '/progressSteps']);
        assert.match(e.message, /durationMs: must be (integer|number)/);
        return true;
      }
    );
    await assert.rejects(manager.callTool('srv', 'work-required', {}), (e: HostError) =>
      /must have required property 'durationMs'/.test(e.message)
    );
    await assert.rejects(manager.callTool('srv', 'no-such-tool', {}), (e: HostError) =>
      /has no tool "no-such-tool"/.test(e.message)
    );
    assert.equal(sent.filter((m) => m.method === 'tools/call').length, 0);
    assert.ok(sent.length - before <= 1, 'only a tools/list refresh for the unknown tool');
  });

  test('a tool failing with isError keeps the statusMessage and the CallToolResult', async () => {
    await taskServer();
    const created = taskOf(await manager.callTool('srv', 'fail-tool', { durationMs: 500 }));
    await clock.advance(1000);
    const failed = manager.get(created.outboundId)!;
    assert.equal(failed.state, 'failed');
    assert.equal(failed.task.statusMessage, 'Tool reported an error: disk full');
    assert.equal(failed.outcome?.type, 'result');
    assert.equal(failed.outcome?.type === 'result' && failed.outcome.result.isError, true);
    assert.equal(resultText(failed), 'disk full');
  });

  test('a task failing with a JSON-RPC error keeps the statusMessage and the error itself', async () => {
    await taskServer();
    const created = taskOf(await manager.callTool('srv', 'fail-rpc', { durationMs: 500 }));
    await clock.advance(1000);
    const failed = manager.get(created.outboundId)!;
    assert.equal(failed.state, 'failed');
    assert.equal(failed.task.statusMessage, 'The upstream service refused the job');
    assert.equal(failed.outcome?.type, 'error');
    const error = failed.outcome?.type === 'error' ? failed.outcome.error : undefined;
    assert.equal(error?.code, -32050);
    // The SDK server puts its own "MCP error <code>: " prefix on the wire; the message is kept as received.
    assert.match(error?.message ?? '', /Upstream quota exhausted$/);
    assert.deepEqual(error?.data, { retryAfterS: 60 });
  });

  test('a slow task cancelled midway stays cancelled; cancelling again sends nothing', async () => {
    const { sent, store } = await taskServer();
    const created = taskOf(await manager.callTool('srv', 'slow', { durationMs: 10_000 }));
    await clock.advance(3000);
    assert.equal(manager.get(created.outboundId)!.state, 'working');
    const cancelled = await manager.cancel(created.outboundId);
    assert.equal(cancelled.state, 'cancelled');
    assert.equal(store.statusOf(created.taskId), 'cancelled');
    await clock.advance(10_000);
    const after = manager.get(created.outboundId)!;
    assert.equal(after.state, 'cancelled', 'the late completion on the server does not change it');
    assert.ok(after.outcome, 'tasks/result was asked once and its answer kept');
    assert.equal(countSent(sent, 'tasks/cancel'), 1);
    const polls = countSent(sent, 'tasks/get');
    await manager.cancel(created.outboundId);
    assert.equal(countSent(sent, 'tasks/cancel'), 1);
    await clock.advance(5000);
    assert.equal(countSent(sent, 'tasks/get'), polls, 'no polling after cancellation settled');
  });

  test('cancelling a task the server already finished (-32602) refreshes it instead of failing', async () => {
    const { sent } = await taskServer({ pollInterval: 60_000 });
    const created = taskOf(await manager.callTool('srv', 'work-required', { durationMs: 100 }));
    await clock.advance(200); // done on the server, not yet polled
    assert.equal(manager.get(created.outboundId)!.state, 'working');
    const view = await manager.cancel(created.outboundId);
    assert.equal(countSent(sent, 'tasks/cancel'), 1);
    assert.equal(view.state, 'completed');
    await clock.advance(0);
    assert.equal(resultText(manager.get(created.outboundId)!), 'done: ');
  });

  test('a server without tasks.cancel: cancel is a clear error and no tasks/cancel is sent', async () => {
    const { sent } = await taskServer({ cancel: false });
    const created = taskOf(await manager.callTool('srv', 'slow', { durationMs: 10_000 }));
    await assert.rejects(manager.cancel(created.outboundId), (e: HostError) => {
      assert.equal(e.code, -32601);
      assert.match(e.message, /does not support tasks\/cancel.*cannot be cancelled/);
      return true;
    });
    assert.equal(countSent(sent, 'tasks/cancel'), 0);
    assert.equal(manager.get(created.outboundId)!.state, 'working');
  });

  test('a server without the tasks capability never gets a task; its required tool is refused unsent', async () => {
    const { server, calls } = createPlainToolServer();
    const { client, sent } = await connectInMemory(server, clock);
    manager.attach('plain', 'Plain Server', client);
    const tools = await manager.listTools('plain');
    assert.deepEqual(
      tools.map((t) => [t.name, t.callMode]),
      [
        ['work-required', 'unavailable'],
        ['work-optional', 'plain'],
        ['work-forbidden', 'plain']
      ]
    );
    await assert.rejects(manager.callTool('plain', 'work-required', {}), (e: HostError) => {
      assert.match(
        e.message,
        /must be called as a task, but server "Plain Server" does not declare tasks\.requests\.tools\.call.*No request was sent/
      );
      return true;
    });
    await assert.rejects(manager.callTool('plain', 'work-optional', {}, { asTask: true }));
    const outcome = await manager.callTool('plain', 'work-optional', { label: 'x' });
    assert.equal(outcome.type, 'result');
    assert.deepEqual(calls, [{ name: 'work-optional', task: undefined }]);
    assert.equal(sent.filter((m) => m.method === 'tools/call' && m.params?.task !== undefined).length, 0);
    await assert.rejects(manager.listServerTasks('plain'), /does not support tasks\/list/);
  });
});
