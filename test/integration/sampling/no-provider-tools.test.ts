import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import {
  CreateMessageResultWithToolsSchema,
  CreateTaskResultSchema,
  McpError,
  type CreateMessageRequestParams
} from '@modelcontextprotocol/sdk/types.js';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import { nextEvent, peerServer, startHostWith, type InMemoryHostFixture } from '../../support/host-fixture.js';

const weatherTool = { name: 'get_weather', inputSchema: { type: 'object' as const, properties: {} } };

// The SDK's createMessage checks only the last two messages: the imbalance is earlier.
const unbalanced: CreateMessageRequestParams = {
  messages: [
    { role: 'user', content: { type: 'text', text: 'weather?' } },
    { role: 'assistant', content: { type: 'tool_use', id: 'call_1', name: 'get_weather', input: {} } },
    { role: 'user', content: { type: 'text', text: 'never mind the tool' } }
  ],
  tools: [weatherTool],
  maxTokens: 10
};

describe('sampling with no LLM provider configured', () => {
  let fixture: InMemoryHostFixture | undefined;
  afterEach(async () => {
    await fixture?.dispose();
    fixture = undefined;
  });

  it('answers an unbalanced tool history with -32602 and asks nobody', async () => {
    const peer = peerServer();
    fixture = await startHostWith({ a: peer }, { keyStore: new InMemoryKeyStore() });
    assert.deepEqual(await fixture.host.call('providers.list', {}), []);
    // Before the fix the request went to the inbox: a person was asked, and the server waited.
    const asked = nextEvent(fixture.host, 'inbox.added').then(() => 'a person was asked');
    const answered = peer.server
      .request({ method: 'sampling/createMessage', params: unbalanced }, CreateMessageResultWithToolsSchema)
      .then(
        () => 'answered',
        (error: unknown) => error
      );
    const first = await Promise.race([asked, answered]);
    assert.ok(
      first instanceof McpError && first.code === -32602 && /"call_1"/.test(first.message),
      `expected -32602, got ${String(first)}`
    );
    const failed = peer.nextNotification('notifications/tasks/status', (params) => params.status === 'failed');
    await peer.server.request(
      { method: 'sampling/createMessage', params: { ...unbalanced, task: {} } },
      CreateTaskResultSchema
    );
    assert.match(String((await failed).statusMessage), /tool_use id\(s\) "call_1" must be answered/);
    assert.deepEqual(fixture.host.inbox.list(), [], 'no person is asked to answer it');
  });
});
