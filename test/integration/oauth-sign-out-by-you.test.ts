import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { createHost, type Host } from '../../app/host/host.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { signInHeadlessly } from '../support/conformance-auth.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { startOAuthTestServers, type OAuthTestServers } from '../support/oauth-test-servers.js';

/** An OAuth-protected server whose one tool, `ask`, asks the person a question before it answers. */
function askingServer(): McpServer {
  const mcp = new McpServer({ name: 'asking-test-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  mcp.registerTool('ask', { description: 'Asks which shelf' }, async (extra) => {
    const answer = await extra.sendRequest(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Which shelf?',
          requestedSchema: { type: 'object', properties: { shelf: { type: 'string' } } }
        }
      },
      ElicitResultSchema
    );
    return { content: [{ type: 'text' as const, text: JSON.stringify(answer) }] };
  });
  return mcp;
}

/**
 * Sign out disconnects the server: a question outside a task that its close breaks off is said to
 * be ended by the person's sign-out ("You signed out of Protected"), not by a Disconnect they
 * never pressed, nor cancelled by the server.
 */
describe('a question a sign-out breaks off', () => {
  let servers: OAuthTestServers | undefined;
  let data: ReturnType<typeof tempDir> | undefined;
  let host: Host | undefined;

  afterEach(async () => {
    await host?.close();
    await servers?.close();
    data?.remove();
    host = servers = data = undefined;
  });

  it('is said to be ended by the person’s sign-out', async () => {
    servers = await startOAuthTestServers({ consent: 'auto', mcpServer: askingServer });
    data = tempDir('taskdesk-oauth-sign-out-by-you-');
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      keyStore: new InMemoryKeyStore(),
      servers: [{ id: 'protected', name: 'Protected', transport: { type: 'http', url: servers.mcpUrl } }]
    });
    await host.call('servers.connect', { serverId: 'protected' });
    await signInHeadlessly(host, 'protected');

    const added = nextEvent(host, 'inbox.added', ({ item }) => item.request.message === 'Which shelf?');
    const call = host.call('tools.call', { serverId: 'protected', name: 'ask', arguments: {} }).catch(() => undefined);
    const { item } = await added;
    const removed = nextEvent(host, 'inbox.removed', ({ id }) => id === item.id);
    const cancelled = nextEvent(
      host,
      'history.changed',
      ({ entry }) => entry.title === 'Which shelf?' && entry.status === 'cancelled'
    );

    await host.call('auth.signOut', { serverId: 'protected' });
    await call;
    const { why, reason, byYou } = await removed;
    assert.deepEqual({ why, reason, byYou }, { why: 'withdrawn', reason: 'You signed out of Protected.', byYou: true });
    const { entry } = await cancelled;
    assert.equal(entry.cancelledBy, 'you');
    assert.equal(entry.statusMessage, 'You signed out of Protected before it was answered');
  });
});
