import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Host } from '../../../app/host/host.js';
import {
  discoverResult,
  startScriptedModernHost,
  type ScriptedRequest,
  type ScriptedModernHost
} from '../../support/scripted-modern-peer.js';
import { nextEvent } from '../../support/host-fixture.js';

/**
 * The input requests a 2026-07-28 server embeds in an `InputRequiredResult` are checked as the
 * same request sent on its own is (SEP-2663: each entry is treated as the equivalent standalone
 * request; a legacy server's malformed `elicitation/create` or `sampling/createMessage` is
 * refused with −32602 before anyone is asked): a malformed one is never put to a person or a
 * model, and the call fails with −32602 naming the field. A URL-mode elicitation needs no
 * `elicitationId` in this revision.
 *
 * The server is a scripted JSON-RPC peer at the far end of an in-memory transport pair.
 */

/** The input request each tool asks, under the key `q`. */
const QUESTIONS: Record<string, { method: string; params: Record<string, unknown> }> = {
  'form-without-schema': { method: 'elicitation/create', params: { message: 'Your name?' } },
  'sampling-without-messages': { method: 'sampling/createMessage', params: { maxTokens: 'lots' } },
  // Valid in 2026-07-28, refused by a 2025-11-25 schema: a tool's outputSchema of any type, a
  // property schema that is a boolean, and structuredContent that is not an object.
  'sampling-2026-shapes': {
    method: 'sampling/createMessage',
    params: {
      maxTokens: 20,
      messages: [
        { role: 'user', content: { type: 'text', text: 'Look it up' } },
        { role: 'assistant', content: { type: 'tool_use', id: 'c1', name: 'lookup', input: {} } },
        {
          role: 'user',
          content: { type: 'tool_result', toolUseId: 'c1', content: [], structuredContent: ['a', 'b'] }
        }
      ],
      tools: [
        {
          name: 'lookup',
          inputSchema: { type: 'object', properties: { q: true } },
          outputSchema: { type: 'array', items: { type: 'string' } }
        }
      ]
    }
  },
  'url-without-id': {
    method: 'elicitation/create',
    params: { mode: 'url', message: 'Sign in', url: 'https://example.com/sign-in' }
  }
};

function answerOf(message: ScriptedRequest): Record<string, unknown> | undefined {
  const params = ('params' in message ? message.params : undefined) as
    { name?: string; inputResponses?: Record<string, unknown> } | undefined;
  switch (message.method) {
    case 'server/discover':
      return discoverResult({ tools: {} });
    case 'tools/list':
      return {
        resultType: 'complete',
        tools: Object.keys(QUESTIONS).map((name) => ({ name, inputSchema: { type: 'object', properties: {} } }))
      };
    case 'tools/call': {
      const question = QUESTIONS[params?.name ?? ''];
      if (!question) return undefined;
      if (params?.inputResponses === undefined) return { resultType: 'input_required', inputRequests: { q: question } };
      return { resultType: 'complete', content: [{ type: 'text', text: JSON.stringify(params.inputResponses) }] };
    }
    default:
      return undefined;
  }
}

describe('input requests of a 2026-07-28 server are checked as standalone requests are', () => {
  let peer: ScriptedModernHost;
  let host: Host;

  before(async () => {
    peer = await startScriptedModernHost(answerOf);
    ({ host } = peer);
  });

  after(async () => {
    await peer.dispose();
  });

  /**
   * Calls `tool` and settles with its error, or with "asked" as soon as its question reaches the
   * Inbox (then it would wait there for a person; the test must not).
   */
  async function refusalOf(tool: string): Promise<{ code?: number; message?: string } | 'asked'> {
    const inInbox = nextEvent(host, 'inbox.added', ({ item }) => item.origin === `tool ${tool}`).then(
      () => 'asked' as const
    );
    const calling = host.call('tools.call', { serverId: 'scripted', name: tool, arguments: {} }).then(
      () => assert.fail(`${tool} was answered`),
      (error: { code?: number; message?: string }) => error
    );
    return Promise.race([inInbox, calling]);
  }

  it('refuses a form elicitation without requestedSchema with −32602, and asks nobody', async () => {
    const refusal = await refusalOf('form-without-schema');
    assert.notEqual(refusal, 'asked', 'the malformed question reached the Inbox');
    if (refusal === 'asked') return;
    assert.equal(refusal.code, -32602);
    assert.match(refusal.message ?? '', /elicitation\/create \(input "q"\)/);
    assert.match(refusal.message ?? '', /requestedSchema/);
  });

  it('refuses a sampling request without messages with −32602 naming the field, and asks nobody', async () => {
    const refusal = await refusalOf('sampling-without-messages');
    assert.notEqual(refusal, 'asked', 'the malformed request reached the Inbox');
    if (refusal === 'asked') return;
    assert.equal(refusal.code, -32602);
    assert.match(refusal.message ?? '', /messages/);
  });

  it('puts a sampling request that is valid in 2026-07-28 (though not in 2025-11-25) to a person', async () => {
    const added = nextEvent(host, 'inbox.added', ({ item }) => item.origin === 'tool sampling-2026-shapes');
    const calling = host.call('tools.call', { serverId: 'scripted', name: 'sampling-2026-shapes', arguments: {} });
    const { item } = await Promise.race([
      added,
      calling.then(
        () => assert.fail('answered without asking'),
        (error: Error) => assert.fail(`refused: ${error.message}`)
      )
    ]);
    assert.equal(item.kind, 'sampling');
    await host.call('inbox.answer', { id: item.id, answer: { action: 'reply', text: 'found' } });
    const outcome = await calling;
    assert.equal(outcome.type, 'result');
    const text = outcome.type === 'result' ? (outcome.result.content as Array<{ text: string }>)[0]?.text : '';
    assert.match(text ?? '', /"text":"found"/);
  });

  it('asks a URL-mode elicitation without elicitationId, which this revision does not have', async () => {
    const added = nextEvent(host, 'inbox.added', ({ item }) => item.origin === 'tool url-without-id');
    const calling = host.call('tools.call', { serverId: 'scripted', name: 'url-without-id', arguments: {} });
    const { item } = await added;
    // Consent is not the work done in the browser: the retry waits until the person says so.
    const waiting = nextEvent(host, 'exchange.changed', ({ exchange }) => exchange?.state === 'waiting-for-you');
    await host.call('inbox.answer', { id: item.id, answer: { action: 'accept' } });
    const { exchange } = await waiting;
    await host.call('exchanges.continue', { exchangeId: exchange!.exchangeId });
    const outcome = await calling;
    assert.equal(outcome.type, 'result');
    assert.deepEqual(outcome.type === 'result' && outcome.result.content, [
      { type: 'text', text: JSON.stringify({ q: { action: 'accept' } }) }
    ]);
  });
});
