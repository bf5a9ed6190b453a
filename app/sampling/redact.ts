import { redactUrlsIn } from '../core/redact-url.js';

const REDACTED = '[redacted]';
/** A run of characters a key, or a key with its middle masked, is written in. */
const TOKEN = /[A-Za-z0-9_\-+/.*•…·=]+/g;
/** The unmasked pieces of such a run. */
const PIECE = /[A-Za-z0-9_\-+/]+/g;
/** Shortest fragment of a key that counts as an echo of it. */
const MIN_FRAGMENT = 4;

/**
 * Removes API keys from text that may reach a log, an error, a note, a server or a UI.
 *
 * Providers echo keys back in their error bodies, whole or masked, in any case: OpenAI's 401
 * says "Incorrect API key provided: sk-abc***wxyz", others print the first and last few
 * characters with `…` or stars between, or the key upper-cased. So besides the known keys
 * themselves (in any case), any word that holds a fragment of one of at least four characters
 * (a piece of the key, or text starting with its first four or ending with its last four
 * characters) is replaced, with whatever masking is attached to it; and so is anything shaped
 * like a key (`sk-…`, `Bearer …`) and URL credentials. This may hide a harmless word that
 * happens to share four characters with a key's ends: hiding too much is the safe side.
 */
export function redactSecrets(text: string, knownKeys: readonly (string | undefined)[] = []): string {
  const keys = knownKeys.filter((key): key is string => key !== undefined && key.length >= MIN_FRAGMENT);
  let out = text;
  for (const key of keys) out = out.replace(new RegExp(escapeRegExp(key), 'gi'), REDACTED);
  const lower = keys.filter((key) => key.length >= 2 * MIN_FRAGMENT).map((key) => key.toLowerCase());
  if (lower.length > 0) out = out.replace(TOKEN, (token) => (echoesKey(token, lower) ? REDACTED : token));
  // Common key shapes: sk-..., sk-proj-..., key-..., Bearer tokens.
  out = out.replace(/\b(?:sk|pk|rk|key)-[A-Za-z0-9_*\-.…•]{4,}/g, REDACTED);
  out = out.replace(/\bBearer\s+[A-Za-z0-9_*\-.=…•]+/gi, `Bearer ${REDACTED}`);
  return redactUrlsIn(out);
}

/** Whether a word holds a fragment of one of the keys (lower-cased). */
function echoesKey(token: string, keys: readonly string[]): boolean {
  for (const piece of token.toLowerCase().match(PIECE) ?? []) {
    if (piece.length < MIN_FRAGMENT) continue;
    for (const key of keys) {
      if (
        key.includes(piece) ||
        piece.startsWith(key.slice(0, MIN_FRAGMENT)) ||
        piece.endsWith(key.slice(-MIN_FRAGMENT))
      )
        return true;
    }
  }
  return false;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
