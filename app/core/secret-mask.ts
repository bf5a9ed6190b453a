/** What a secret's value is replaced with in stored text: the mask the Servers screen shows for one. */
export const SECRET_MASK = '••••';

/**
 * The shortest secret value that is masked. A value shorter than this is left as it is: "true",
 * "8080", "admin" or "staging" are as likely ordinary words of a result, and masking every
 * occurrence of them would garble History while protecting little (a secret that short is
 * guessed more easily than found). API keys, access tokens and passwords worth the name are
 * longer.
 */
export const MIN_MASKED_SECRET_LENGTH = 8;

/**
 * How many times over JSON escaping is undone: a secret with a quote or a backslash is spelled
 * escaped in JSON text inside a string (a tool that answers with `JSON.stringify(process.env)`),
 * and escaped twice in JSON text quoted inside that.
 */
const ESCAPE_LEVELS = 2;

/**
 * The spellings of `secrets` to look for: each value of at least {@link MIN_MASKED_SECRET_LENGTH}
 * characters, as it is and as it appears in JSON text (escaped once, then twice), longest first.
 */
export function secretForms(secrets: Iterable<string | undefined>): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret === undefined || secret.length < MIN_MASKED_SECRET_LENGTH) continue;
    let form = secret;
    forms.add(form);
    for (let level = 0; level < ESCAPE_LEVELS; level++) {
      const escaped = JSON.stringify(form).slice(1, -1);
      if (escaped === form) break;
      forms.add(escaped);
      form = escaped;
    }
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * `text` with every exact occurrence of any of `forms` (see {@link secretForms}) replaced by
 * {@link SECRET_MASK}. Occurrences that overlap or touch (two secrets sharing characters, one
 * inside another) become one mask, so that no piece of either is left in the clear.
 */
export function maskSecretsInText(text: string, forms: readonly string[]): string {
  let covered: Uint8Array | undefined;
  for (const form of forms) {
    // Every occurrence, overlapping ones included ("aaaaaaaa" twice in nine a's).
    for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) {
      covered ??= new Uint8Array(text.length);
      covered.fill(1, at, at + form.length);
    }
  }
  if (covered === undefined) return text;
  let out = '';
  let at = 0;
  while (at < text.length) {
    let end = at;
    if (covered[at] === 1) {
      while (end < text.length && covered[end] === 1) end++;
      out += SECRET_MASK;
    } else {
      while (end < text.length && covered[end] === 0) end++;
      out += text.slice(at, end);
    }
    at = end;
  }
  return out;
}

/**
 * A JSON value (plain objects, arrays, strings, numbers, booleans, null) with the given secrets
 * masked in every string, object keys included (see {@link maskSecretsInText}). What holds none
 * is returned as it is, not copied: the caller can tell by identity that nothing changed.
 */
export function maskSecrets<T>(value: T, secrets: Iterable<string | undefined>): T {
  const forms = secretForms(secrets);
  return forms.length === 0 ? value : (maskValue(value, forms) as T);
}

function maskValue(value: unknown, forms: readonly string[]): unknown {
  if (typeof value === 'string') return maskSecretsInText(value, forms);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item: unknown) => {
      const masked = maskValue(item, forms);
      if (masked !== item) changed = true;
      return masked;
    });
    return changed ? out : value;
  }
  let changed = false;
  const entries = Object.entries(value).map(([key, item]) => {
    const maskedKey = maskSecretsInText(key, forms);
    const masked = maskValue(item, forms);
    if (maskedKey !== key || masked !== item) changed = true;
    return [maskedKey, masked] as const;
  });
  // `fromEntries` defines each key, `__proto__` included, rather than setting a prototype.
  return changed ? Object.fromEntries(entries) : value;
}
