import type { OutboundTaskView } from '../contract/outbound-tasks.js';
import { copyJson } from '../core/json-copy.js';

/**
 * A deep copy of an outbound task's view, for handing out (events, `get`, `list`) while the
 * follower goes on changing its own.
 *
 * A view is JSON data (it is stored as JSON and read back so), so the JSON walk copies it whole:
 * about a fifth of `structuredClone`'s cost on a typical view (3 µs against 17 µs here), which the
 * requestor benchmark's profile showed once per written change. A tool's arguments with a
 * `__proto__` key (a server's or a model's JSON can hold one) keep it as a key.
 */
export function copyView(view: OutboundTaskView): OutboundTaskView {
  return copyJson(view);
}
