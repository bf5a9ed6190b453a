/**
 * A deep copy of JSON data (plain objects, arrays, strings, numbers, booleans, null).
 *
 * Stores hand out copies so that a caller cannot change what they keep. For data that is JSON
 * (it is stored as JSON and read back so: conversations, provider settings, policies) a walk
 * over plain objects and arrays copies it whole at a fraction of `structuredClone`'s cost on
 * small values (`structuredClone` serializes and deserializes through V8's message format: about
 * 15–20 µs for a provider's settings here, against 1–2 µs for the walk), which the assistant
 * benchmark paid several times per turn. Anything else met inside (a Date, a Map a caller put
 * in) is given to `structuredClone`, so nothing is shared either way.
 */
export function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) out[index] = copyJson<unknown>(value[index]);
    return out as T;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copyJson((value as Record<string, unknown>)[key]);
    // A `__proto__` key (JSON.parse makes one from a model's arguments) must stay a key, not set the prototype.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return out as T;
}
