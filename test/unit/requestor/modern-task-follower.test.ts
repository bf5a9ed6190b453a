import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { ManualClock } from '../../support/manual-clock.js';
import { HostError } from '../../../app/core/errors.js';
import { OutboundTasks } from '../../../app/requestor/outbound-tasks.js';
import type { InputRequest, ModernPeer } from '../../../app/requestor/modern-task-follower.js';
import { tempTaskDir } from '../../support/requestor-harness.js';

/**
 * The 2026-07-28 follower on a manual clock, against a scripted peer: poll timing, ttl
 * expiry, loss, input requests that cannot be answered, and answered keys across a restart.
 */

let temp: ReturnType<typeof tempTaskDir>;
let clock: ManualClock;

// In a describe: with the unit tests in one process, a file's top-level hooks would run around every file's tests.
describe('the 2026-07-28 follower', () => {
  beforeEach(() => {
    temp = tempTaskDir();
    clock = new ManualClock();
  });
  afterEach(() => temp.cleanup());

  /** A scripted modern server: `tasks/get` answers with `next()`, every request is recorded. */
  function scriptedPeer(
    next: (call: number) => Record<string, unknown>,
    answer?: (request: InputRequest) => Promise<Record<string, unknown>>
  ) {
    const sent: Array<{ at: number; method: string; params: Record<string, unknown> }> = [];
    let gets = 0;
    const peer: ModernPeer = {
      acceptsTasks: true,
      async request(method, params) {
        sent.push({ at: clock.now(), method, params });
        switch (method) {
          case 'tools/list':
            return { tools: [{ name: 'job', inputSchema: { type: 'object' } }] };
          case 'tools/call':
            return { resultType: 'task', ...task('working') };
          case 'tasks/get':
            return next(++gets);
          default:
            return {};
        }
      },
      answerInput: answer ?? (async () => ({ action: 'accept', content: {} }))
    };
    return { peer, sent };
  }

  function task(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      taskId: 't-1',
      status,
      createdAt: '2026-01-01T00:00:00Z',
      lastUpdatedAt: new Date(clock.now()).toISOString(),
      ttlMs: 10_000,
      pollIntervalMs: 2_000,
      ...extra
    };
  }

  async function start(manager: OutboundTasks, peer: ModernPeer) {
    manager.attach('srv', 'Modern', new Client({ name: 't', version: '0' }), { modern: peer });
    const outcome = await manager.callTool('srv', 'job', {});
    assert.equal(outcome.type, 'task');
    return outcome.type === 'task' ? outcome.task : assert.fail('not a task');
  }

  test('polls at pollIntervalMs, and a task whose ttl runs out is expired and no longer polled', async () => {
    const manager = new OutboundTasks({ dir: temp.dir, clock });
    const { peer, sent } = scriptedPeer(() => task('working'));
    const created = await start(manager, peer);
    await clock.advance(9_000);
    assert.deepEqual(
      sent.filter((m) => m.method === 'tasks/get').map((m) => m.at - Date.parse(created.createdAt)),
      [2000, 4000, 6000, 8000]
    );
    await clock.advance(1_000);
    assert.equal(manager.get(created.outboundId)?.state, 'expired');
    const polls = sent.filter((m) => m.method === 'tasks/get').length;
    await clock.advance(10_000);
    assert.equal(sent.filter((m) => m.method === 'tasks/get').length, polls);
    manager.close();
  });

  test('a server that no longer knows the task before its ttl makes it lost, with the reason', async () => {
    const manager = new OutboundTasks({ dir: temp.dir, clock });
    const { peer } = scriptedPeer(() => {
      throw new HostError(-32602, 'Unknown task t-1');
    });
    const created = await start(manager, peer);
    await clock.advance(2_000);
    const lost = manager.get(created.outboundId)!;
    assert.equal(lost.state, 'lost');
    assert.equal(
      lost.reason,
      'Modern no longer has this task (it may have restarted, or keeps its tasks for one connection only). (It answered: Unknown task.)'
    );
    manager.close();
  });

  test('a tasks/get answer whose resultType Taskdesk does not recognize is invalid: its status is not taken', async () => {
    const manager = new OutboundTasks({ dir: temp.dir, clock });
    // MCP 2026-07-28 basic/index, ResultType: an unrecognized value MUST be considered invalid.
    const { peer } = scriptedPeer((call) =>
      call === 1
        ? { resultType: 'deferred', ...task('completed', { result: { content: [] } }) }
        : { resultType: 'complete', ...task('completed', { result: { content: [{ type: 'text', text: 'ok' }] } }) }
    );
    const created = await start(manager, peer);
    await clock.advance(2_000);
    const invalid = manager.get(created.outboundId)!;
    assert.equal(invalid.state, 'working');
    assert.equal(invalid.outcome, undefined);
    assert.equal(invalid.lastError?.method, 'tasks/get');
    assert.match(invalid.lastError?.message ?? '', /resultType "deferred"/);
    await clock.advance(2_000);
    const done = manager.get(created.outboundId)!;
    assert.equal(done.state, 'completed');
    assert.deepEqual(done.outcome?.type === 'result' && done.outcome.result, {
      content: [{ type: 'text', text: 'ok' }]
    });
    assert.equal(done.lastError, undefined);
    manager.close();
  });

  test('an input request Taskdesk cannot answer is reported once, never sent, and not asked again', async () => {
    const manager = new OutboundTasks({ dir: temp.dir, clock });
    let asked = 0;
    const { peer, sent } = scriptedPeer(
      () => task('input_required', { inputRequests: { 'roots-1': { method: 'roots/list', params: {} } } }),
      async () => {
        asked += 1;
        throw new HostError(-32601, 'Taskdesk does not answer roots/list requests.');
      }
    );
    const created = await start(manager, peer);
    await clock.advance(6_000);
    const view = manager.get(created.outboundId)!;
    assert.equal(view.state, 'input_required');
    assert.equal(view.lastError?.method, 'roots/list (input roots-1)');
    assert.equal(asked, 1);
    assert.equal(sent.filter((m) => m.method === 'tasks/update').length, 0);
    manager.close();
  });

  test('answered keys are kept on disk: after a restart the task is polled at once and the key is not asked again', async () => {
    const first = new OutboundTasks({ dir: temp.dir, clock });
    const question = {
      'q-1': {
        method: 'elicitation/create',
        params: { mode: 'form', message: '?', requestedSchema: { type: 'object', properties: {} } }
      }
    };
    const one = scriptedPeer(() => task('input_required', { inputRequests: question }));
    const created = await start(first, one.peer);
    await clock.advance(2_000);
    assert.equal(one.sent.filter((m) => m.method === 'tasks/update').length, 1);
    assert.deepEqual(first.get(created.outboundId)?.answeredInputs, ['q-1']);
    first.close();

    const second = new OutboundTasks({ dir: temp.dir, clock });
    let asked = 0;
    const two = scriptedPeer(
      (call) =>
        call === 1
          ? task('input_required', { inputRequests: question })
          : task('completed', { result: { content: [{ type: 'text', text: 'ok' }] } }),
      async () => {
        asked += 1;
        return { action: 'accept', content: {} };
      }
    );
    second.attach('srv', 'Modern', new Client({ name: 't', version: '0' }), { modern: two.peer });
    await clock.advance(0);
    assert.equal(two.sent[0]?.method, 'tasks/get', 'polled at once on attach');
    await clock.advance(2_000);
    const done = second.get(created.outboundId)!;
    assert.equal(done.state, 'completed');
    assert.deepEqual(done.outcome?.type === 'result' ? done.outcome.result : undefined, {
      content: [{ type: 'text', text: 'ok' }]
    });
    assert.equal(asked, 0);
    assert.equal(two.sent.filter((m) => m.method === 'tasks/update').length, 0);
    second.close();
  });

  test('a cancel while input_required withdraws the question and does not ask it again, though the server still lists it', async () => {
    const manager = new OutboundTasks({ dir: temp.dir, clock });
    const question = {
      'q-1': {
        method: 'elicitation/create',
        params: { mode: 'form', message: '?', requestedSchema: { type: 'object', properties: {} } }
      }
    };
    const asked: AbortSignal[] = [];
    // A server whose cancel is eventually consistent: input_required for a few more polls.
    const { peer, sent } = scriptedPeer(() => task('input_required', { inputRequests: question }));
    // Asked in the inbox: no answer until the question is withdrawn.
    peer.answerInput = (_request, context) => {
      asked.push(context.signal);
      return new Promise((_resolve, reject) =>
        context.signal.addEventListener('abort', () => reject(new Error('withdrawn')))
      );
    };
    const created = await start(manager, peer);
    await clock.advance(2_000);
    assert.equal(asked.length, 1);
    await manager.cancel(created.outboundId);
    assert.equal(asked[0]?.aborted, true, 'the question left the inbox');
    await clock.advance(6_000);
    assert.equal(asked.length, 1, 'not asked again');
    assert.equal(sent.filter((m) => m.method === 'tasks/cancel').length, 1);
    assert.equal(sent.filter((m) => m.method === 'tasks/update').length, 0);
    assert.ok(sent.filter((m) => m.method === 'tasks/get').length >= 4, 'still polled until the server catches up');
    manager.close();
  });

  test('an answer tasks/update failed to deliver (a transient server error) is kept and sent again after the next poll; a refused one is not', async () => {
    const manager = new OutboundTasks({ dir: temp.dir, clock });
    const question = {
      'q-1': {
        method: 'elicitation/create',
        params: { mode: 'form', message: '?', requestedSchema: { type: 'object', properties: {} } }
      }
    };
    let asked = 0;
    // As the SDK client rejects with a server's JSON-RPC error.
    const updateErrors = [new McpError(-32603, 'database is locked'), new McpError(-32602, 'q-1: not a valid answer')];
    const updates: Array<Record<string, unknown>> = [];
    const { peer } = scriptedPeer(
      () => task('input_required', { inputRequests: question }),
      async () => {
        asked += 1;
        return { action: 'accept', content: { name: 'Ada' } };
      }
    );
    const request = peer.request.bind(peer);
    peer.request = async (method, params, options) => {
      if (method !== 'tasks/update') return request(method, params, options);
      updates.push(params);
      const error = updateErrors.shift();
      if (error) throw error;
      return {};
    };
    const created = await start(manager, peer);
    await clock.advance(2_000);
    assert.equal(updates.length, 1);
    let view = manager.get(created.outboundId)!;
    assert.equal(view.lastError?.method, 'tasks/update');
    assert.equal(view.answeredInputs, undefined);
    await clock.advance(2_000);
    assert.equal(updates.length, 2, 'the kept answer went again after the next poll');
    assert.deepEqual(updates[1]?.inputResponses, { 'q-1': { action: 'accept', content: { name: 'Ada' } } });
    assert.equal(asked, 1, 'the user was asked once');
    await clock.advance(4_000);
    assert.equal(updates.length, 2, 'a refused answer (−32602) is not sent again');
    view = manager.get(created.outboundId)!;
    assert.equal(view.lastError?.code, -32602);
    assert.equal(asked, 1);
    manager.close();
  });

  test('an answer refused with −32601 (a server without tasks/update) is not sent again', async () => {
    const manager = new OutboundTasks({ dir: temp.dir, clock });
    const question = {
      'q-1': {
        method: 'elicitation/create',
        params: { mode: 'form', message: '?', requestedSchema: { type: 'object', properties: {} } }
      }
    };
    let asked = 0;
    const updates: Array<Record<string, unknown>> = [];
    const { peer } = scriptedPeer(
      () => task('input_required', { inputRequests: question }),
      async () => {
        asked += 1;
        return { action: 'accept', content: { name: 'Ada' } };
      }
    );
    const request = peer.request.bind(peer);
    peer.request = async (method, params, options) => {
      if (method !== 'tasks/update') return request(method, params, options);
      updates.push(params);
      throw new McpError(-32601, 'Method not found');
    };
    const created = await start(manager, peer);
    await clock.advance(2_000);
    assert.equal(updates.length, 1);
    await clock.advance(6_000);
    assert.equal(updates.length, 1, 'not sent again after later polls');
    const view = manager.get(created.outboundId)!;
    assert.equal(view.lastError?.method, 'tasks/update');
    assert.equal(view.lastError?.code, -32601);
    assert.equal(asked, 1);
    manager.close();
  });
});
