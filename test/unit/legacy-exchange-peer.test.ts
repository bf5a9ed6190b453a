import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { legacyExchangePeer } from '../../app/requestor/legacy-exchange-peer.js';

/** A client whose every request gets `answer` (thrown when it is an error); the options it was given are kept. */
function clientAnswering(answer: unknown): { client: Client; sent: Array<{ signal?: AbortSignal }> } {
  const sent: Array<{ signal?: AbortSignal }> = [];
  const client = {
    request: (_request: unknown, _schema: unknown, options: { signal?: AbortSignal }) => {
      sent.push(options);
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    }
  } as unknown as Client;
  return { client, sent };
}

const link = (id: string) => ({
  mode: 'url',
  elicitationId: id,
  url: `https://${id}.example.com/`,
  message: `Open ${id}`
});

describe('a 2025-11-25 server’s requests as an exchange reads them', () => {
  it('gives a URL-elicitation-required error as a round of its links, each under its own key', async () => {
    const { client } = clientAnswering(new McpError(-32042, 'Sign in first', { elicitations: [link('a'), link('b')] }));
    const answer = await legacyExchangePeer(client).request(
      'tools/call',
      { name: 't' },
      { tasks: false, timeout: 1000 }
    );
    assert.deepEqual(answer, {
      resultType: 'input_required',
      inputRequests: {
        'url-1': { method: 'elicitation/create', params: link('a') },
        'url-2': { method: 'elicitation/create', params: link('b') }
      }
    });
  });

  it('throws a −32042 whose data is not a list of URL elicitations with ids as it came, and any other error', async () => {
    const bad = [
      new McpError(-32042, 'no data'),
      new McpError(-32042, 'empty', { elicitations: [] }),
      new McpError(-32042, 'form mode', { elicitations: [{ ...link('a'), mode: 'form' }] }),
      new McpError(-32042, 'no id', { elicitations: [{ mode: 'url', url: 'https://x.example/', message: 'x' }] }),
      new McpError(-32602, 'invalid params', { elicitations: [link('a')] })
    ];
    for (const error of bad) {
      const { client } = clientAnswering(error);
      await assert.rejects(
        legacyExchangePeer(client).request('tools/call', {}, { tasks: false, timeout: 1000 }),
        (thrown) => thrown === error
      );
    }
  });

  it('passes any other answer on, and the signal only where the request may be cancelled', async () => {
    const signal = new AbortController().signal;
    const plain = clientAnswering({ content: [] });
    assert.deepEqual(
      await legacyExchangePeer(plain.client).request('tools/call', {}, { tasks: false, timeout: 1, signal }),
      { content: [] }
    );
    assert.equal(plain.sent[0]?.signal, signal);
    const task = clientAnswering({ task: { taskId: 't1' } });
    await legacyExchangePeer(task.client).request('tools/call', {}, { tasks: true, timeout: 1, signal });
    assert.equal(
      task.sent[0]?.signal,
      undefined,
      'a task-augmented request is never cancelled with notifications/cancelled'
    );
  });

  it('reads a stray resultType in a 2025-11-25 answer as nothing (that revision has no such field), so it is never taken for a round', async () => {
    const stray = clientAnswering({
      content: [{ type: 'text', text: 'done' }],
      resultType: 'input_required',
      inputRequests: { q: { method: 'elicitation/create', params: {} } }
    });
    assert.deepEqual(await legacyExchangePeer(stray.client).request('tools/call', {}, { tasks: false, timeout: 1 }), {
      content: [{ type: 'text', text: 'done' }],
      inputRequests: { q: { method: 'elicitation/create', params: {} } }
    });
  });

  it('opens a link listed twice once', async () => {
    const { client } = clientAnswering(
      new McpError(-32042, 'Sign in', { elicitations: [link('a'), link('b'), link('a')] })
    );
    const answer = await legacyExchangePeer(client).request('tools/call', {}, { tasks: false, timeout: 1000 });
    assert.deepEqual(Object.keys(answer.inputRequests as object), ['url-1', 'url-2']);
  });
});
