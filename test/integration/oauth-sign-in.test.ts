import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createHost, type Host } from '../../app/host/host.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { filesHolding } from '../support/files-holding.js';
import { signInHeadlessly } from '../support/conformance-auth.js';
import { startOAuthTestServers, type OAuthTestServers } from '../support/oauth-test-servers.js';

/**
 * Signing in to a protected Streamable HTTP server through the host API, against a local
 * authorization server (the SDK's auth router) that approves at once: tokens, refresh, and
 * tasks bound to the grant rather than to the token.
 */
describe('OAuth sign-in to a Streamable HTTP server, and tasks bound to the grant', () => {
  let servers: OAuthTestServers;
  let data: ReturnType<typeof tempDir>;
  let host: Host;
  let taskId: string;

  before(async () => {
    servers = await startOAuthTestServers({ consent: 'auto' });
    data = tempDir('taskdesk-oauth-');
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [
        { id: 'protected', name: 'Protected', transport: { type: 'http', url: servers.mcpUrl } },
        { id: 'twin', name: 'Twin', transport: { type: 'http', url: servers.mcpUrl } }
      ]
    });
  });

  after(async () => {
    await host?.close();
    await servers?.close();
    data?.remove();
  });

  /** Calls a tool of a server and parses the JSON of its text. */
  async function call(
    serverId: string,
    name: string,
    args: Record<string, unknown> = {}
  ): Promise<Record<string, unknown>> {
    const outcome = await host.call('tools.call', { serverId, name, arguments: args });
    assert.equal(outcome.type, 'result');
    if (outcome.type !== 'result') return {};
    const [block] = (outcome.result.content ?? []) as Array<{ text?: string }>;
    return JSON.parse(block?.text ?? '{}') as Record<string, unknown>;
  }

  async function authOf(serverId: string) {
    const list = await host.call('servers.list', {});
    return list.find((server) => server.id === serverId)?.state.auth;
  }

  it('asks to sign in at the server’s authorization server, then connects signed in as the user', async () => {
    const view = await host.call('servers.connect', { serverId: 'protected' });
    assert.equal(view.state.status, 'failed');
    assert.match(view.state.reason ?? '', /Sign in to Protected at http:\/\/127\.0\.0\.1:\d+/);
    assert.deepEqual(view.state.auth, { status: 'sign-in-required', issuer: servers.issuer });
    await signInHeadlessly(host, 'protected');
    assert.deepEqual(await authOf('protected'), { status: 'signed-in', issuer: servers.issuer, subject: 'alice' });
    assert.deepEqual(await call('protected', 'whoami'), { subject: 'alice' });
  });

  it('keeps a task of the server across a token refresh and a reconnect', async () => {
    ({ taskId } = (await call('protected', 'elicit-as-task')) as { taskId: string });
    assert.equal(typeof taskId, 'string');
    servers.expireAccessTokens();
    const before = servers.refreshes;
    assert.deepEqual(await call('protected', 'check-task', { taskId }), { status: 'working' });
    assert.equal(servers.refreshes, before + 1, 'the expired access token was refreshed');
    await host.call('servers.disconnect', { serverId: 'protected' });
    await host.call('servers.connect', { serverId: 'protected' });
    assert.deepEqual(await call('protected', 'check-task', { taskId }), { status: 'working' });
  });

  it('asks to sign in again when the refresh token has expired, and the tasks are still there', async () => {
    servers.revokeRefreshTokens();
    servers.expireAccessTokens();
    // The call waits for the sign-in it asked for (see oauth-call-after-sign-in.test.ts), then answers.
    const waiting = nextEvent(host, 'call.changed', ({ call }) => call.waitingForSignIn === true);
    const answered = call('protected', 'check-task', { taskId });
    await waiting;
    assert.equal((await authOf('protected'))?.status, 'sign-in-required');
    await signInHeadlessly(host, 'protected');
    assert.deepEqual(await answered, { status: 'working' });
  });

  it('keeps another server (same URL, same user) out of the task', async () => {
    await host.call('servers.connect', { serverId: 'twin' });
    await signInHeadlessly(host, 'twin');
    assert.deepEqual(await call('twin', 'whoami'), { subject: 'alice' });
    const seen = await call('twin', 'check-task', { taskId });
    assert.equal((seen.error as { code?: number } | undefined)?.code, -32602, JSON.stringify(seen));
  });

  it('signs out, and keeps another user of the same server out of the task', async () => {
    const view = await host.call('auth.signOut', { serverId: 'protected' });
    assert.deepEqual(view.state.auth, {
      status: 'signed-out',
      issuer: servers.issuer,
      revocation: { outcome: 'revoked' }
    });
    servers.user = 'bob';
    await host.call('servers.connect', { serverId: 'protected' });
    await signInHeadlessly(host, 'protected');
    assert.deepEqual(await call('protected', 'whoami'), { subject: 'bob' });
    const seen = await call('protected', 'check-task', { taskId });
    assert.equal((seen.error as { code?: number } | undefined)?.code, -32602, JSON.stringify(seen));
  });

  it('forgets a sign-in when the server is moved to another URL: its token never reaches the new one', async () => {
    const seen: Array<string | undefined> = [];
    const other = http.createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const id = 'movable';
      await host.call('servers.add', {
        id,
        name: 'Movable',
        transport: { type: 'http', url: servers.mcpUrl },
        autoConnect: false
      });
      await host.call('servers.connect', { serverId: id });
      await signInHeadlessly(host, id);
      assert.equal((await authOf(id))?.status, 'signed-in');
      const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}/mcp`;
      await host.call('servers.update', {
        serverId: id,
        settings: { name: 'Movable', autoConnect: false, protocol: 'auto', transport: { type: 'http', url } }
      });
      await host.call('servers.connect', { serverId: id });
      assert.ok(seen.length > 0, 'the new URL was tried');
      assert.deepEqual(
        seen.filter((header) => header !== undefined),
        [],
        'no Authorization header went to the new URL'
      );
      assert.equal(await authOf(id), undefined, 'the sign-in of the old URL is gone');
    } finally {
      other.closeAllConnections();
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it('keeps tokens out of the server settings, the audit log and the task files', async () => {
    const keyFile = path.join(data.dir, 'secrets', 'provider-keys.json');
    const leaks = await filesHolding(
      data.dir,
      (text) => servers.issuedTokens.some((token) => text.includes(token)),
      (file) => file === keyFile
    );
    assert.deepEqual(leaks, []);
    const keys = fs.readFileSync(keyFile, 'utf8');
    assert.ok(
      servers.issuedTokens.some((token) => keys.includes(token)),
      'the tokens are in the key store'
    );
    assert.equal(fs.statSync(keyFile).mode & 0o077, 0, 'the key file is for its owner only');
  });
});
