import type { OutboundTaskView } from '../contract/outbound-tasks.js';

/**
 * A deep copy of an outbound task's view, for handing out (events, `get`, `list`) while the
 * follower goes on changing its own.
 *
 * A view is JSON data (it is stored as JSON and read back so), so a walk over plain objects and
 * arrays copies it whole: about a fifth of `structuredClone`'s cost on a typical view (3 µs
 * against 17 µs here), which the requestor benchmark's profile showed once per written change.
 */
export function copyView(view: OutboundTaskView): OutboundTaskView {
  return copyJson(view);
}

function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  // Anything but a plain object or array (a Date a caller put in a tool's arguments) is cloned whole.
  if (!Array.isArray(value) && !isPlainObject(value)) return structuredClone(value);
  if (Array.isArray(value)) {
    const out: unknown[] = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) out[index] = copyJson<unknown>(value[index]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = copyJson((value as Record<string, unknown>)[key]);
  return out as T;
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
