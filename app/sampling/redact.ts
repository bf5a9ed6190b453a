/**
 * Removes API keys from text that may reach a log, an error, a note or a UI.
 *
 * Providers echo keys back in their error bodies, sometimes whole and sometimes
 * masked (OpenAI's 401 says "Incorrect API key provided: sk-abc***wxyz"), so both the
 * known key and anything shaped like a key are replaced.
 */
export function redactSecrets(text: string, knownKeys: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const key of knownKeys) {
    if (key && key.length >= 4) out = out.split(key).join('[redacted]');
  }
  // Common key shapes: sk-..., sk-proj-..., key-..., Bearer tokens.
  out = out.replace(/\b(?:sk|pk|rk|key)-[A-Za-z0-9_*\-.]{4,}/g, '[redacted]');
  out = out.replace(/\bBearer\s+[A-Za-z0-9_*\-.=]+/gi, 'Bearer [redacted]');
  return out;
}
