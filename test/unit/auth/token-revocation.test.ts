import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { revokeSignIn } from '../../../app/auth/token-revocation.js';

/**
 * The revocation request a sign-out sends (RFC 7009): where it finds the endpoint, how the client
 * authenticates, and what it says when the authorization server could not be told.
 */

const ISSUER = 'https://auth.example.com';

interface Sent {
  url: string;
  method: string;
  headers: Headers;
  body: URLSearchParams;
}

/** A fetch that serves metadata documents by URL and answers the revocation endpoint with `revoke`. */
function authorizationServer(
  documents: Record<string, Record<string, unknown>>,
  revoke: (sent: Sent) => Response = () => new Response('{}', { status: 200 })
) {
  const sent: Sent[] = [];
  const fetchFn: FetchLike = async (input, init) => {
    const url = String(input);
    const document = documents[url];
    if (document) return Response.json(document);
    if (init?.method === 'POST') {
      const request: Sent = {
        url,
        method: init.method,
        headers: new Headers(init.headers),
        body: new URLSearchParams(init.body as URLSearchParams)
      };
      sent.push(request);
      return revoke(request);
    }
    return new Response('not found', { status: 404 });
  };
  return { fetchFn, sent };
}

const metadata = (extra: Record<string, unknown>) => ({
  issuer: ISSUER,
  authorization_endpoint: `${ISSUER}/authorize`,
  token_endpoint: `${ISSUER}/token`,
  ...extra
});

const tokens = { access_token: 'access-1', token_type: 'bearer', refresh_token: 'refresh-1' };

describe('revoking a sign-in at its authorization server', () => {
  it('finds the endpoint in OpenID Connect metadata too, and authenticates a client with a secret by Basic', async () => {
    const { fetchFn, sent } = authorizationServer({
      [`${ISSUER}/.well-known/openid-configuration`]: metadata({
        revocation_endpoint: `${ISSUER}/revoke`,
        revocation_endpoint_auth_methods_supported: ['client_secret_basic']
      })
    });
    const outcome = await revokeSignIn({
      issuer: ISSUER,
      tokens,
      client: { client_id: 'taskdesk', client_secret: 's3cret' },
      fetch: fetchFn
    });
    assert.deepEqual(outcome, { outcome: 'revoked' });
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.url, `${ISSUER}/revoke`);
    assert.equal(sent[0]!.headers.get('authorization'), `Basic ${btoa('taskdesk:s3cret')}`);
    assert.deepEqual(Object.fromEntries(sent[0]!.body), { token: 'refresh-1', token_type_hint: 'refresh_token' });
  });

  it('revokes the access token of a sign-in without a refresh token, as a public client', async () => {
    const { fetchFn, sent } = authorizationServer({
      [`${ISSUER}/.well-known/oauth-authorization-server`]: metadata({ revocation_endpoint: `${ISSUER}/revoke` })
    });
    const { refresh_token: _refresh, ...accessOnly } = tokens;
    const outcome = await revokeSignIn({
      issuer: ISSUER,
      tokens: accessOnly,
      client: { client_id: 'public' },
      fetch: fetchFn
    });
    assert.deepEqual(outcome, { outcome: 'revoked' });
    assert.equal(sent[0]!.headers.get('authorization'), null);
    assert.deepEqual(Object.fromEntries(sent[0]!.body), {
      token: 'access-1',
      token_type_hint: 'access_token',
      client_id: 'public'
    });
  });

  it('sends no token where the metadata names another issuer, nor to an endpoint that is not HTTPS', async () => {
    const foreign = authorizationServer({
      [`${ISSUER}/.well-known/oauth-authorization-server`]: {
        ...metadata({ revocation_endpoint: 'https://elsewhere.example/revoke' }),
        issuer: 'https://elsewhere.example'
      }
    });
    const refused = await revokeSignIn({ issuer: ISSUER, tokens, client: { client_id: 'c' }, fetch: foreign.fetchFn });
    assert.deepEqual(refused, {
      outcome: 'failed',
      why: 'its metadata names another issuer (https://elsewhere.example)'
    });
    assert.equal(foreign.sent.length, 0);
    // Not HTTPS (RFC 7009 §2), but for this machine's loopback: no token goes there.
    for (const endpoint of ['javascript:alert(1)', 'http://auth.example.com/revoke']) {
      const odd = authorizationServer({
        [`${ISSUER}/.well-known/oauth-authorization-server`]: metadata({ revocation_endpoint: endpoint })
      });
      const notOffered = await revokeSignIn({ issuer: ISSUER, tokens, client: { client_id: 'c' }, fetch: odd.fetchFn });
      assert.deepEqual(notOffered, { outcome: 'not-offered' }, endpoint);
      assert.equal(odd.sent.length, 0);
    }
  });

  it('says what the authorization server answered when it refused, and that it did not answer in time', async () => {
    const documents = {
      [`${ISSUER}/.well-known/oauth-authorization-server`]: metadata({ revocation_endpoint: `${ISSUER}/revoke` })
    };
    const refusing = authorizationServer(documents, () =>
      Response.json({ error: 'unsupported_token_type', error_description: 'Refresh tokens are kept' }, { status: 400 })
    );
    assert.deepEqual(
      await revokeSignIn({ issuer: ISSUER, tokens, client: { client_id: 'c' }, fetch: refusing.fetchFn }),
      {
        outcome: 'failed',
        why: 'it answered 400 Bad Request, unsupported_token_type: Refresh tokens are kept'
      }
    );
    const silent: FetchLike = (input, init) =>
      String(input).endsWith('/revoke') || init?.method === 'POST'
        ? new Promise((_resolve, reject) =>
            init?.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true })
          )
        : authorizationServer(documents).fetchFn(input, init);
    // The timeout's timer does not hold the process open (a host closing must not wait for it):
    // this test holds it while it waits.
    const hold = setInterval(() => undefined, 60_000);
    try {
      assert.deepEqual(
        await revokeSignIn({ issuer: ISSUER, tokens, client: { client_id: 'c' }, fetch: silent, timeoutMs: 20 }),
        { outcome: 'failed', why: 'it did not answer in 1 s' }
      );
    } finally {
      clearInterval(hold);
    }
  });
});
