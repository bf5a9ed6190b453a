import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CreateMessageRequestSchema,
  CreateMessageResultWithToolsSchema,
  McpError,
  type CreateMessageRequestParams,
  type Progress,
  type SamplingMessage
} from '@modelcontextprotocol/sdk/types.js';
import { mcpErrorFrom } from '../../../app/core/errors.js';
import type { SamplingRunner } from '../../../app/receiver/runners.js';
import { PolicySamplingRunner } from '../../../app/sampling/policy-sampling-runner.js';
import { SamplingPolicySchema, type SamplingPolicy } from '../../../app/contract/sampling-policy.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { makeRunner, SECRET_KEY } from './harness.js';
import { ScriptedApprovalGate } from './scripted-approval-gate.js';

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] }
};

/**
 * A server and a client joined in memory. The client's sampling handler calls the runner
 * the way the host will: request params in, outcome out, errors as JSON-RPC errors.
 */
async function connect(runner: SamplingRunner) {
  const server = new Server({ name: 'sampling-test-server', version: '1.0.0' }, { capabilities: {} });
  const client = new Client({ name: 'taskdesk-test', version: '0.1.0' }, { capabilities: { sampling: { tools: {} } } });
  client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
    const progressToken = request.params._meta?.progressToken;
    const outcome = await runner.run(request.params, {
      serverId: 'sampling-test-server',
      serverName: 'Sampling test server',
      signal: extra.signal,
      ...(progressToken !== undefined
        ? {
            reportProgress: (progress: number, total?: number, message?: string) =>
              void extra.sendNotification({
                method: 'notifications/progress',
                params: { progressToken, progress, total, message }
              })
          }
        : {})
    });
    if (outcome.type === 'error') throw mcpErrorFrom(outcome.error);
    return outcome.result;
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return { server, client, close: async () => Promise.all([client.close(), server.close()]) };
}

describe('sampling through MCP: SDK Server → SDK Client → engine → fake LLM', { timeout: 15_000 }, () => {
  let llm: FakeOpenAIServer;
  before(async () => {
    llm = await FakeOpenAIServer.start({ apiKey: SECRET_KEY });
  });
  after(() => llm.close());

  async function policyRunner(policy: Partial<SamplingPolicy>, gate = new ScriptedApprovalGate()) {
    const { runner: sampler } = await makeRunner(llm, { apiKey: SECRET_KEY, progressIntervalMs: 0 });
    return new PolicySamplingRunner({
      sampler,
      gate,
      policyFor: () => SamplingPolicySchema.parse(policy),
      audit: () => {}
    });
  }

  it('runs a multi-turn tool loop the server drives', async () => {
    const peers = await connect(await policyRunner({ mode: 'auto', reviewCompletion: false }));
    try {
      llm.enqueue(
        {
          kind: 'tool-calls',
          text: 'Let me look.',
          calls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }]
        },
        { kind: 'tool-calls', calls: [{ id: 'call_2', name: 'get_weather', arguments: '{"city":"London"}' }] },
        { kind: 'text', tokens: ['Paris', ' is', ' warmer.'] }
      );
      const before = llm.chatRequests.length;
      const weather: Record<string, string> = { Paris: '18°C', London: '15°C' };
      const messages: SamplingMessage[] = [
        { role: 'user', content: { type: 'text', text: 'Is Paris warmer than London?' } }
      ];
      const progress: Progress[] = [];
      let final;
      for (let turn = 0; turn < 5; turn++) {
        const result = await peers.server.createMessage(
          { messages, tools: [weatherTool], toolChoice: { mode: turn === 4 ? 'none' : 'auto' }, maxTokens: 200 },
          { onprogress: (p) => progress.push(p) }
        );
        const content = Array.isArray(result.content) ? result.content : [result.content];
        if (result.stopReason !== 'toolUse') {
          final = result;
          break;
        }
        messages.push({ role: 'assistant', content });
        messages.push({
          role: 'user',
          content: content
            .filter((c) => c.type === 'tool_use')
            .map((use) => ({
              type: 'tool_result' as const,
              toolUseId: use.id,
              content: [{ type: 'text' as const, text: weather[String(use.input['city'])]! }]
            }))
        });
      }
      assert.deepEqual(final?.content, { type: 'text', text: 'Paris is warmer.' });
      assert.equal(final?.model, 'fake-small');
      assert.equal(llm.chatRequests.length, before + 3);
      assert.deepEqual(llm.chatRequests[before + 2]!.body.messages.slice(1), [
        {
          role: 'assistant',
          content: 'Let me look.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }
          ]
        },
        { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"London"}' } }
          ]
        },
        { role: 'tool', tool_call_id: 'call_2', content: '15°C' }
      ]);
      assert.ok(progress.length > 0, 'the server got progress notifications');
      assert.ok(progress.every((p) => p.total === 200));
    } finally {
      await peers.close();
    }
  });

  it('sends a rejection to the server as JSON-RPC error -1', async () => {
    const gate = new ScriptedApprovalGate();
    const peers = await connect(await policyRunner({ mode: 'ask' }, gate));
    try {
      const asking = peers.server.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
        maxTokens: 10
      });
      (await gate.approvals.next()).reject();
      await assert.rejects(
        asking,
        (error: unknown) =>
          error instanceof McpError && error.code === -1 && /User rejected sampling request/.test(error.message)
      );
    } finally {
      await peers.close();
    }
  });

  it('sends unbalanced tool ids to the server as -32602', async () => {
    const peers = await connect(await policyRunner({ mode: 'auto', reviewCompletion: false }));
    try {
      // The SDK's createMessage checks only the last two messages; an imbalance earlier in
      // the history gets past it and must be caught by the engine.
      const params: CreateMessageRequestParams = {
        messages: [
          { role: 'user', content: { type: 'text', text: 'weather?' } },
          {
            role: 'assistant',
            content: { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }
          },
          { role: 'user', content: { type: 'text', text: 'never mind the tool' } }
        ],
        tools: [weatherTool],
        maxTokens: 10
      };
      await assert.rejects(
        peers.server.request({ method: 'sampling/createMessage', params }, CreateMessageResultWithToolsSchema),
        (error: unknown) => error instanceof McpError && error.code === -32602 && /"call_1"/.test(error.message)
      );
    } finally {
      await peers.close();
    }
  });
});
