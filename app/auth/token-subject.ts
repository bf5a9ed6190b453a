import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/**
 * Who the tokens were issued to, when they say so: the `sub` claim of an OpenID Connect
 * `id_token`, or of an access token that is a JWT (RFC 9068). Read for display and for binding
 * tasks to a user, never trusted as proof: the token came straight from the token endpoint
 * over the connection Taskdesk opened, and its signature is the resource server's business.
 * Opaque tokens name no subject: then tasks are bound to the grant without it.
 */
export function subjectOf(tokens: OAuthTokens): string | undefined {
  for (const token of [tokens.id_token, tokens.access_token]) {
    const subject = token === undefined ? undefined : jwtSubject(token);
    if (subject !== undefined) return subject;
  }
  return undefined;
}

function jwtSubject(token: string): string | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as unknown;
    const sub = typeof payload === 'object' && payload !== null ? (payload as { sub?: unknown }).sub : undefined;
    return typeof sub === 'string' && sub.length > 0 && sub.length <= 256 ? sub : undefined;
  } catch {
    return undefined;
  }
}
