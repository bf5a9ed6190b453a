import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHost, type Host } from '../../app/host/host.js';
import type { SignInView } from '../../app/contract/host-api.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { headlessBrowser } from '../support/conformance-auth.js';
import { startOAuthTestServers, type OAuthTestServers } from '../support/oauth-test-servers.js';

/**
 * A client registered by hand, wrong or right, and the way back to automatic registration,
 * through the host API against a local authorization server that approves at once.
 */
describe('OAuth sign-in with a client registered by hand', () => {
  let servers: OAuthTestServers;
  let data: ReturnType<typeof tempDir>;
  let host: Host;

  before(async () => {
    servers = await startOAuthTestServers({ consent: 'auto' });
    servers.registerClient({ clientId: 'by-hand', clientSecret: 'hand-secret' });
    data = tempDir('taskdesk-oauth-client-');
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [{ id: 'protected', name: 'Protected', transport: { type: 'http', url: servers.mcpUrl } }]
    });
  });

  after(async () => {
    await host?.close();
    await servers?.close();
    data?.remove();
  });

  async function authOf(): Promise<SignInView | undefined> {
    const list = await host.call('servers.list', {});
    return list.find((server) => server.id === 'protected')?.state.auth;
  }

  /** Presses Sign in: the page's client id, and the view while the browser is out. */
  async function startSignIn(): Promise<{ url: string; clientId: string | null }> {
    const start = await host.call('auth.signIn', { serverId: 'protected' });
    assert.equal(start.type, 'open');
    const url = start.type === 'open' ? start.authorizationUrl : '';
    return { url, clientId: new URL(url).searchParams.get('client_id') };
  }

  it('names the saved client, and ends a sign-in whose token request refuses it at once, in words', async () => {
    await host.call('servers.connect', { serverId: 'protected' });
    await host.call('auth.setClient', { serverId: 'protected', clientId: 'by-hand', clientSecret: 'wrong' });
    assert.equal((await authOf())?.registeredClientId, 'by-hand');
    const { url, clientId } = await startSignIn();
    assert.equal(clientId, 'by-hand', 'a sign-in waiting from before the client was saved is not used');
    assert.equal((await authOf())?.waiting, true, 'waiting for the browser once the page is handed out');
    const failed = nextEvent(host, 'server.state', ({ state }) => state.auth?.reason !== undefined);
    const started = Date.now();
    await headlessBrowser(url);
    const { state } = await failed;
    assert.ok(Date.now() - started < 5000, 'at once');
    assert.match(state.auth?.reason ?? '', /did not accept the client by-hand \(invalid_client/);
    assert.equal(state.auth?.waiting, undefined, 'no longer waiting');
  });

  it('cancels a sign-in: the browser coming back later is not used, and its tab is told why', async () => {
    const { url } = await startSignIn();
    await host.call('auth.cancelSignIn', { serverId: 'protected' });
    const auth = await authOf();
    assert.equal(auth?.status, 'sign-in-required');
    assert.equal(auth?.waiting, undefined);
    // The person went on in the consent tab anyway: a page that says so, not "refused to connect".
    const page = await headlessBrowser(url);
    assert.equal(page.status, 400);
    assert.match(
      page.text,
      /You cancelled this sign-in to Protected in Taskdesk, so it was not used\. You can close this tab; to sign in, start again from Taskdesk\./
    );
    assert.notEqual((await authOf())?.status, 'signed-in');
  });

  it('signs in with the right secret', async () => {
    await host.call('auth.setClient', { serverId: 'protected', clientId: 'by-hand', clientSecret: 'hand-secret' });
    const { url, clientId } = await startSignIn();
    assert.equal(clientId, 'by-hand');
    const signedIn = nextEvent(host, 'server.state', ({ state }) => state.auth?.status === 'signed-in');
    await headlessBrowser(url);
    assert.equal((await signedIn).state.auth?.registeredClientId, 'by-hand');
  });

  it('goes back to automatic registration', async () => {
    await host.call('auth.signOut', { serverId: 'protected' });
    await host.call('auth.forgetClient', { serverId: 'protected' });
    assert.equal((await authOf())?.registeredClientId, undefined);
    const { url, clientId } = await startSignIn();
    assert.ok(clientId && clientId !== 'by-hand', `a registered client (${clientId})`);
    const signedIn = nextEvent(host, 'server.state', ({ state }) => state.auth?.status === 'signed-in');
    await headlessBrowser(url);
    await signedIn;
  });

  it('pressing Sign in while signed in answers signed-in and records no new sign-in', async () => {
    const before = (await host.call('audit.read', { serverId: 'protected' })).length;
    assert.deepEqual(await host.call('auth.signIn', { serverId: 'protected' }), { type: 'signed-in' });
    assert.deepEqual(await host.call('auth.signIn', { serverId: 'protected' }), { type: 'signed-in' });
    const after = await host.call('audit.read', { serverId: 'protected' });
    assert.deepEqual(
      after.slice(0, after.length - before).filter((entry) => entry.type !== 'server.state'),
      [],
      'nothing new but connection states'
    );
  });

  it('and the audit log says each step the person took and how the sign-ins ended, without a secret', async () => {
    const all = await host.call('audit.read', { serverId: 'protected' });
    const steps = all
      .reverse()
      .filter((entry) => entry.type !== 'server.state')
      .map((entry) => entry.type);
    assert.deepEqual(steps, [
      'server.connect-asked',
      'server.oauth-client-set',
      'server.sign-in-started',
      'server.sign-in-failed',
      'server.sign-in-started',
      'server.sign-in-cancelled',
      'server.oauth-client-set',
      'server.sign-in-started',
      'server.signed-in',
      'server.signed-out',
      'server.oauth-client-forgotten',
      'server.sign-in-started',
      'server.signed-in'
    ]);
    const failed = all.find((entry) => entry.type === 'server.sign-in-failed');
    assert.match(String(failed?.detail?.reason), /did not accept the client by-hand/);
    assert.equal(all.find((entry) => entry.type === 'server.oauth-client-set')?.detail?.clientId, 'by-hand');
    assert.equal(all.find((entry) => entry.type === 'server.signed-in')?.serverName, 'Protected');
    // The issuer says where; the person's name or address is not needed in a log that may be exported.
    for (const entry of all.filter((one) => one.type === 'server.signed-in')) {
      assert.equal(entry.detail?.subject, undefined);
      assert.equal(typeof entry.detail?.issuer, 'string');
    }
    assert.doesNotMatch(JSON.stringify(all), /hand-secret|access_token|refresh_token|code_verifier/);
  });
});
