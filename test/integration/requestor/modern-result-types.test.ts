import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Host } from '../../../app/host/host.js';
import {
  discoverResult,
  startScriptedModernHost,
  type ScriptedRequest,
  type ScriptedModernHost
} from '../../support/scripted-modern-peer.js';
import { TASKS } from '../../support/modern-requestor.js';

/**
 * The `resultType` of a 2026-07-28 server's answers, as the requestor reads it (basic/index,
 * "ResultType": a value the client does not recognize is invalid; the recognized ones are the
 * core's and those of the extensions the request declared; an absent one is "complete"). The
 * tasks extension adds "task" for `tools/call` only: a `CreateTaskResult` to any other request
 * is an invalid answer.
 *
 * The server is a scripted JSON-RPC peer at the far end of an in-memory transport pair, so that
 * it can answer what no well-behaved server library would.
 */

const NOW = '2026-12-02T00:00:00.000Z';

/** A `CreateTaskResult` of the extension, as a server wrongly sends it to any request. */
const createTaskResult = {
  resultType: 'task',
  taskId: 'task-1',
  status: 'working',
  createdAt: NOW,
  lastUpdatedAt: NOW,
  ttlMs: 60_000,
  pollIntervalMs: 1_000
};

const tool = (name: string) => ({ name, inputSchema: { type: 'object', properties: {} } });

/** What the scripted server answers to each request it gets (a result, or nothing for a method it does not know). */
function answerOf(message: ScriptedRequest): Record<string, unknown> | undefined {
  const params = ('params' in message ? message.params : undefined) as { name?: string; uri?: string } | undefined;
  switch (message.method) {
    case 'server/discover':
      return discoverResult({ tools: {}, prompts: {}, resources: {}, extensions: { [TASKS]: {} } });
    case 'tools/list':
      return {
        resultType: 'complete',
        tools: [tool('unknown-type'), tool('no-type'), tool('complete')]
      };
    case 'tools/call':
      if (params?.name === 'unknown-type')
        return { resultType: 'deferred', content: [{ type: 'text', text: 'what is this?' }] };
      if (params?.name === 'no-type') return { content: [{ type: 'text', text: 'no resultType' }] };
      return { resultType: 'complete', content: [{ type: 'text', text: 'done' }] };
    case 'prompts/get':
      if (params?.name === 'task') return { ...createTaskResult };
      if (params?.name === 'unknown-type') return { resultType: 'later', messages: [] };
      return { resultType: 'complete', messages: [] };
    case 'resources/read':
      if (params?.uri === 'test://task') return { ...createTaskResult };
      return { resultType: 'complete', contents: [{ uri: String(params?.uri), text: 'ok' }] };
    default:
      return undefined;
  }
}

describe('the resultType of a 2026-07-28 server, as the requestor reads it', () => {
  let peer: ScriptedModernHost;
  let host: Host;

  before(async () => {
    peer = await startScriptedModernHost(answerOf);
    ({ host } = peer);
  });

  after(async () => {
    await peer.dispose();
  });

  it('refuses a tools/call answer whose resultType it does not recognize, rather than taking it for the result', async () => {
    await assert.rejects(
      host.call('tools.call', { serverId: 'scripted', name: 'unknown-type', arguments: {} }),
      (error: { code?: number; message?: string }) => {
        assert.equal(error.code, -32603);
        assert.match(error.message ?? '', /resultType "deferred"/);
        return true;
      }
    );
  });

  it('takes an answer without resultType as complete, and one with "complete" as the result', async () => {
    const plain = await host.call('tools.call', { serverId: 'scripted', name: 'no-type', arguments: {} });
    assert.equal(plain.type, 'result');
    const complete = await host.call('tools.call', { serverId: 'scripted', name: 'complete', arguments: {} });
    assert.equal(complete.type, 'result');
  });

  it('refuses a CreateTaskResult to prompts/get: the extension has tasks for tools/call only', async () => {
    await assert.rejects(
      host.call('prompts.get', { serverId: 'scripted', name: 'task' }),
      (error: { code?: number; message?: string }) => {
        assert.equal(error.code, -32603);
        assert.match(error.message ?? '', /resultType "task"/);
        return true;
      }
    );
  });

  it('refuses a CreateTaskResult to resources/read', async () => {
    await assert.rejects(
      host.call('resources.read', { serverId: 'scripted', uri: 'test://task' }),
      (error: { code?: number }) => error.code === -32603
    );
  });

  it('refuses a prompts/get answer whose resultType it does not recognize, and takes "complete"', async () => {
    await assert.rejects(
      host.call('prompts.get', { serverId: 'scripted', name: 'unknown-type' }),
      (error: { code?: number }) => error.code === -32603
    );
    const prompt = await host.call('prompts.get', { serverId: 'scripted', name: 'fine' });
    assert.deepEqual(prompt, { messages: [] });
  });
});
