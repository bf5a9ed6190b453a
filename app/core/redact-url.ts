/** Names (of query parameters, env variables, flags, headers) whose value is taken for a credential. */
export const SECRET_NAME =
  /(key|token|secret|password|passwd|pwd|auth|credential|signature|sig|session|cookie|bearer|jwt|private|cert)/i;

/** What a hidden value is replaced with. */
export const REDACTED = '[redacted]';

/**
 * Text with the credentials of any URL in it hidden: user info (`https://user:pass@…`) and the
 * values of query parameters whose name looks like a secret (`token`, `key`, `api_key`,
 * `access_token`, `auth`, `signature`…). Works on text, not parsed URLs, so that a URL an error
 * quotes in another spelling (normalized, cut, or only its path and query) is caught too.
 */
export function redactUrlsIn(text: string): string {
  return text
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi, `$1${REDACTED}@`)
    .replace(/([?&;])([^=&#\s"'<>]*)=([^&#\s"'<>]*)/g, (whole, sep: string, name: string) =>
      SECRET_NAME.test(decodeSafe(name)) ? `${sep}${name}=${REDACTED}` : whole
    );
}

/** Whether a URL names a user or password (which fetch refuses to send, and a log must not show). */
export function hasUserInfo(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== '' || parsed.password !== '';
  } catch {
    return false;
  }
}

/** `decodeURIComponent`, or the text as it is when it is not valid percent-encoding. */
export function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
