import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { describe, it } from 'node:test';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { clientPrivateKeyPem } from '../../../app/auth/client-credentials.js';
import { ServerConfigSchema } from '../../../app/contract/host-api.js';
import { ServerSecretValues } from '../../../app/host/server-secret-values.js';
import { AssertionRefused, verifyClientAssertion } from '../../support/client-assertion.js';

const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ISSUER = 'http://127.0.0.1:4000/';
const NOW = 1_800_000_000;

/** A JWT signed with `key` (ES256, or RS256 for an RSA key), as a client would make one. */
function jwt(claims: Record<string, unknown>, key: KeyObject = ec.privateKey, alg = 'ES256'): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const data = `${part({ alg, typ: 'JWT' })}.${part(claims)}`;
  const signature = alg.startsWith('ES')
    ? sign('sha256', Buffer.from(data), { key, dsaEncoding: 'ieee-p1363' })
    : sign('sha256', Buffer.from(data), key);
  return `${data}.${signature.toString('base64url')}`;
}

const claims = { iss: 'machine', sub: 'machine', aud: ISSUER, exp: NOW + 300, jti: 'one' };

/** Checks as the local test authorization server does. */
function check(assertion: string, seen = new Set<string>(), clientId?: string): string {
  return verifyClientAssertion(assertion, {
    clientId,
    publicKeyOf: (id) => (id === 'machine' ? ec.publicKey : undefined),
    audiences: [ISSUER, `${ISSUER}token`],
    now: NOW,
    seen
  });
}

describe("the test authorization server's check of a client assertion (private_key_jwt)", () => {
  it('takes a well-signed assertion addressed to the issuer or the token endpoint, once', () => {
    const seen = new Set<string>();
    assert.equal(check(jwt(claims), seen), 'machine');
    assert.equal(check(jwt({ ...claims, aud: `${ISSUER}token`, jti: 'two' }), seen, 'machine'), 'machine');
    assert.throws(() => check(jwt(claims), seen), /used before/);
  });

  it('refuses a wrong key, another audience, an expired one, iss or sub not the client, no signature', () => {
    const refused = (assertion: string, why: RegExp, clientId?: string) =>
      assert.throws(
        () => check(assertion, new Set(), clientId),
        (error: unknown) => {
          assert.ok(error instanceof AssertionRefused);
          assert.match(error.message, why);
          return true;
        }
      );
    const stranger = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
    refused(jwt(claims, stranger), /signature does not match/);
    refused(jwt({ ...claims, aud: 'http://127.0.0.1:4001/' }), /not addressed to this server/);
    refused(jwt({ ...claims, exp: NOW }), /expired/);
    refused(jwt({ ...claims, sub: 'someone' }), /iss and sub/);
    refused(jwt(claims), /not of the client named by client_id/, 'another');
    refused(`${jwt(claims).split('.').slice(0, 2).join('.')}.`, /signature does not match/);
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
    refused(none, /signed with none/);
  });
});

describe('a private key saved for private_key_jwt', () => {
  it('is kept in PKCS#8, converted from PKCS#1 or SEC1, and usable for its algorithm', () => {
    const fromSec1 = clientPrivateKeyPem(ec.privateKey.export({ type: 'sec1', format: 'pem' }).toString(), 'ES256');
    assert.match(fromSec1, /^-----BEGIN PRIVATE KEY-----/);
    const fromPkcs1 = clientPrivateKeyPem(rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(), 'PS256');
    assert.match(fromPkcs1, /^-----BEGIN PRIVATE KEY-----/);
    // The same key: its public half is the one registered.
    assert.equal(
      createPublicKey(fromSec1).export({ type: 'spki', format: 'pem' }),
      ec.publicKey.export({ type: 'spki', format: 'pem' })
    );
  });

  it('is refused in words when it does not fit the algorithm', () => {
    const pem = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    assert.throws(
      () => clientPrivateKeyPem(pem, 'ES256'),
      /^Error: The private key is a rsa key, which cannot sign with ES256/
    );
    const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey.export({
      type: 'pkcs8',
      format: 'pem'
    });
    assert.throws(
      () => clientPrivateKeyPem(p384.toString(), 'ES256'),
      /an EC key \(secp384r1\), which cannot sign with ES256/
    );
  });

  it('is refused when saved, not at its first sign-in, when it is an rsa-pss key or an RSA key under 2048 bits', async () => {
    const pss = generateKeyPairSync('rsa-pss', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem'
    });
    assert.throws(
      () => clientPrivateKeyPem(pss.toString(), 'PS256'),
      /a rsa-pss key, which cannot sign with PS256\. Choose the algorithm the key was made for, or use a plain RSA key/
    );
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem'
    });
    assert.throws(
      () => clientPrivateKeyPem(small.toString(), 'RS256'),
      /an RSA key of 1024 bits: RS256 needs one of 2048 bits or more/
    );
    // What the check lets through signs: the SDK's own client assertion with the key as kept.
    const kept = clientPrivateKeyPem(rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 'PS256');
    const addAssertion = createPrivateKeyJwtAuth({ issuer: 'c', subject: 'c', privateKey: kept, alg: 'PS256' });
    const params = new URLSearchParams();
    await addAssertion(new Headers(), params, 'https://as.example/token', undefined);
    assert.match(params.get('client_assertion') ?? '', /^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('is masked as a secret in what History and the task store write', () => {
    const pem = ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const values = new ServerSecretValues();
    values.noteConnecting(
      ServerConfigSchema.parse({ id: 'api', name: 'API', transport: { type: 'http', url: 'https://api.example/mcp' } }),
      { tokens: () => undefined, clientInformation: () => ({ client_id: 'machine' }), clientPrivateKey: () => pem }
    );
    assert.ok(values.values().includes(pem));
  });
});
