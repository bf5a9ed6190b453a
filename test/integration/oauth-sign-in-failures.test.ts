import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { createHost, type Host } from '../../app/host/host.js';
import { tempDir } from '../support/host-fixture.js';
import { startOAuthTestServers, type OAuthTestServers } from '../support/oauth-test-servers.js';

/**
 * Sign-ins and connects of an OAuth-protected server that fail for another reason than the
 * server asking for authorization: the server or its authorization server is down. The state
 * says which failure is a sign-in (`failedFor`), and a sign-in that cannot start says where it
 * could not reach, and is audited.
 */
describe('OAuth sign-in when a server is down', () => {
  let servers: OAuthTestServers | undefined;
  let data: ReturnType<typeof tempDir> | undefined;
  let host: Host | undefined;

  afterEach(async () => {
    await host?.close();
    await servers?.close();
    data?.remove();
    host = undefined;
    servers = undefined;
    data = undefined;
  });

  async function start(): Promise<{ host: Host; servers: OAuthTestServers }> {
    servers = await startOAuthTestServers({ consent: 'auto' });
    data = tempDir('taskdesk-oauth-down-');
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [{ id: 'protected', name: 'Protected', transport: { type: 'http', url: servers.mcpUrl } }]
    });
    return { host, servers };
  }

  const origin = (url: string) => new URL(url).origin.replace(/[.]/g, '\\.');

  it('says a connect failed for the sign-in only while the server asks for one, not once it is down', async () => {
    const { host, servers } = await start();
    const asked = await host.call('servers.connect', { serverId: 'protected' });
    assert.equal(asked.state.status, 'failed');
    assert.equal(asked.state.failedFor, 'sign-in', 'the server answered 401');

    await servers.close();
    const down = await host.call('servers.connect', { serverId: 'protected' });
    assert.equal(down.state.status, 'failed');
    assert.match(down.state.reason ?? '', /Nothing is listening at 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    assert.equal(down.state.failedFor, undefined, 'a server that is down is no sign-in');
    // The sign-in it asked for still waits (its page may still be used): only the failure is another.
    assert.equal(down.state.auth?.status, 'sign-in-required');
  });

  it('says where a sign-in could not start when its authorization server is down, and audits it', async () => {
    const { host, servers } = await start();
    await servers.closeAuthorizationServer();
    const refused = await host.call('auth.signIn', { serverId: 'protected' }).then(
      () => undefined,
      (error: Error) => error
    );
    const words = new RegExp(
      `^The sign-in service at ${origin(servers.issuer)} could not be reached\\. Nothing is listening at 127\\.0\\.0\\.1:\\d+ \\(ECONNREFUSED\\)\\. Is it running\\?$`
    );
    assert.match(refused?.message ?? '', words);
    const entries = await host.call('audit.read', { serverId: 'protected' });
    const failed = entries.find((entry) => entry.type === 'server.sign-in-failed');
    assert.ok(failed, `audited: ${entries.map((entry) => entry.type).join(', ')}`);
    assert.match(String((failed.detail as { reason?: unknown } | undefined)?.reason), words);

    // A connect meets the same: the server asks, and its authorization server cannot be reached.
    const view = await host.call('servers.connect', { serverId: 'protected' });
    assert.equal(view.state.status, 'failed');
    assert.match(
      view.state.reason ?? '',
      new RegExp(`The sign-in service at ${origin(servers.issuer)} could not be reached`)
    );
    assert.equal(view.state.failedFor, undefined);
  });

  it('names the server itself when it is what a sign-in could not reach', async () => {
    const { host, servers } = await start();
    await servers.close();
    const refused = await host.call('auth.signIn', { serverId: 'protected' }).then(
      () => undefined,
      (error: Error) => error
    );
    assert.match(
      refused?.message ?? '',
      new RegExp(
        `^Protected at ${origin(servers.mcpUrl)} could not be reached to start the sign-in\\. Nothing is listening at 127\\.0\\.0\\.1:\\d+ \\(ECONNREFUSED\\)\\. Is it running\\?$`
      )
    );
    const entries = await host.call('audit.read', { serverId: 'protected' });
    assert.equal(entries.filter((entry) => entry.type === 'server.sign-in-failed').length, 1);
  });
});
