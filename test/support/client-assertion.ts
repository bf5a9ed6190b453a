/**
 * What an authorization server checks of a client that proves itself with a JWT assertion
 * signed by its private key (`private_key_jwt`, RFC 7523 §2.2 and §3; OpenID Connect Core §9),
 * for the local test authorization server: the signature with the public key registered for
 * the client (node:crypto, no JWT library: the check is independent of the signing side), `iss`
 * and `sub` both the client id, `aud` the token endpoint or the issuer, `exp` not passed, and a
 * `jti` not seen before.
 */
import { constants, verify, type KeyObject } from 'node:crypto';

/** The `client_assertion_type` of a JWT assertion (RFC 7523 §2.2). */
export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** The hash each JWS algorithm signs (RFC 7518 §3.1). */
const HASH_OF: Record<string, string> = {
  RS256: 'sha256',
  RS384: 'sha384',
  RS512: 'sha512',
  PS256: 'sha256',
  PS384: 'sha384',
  PS512: 'sha512',
  ES256: 'sha256',
  ES384: 'sha384',
  ES512: 'sha512'
};

/** Why an assertion was refused (the token endpoint answers `invalid_client` with it). */
export class AssertionRefused extends Error {}

/** A JWT part as JSON: an object, or the assertion is refused. */
function part(text: string | undefined, what: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(Buffer.from(text ?? '', 'base64url').toString('utf8')) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // Said below.
  }
  throw new AssertionRefused(`The assertion's ${what} is not a JSON object`);
}

/** A URL without its trailing slashes, so that an issuer given with or without one compares equal. */
function bare(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * Checks `assertion` and resolves with the client id it proves; throws {@link AssertionRefused}
 * with why otherwise. `clientId` is the request's `client_id` parameter, if it has one (it must
 * then be the same client); `audiences` are the addresses `aud` may name; `now` in seconds.
 */
export function verifyClientAssertion(
  assertion: string,
  options: {
    clientId: string | undefined;
    publicKeyOf(clientId: string): KeyObject | undefined;
    audiences: string[];
    now: number;
    seen: Set<string>;
  }
): string {
  const [encodedHeader, encodedPayload, encodedSignature, ...rest] = assertion.split('.');
  if (encodedSignature === undefined || rest.length > 0)
    throw new AssertionRefused('The assertion is not a signed JWT');
  const header = part(encodedHeader, 'header');
  const payload = part(encodedPayload, 'payload');
  const alg = typeof header.alg === 'string' ? header.alg : '';
  const hash = HASH_OF[alg];
  if (hash === undefined)
    throw new AssertionRefused(`The assertion is signed with ${alg || 'no algorithm'}, not one this server takes`);
  const { iss, sub, aud, exp, jti } = payload;
  if (typeof iss !== 'string' || iss !== sub)
    throw new AssertionRefused("The assertion's iss and sub are not both the client id");
  if (options.clientId !== undefined && options.clientId !== iss)
    throw new AssertionRefused('The assertion is not of the client named by client_id');
  const key = options.publicKeyOf(iss);
  if (key === undefined) throw new AssertionRefused(`No key is registered for the client ${iss}`);
  const data = Buffer.from(`${encodedHeader}.${encodedPayload}`);
  const signature = Buffer.from(encodedSignature, 'base64url');
  const signed = alg.startsWith('ES')
    ? verify(hash, data, { key, dsaEncoding: 'ieee-p1363' }, signature)
    : alg.startsWith('PS')
      ? verify(
          hash,
          data,
          { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST },
          signature
        )
      : verify(hash, data, key, signature);
  if (!signed) throw new AssertionRefused("The assertion's signature does not match the key registered for the client");
  const audiences = (Array.isArray(aud) ? aud : [aud]).filter((each): each is string => typeof each === 'string');
  if (!audiences.some((each) => options.audiences.some((wanted) => bare(wanted) === bare(each))))
    throw new AssertionRefused('The assertion is not addressed to this server (aud)');
  if (typeof exp !== 'number' || exp <= options.now) throw new AssertionRefused('The assertion has expired (exp)');
  if (typeof jti === 'string') {
    if (options.seen.has(jti)) throw new AssertionRefused('The assertion was used before (jti)');
    options.seen.add(jti);
  }
  return iss;
}
