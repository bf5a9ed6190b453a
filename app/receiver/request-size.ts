import { partText } from '../store/json-text.js';

/**
 * The UTF-8 bytes of `JSON.stringify(params)`, exactly, where `request` is `params` without some
 * of its keys (`task`, `_meta`): the request's text is made once and kept (see `partText`), for
 * the store, the journal and the history to use, so a 1 MB request is serialized once in its life.
 *
 * A JSON object is two braces, its members, and a comma between two of them; the members of
 * `params` are those of `request` and of the rest, so its size is the sum of theirs, less one
 * pair of braces, plus the comma between the two groups when both have members.
 */
export function paramsBytes(params: Record<string, unknown>, request: Record<string, unknown>): number {
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(params)) if (!Object.hasOwn(request, key)) rest[key] = params[key];
  const requestBytes = partText(request).bytes;
  const restBytes = Buffer.byteLength(JSON.stringify(rest));
  if (requestBytes === 2) return restBytes;
  if (restBytes === 2) return requestBytes;
  return requestBytes + restBytes - 1;
}
