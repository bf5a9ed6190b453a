import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHost, type Host } from '../../app/host/host.js';
import { tempDir } from '../support/host-fixture.js';
import { startOAuthTestServers, type OAuthTestServers } from '../support/oauth-test-servers.js';

/**
 * A token that comes after the client was changed is revoked as the client that asked for it,
 * at the sign-in service it came from: the new client's secret never goes to the old service.
 */
describe('a late token after a change of client', () => {
  let a: OAuthTestServers;
  let b: OAuthTestServers;
  let host: Host;
  let data: ReturnType<typeof tempDir>;
  const realFetch = globalThis.fetch;
  const held: Array<() => void> = [];
  let hold = false;
  /** Every POST the host made: its address, Authorization header and body. */
  const posts: string[] = [];
  /** Resolves once a revocation request was answered, whichever service took it. */
  let revoked: () => void = () => undefined;
  const revocation = new Promise<void>((resolve) => (revoked = resolve));

  before(async () => {
    // The host's sign-in uses the global fetch when no proxy is set. Put back after this file.
    globalThis.fetch = async (url: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const address = url instanceof Request ? url.url : url.toString();
      if (init?.method === 'POST') {
        const body =
          typeof init.body === 'string' ? init.body : init.body instanceof URLSearchParams ? init.body.toString() : '';
        posts.push(`${address} ${new Headers(init.headers).get('authorization') ?? ''} ${body}`);
      }
      if (hold && init?.method === 'POST' && address.endsWith('/token'))
        await new Promise<void>((resolve) => held.push(resolve));
      const response = await realFetch(url, init);
      if (init?.method === 'POST' && address.endsWith('/revoke')) revoked();
      return response;
    };
    [a, b] = await Promise.all([
      startOAuthTestServers({ clientCredentials: true }),
      startOAuthTestServers({ clientCredentials: true })
    ]);
    a.registerClient({ clientId: 'old', clientSecret: 'old-secret' });
    b.registerClient({ clientId: 'new', clientSecret: 'new-secret-for-b-only' });
    data = tempDir();
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [{ id: 's', name: 'Server s', transport: { type: 'http', url: a.mcpUrl } }]
    });
  });
  after(async () => {
    for (const go of held.splice(0)) go();
    globalThis.fetch = realFetch;
    await host?.close();
    await Promise.all([a?.close(), b?.close()]);
    data?.remove();
  });

  it('is revoked at the old service as the old client; the new client’s secret goes nowhere but its own', async () => {
    await host.call('auth.setClient', {
      serverId: 's',
      clientId: 'old',
      clientSecret: 'old-secret',
      clientCredentials: true
    });
    hold = true;
    const connecting = host.call('servers.connect', { serverId: 's' });
    while (held.length < 1) await new Promise((resolve) => setImmediate(resolve));
    await host.call('auth.setClient', {
      serverId: 's',
      clientId: 'new',
      clientSecret: 'new-secret-for-b-only',
      clientCredentials: true,
      issuer: b.issuer
    });
    hold = false;
    for (const go of held.splice(0)) go();
    await connecting.catch(() => undefined);
    await revocation;
    assert.deepEqual(
      a.revocations.map((revocation) => revocation.clientId),
      ['old']
    );
    const origin = new URL(a.issuer).origin;
    const leaked = posts.filter(
      (post) =>
        post.startsWith(origin) &&
        (post.includes('new-secret-for-b-only') || post.includes(btoa('new:new-secret-for-b-only')))
    );
    assert.deepEqual(leaked, []);
  });
});
