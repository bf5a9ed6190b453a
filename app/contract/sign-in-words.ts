// A module of its own, with no imports: the Desk imports it as a value, and a value import of
// ./server-auth.js would bring zod into the renderer bundle (its eval probe breaks the CSP).

/**
 * The redirect URI Taskdesk registers, and the one a person registers by hand: RFC 8252 §7.3 lets
 * a loopback redirect use any port, and each sign-in listens on one of its own.
 */
export const REGISTERED_REDIRECT_URI = 'http://127.0.0.1/callback';

/** How a request refused for want of a sign-in ends its message (see {@link isSignInRequest}). */
const SIGN_IN_REQUEST_END = 'press Sign in on its card in Taskdesk.';

/** The words of a request refused until the person signs in to `serverName` (at `issuer`). */
export function signInRequestText(serverName: string, issuer: string | undefined): string {
  return `Sign in to ${serverName}${issuer ? ` at ${issuer}` : ''} to use it: ${SIGN_IN_REQUEST_END}`;
}

/**
 * True for a connection's reason that is only a sign-in being asked for: the card then shows
 * the sign-in, not a failure.
 */
export function isSignInRequest(reason: string | undefined): boolean {
  return reason?.endsWith(SIGN_IN_REQUEST_END) ?? false;
}

/**
 * What the server's card says after Sign out of what the authorization server (`issuer`) did
 * with the sign-in: Taskdesk forgot its tokens either way, but a sign-in not revoked there stays
 * valid until it expires, which the person should know (their type written out: this module
 * imports nothing).
 */
export function revocationText(
  issuer: string | undefined,
  revocation: { outcome: 'revoked' } | { outcome: 'not-offered' } | { outcome: 'failed'; why: string }
): string {
  const where = issuer ?? 'the authorization server';
  switch (revocation.outcome) {
    case 'revoked':
      return `The sign-in was revoked at ${where} too.`;
    case 'not-offered':
      return `${where} offers no way to revoke a sign-in: it stays valid there until it expires.`;
    case 'failed':
      return `The sign-in could not be revoked at ${where} (${revocation.why}): it may stay valid there until it expires.`;
  }
}
