import type { ProtocolEra } from '../contract/common.js';
import type { OutboundTaskView } from '../contract/outbound-tasks.js';
import { MODERN_PROTOCOL_VERSION } from '../mcp/modern-protocol.js';

/**
 * The era an outbound task is followed in, read from its `protocol` field.
 *
 * The field keeps its contract (and on-disk) form, the modern version string or nothing for a
 * legacy task; internal code speaks of eras, as connections do.
 */
export function eraOfOutbound(view: Pick<OutboundTaskView, 'protocol'>): ProtocolEra {
  return view.protocol === MODERN_PROTOCOL_VERSION ? 'modern' : 'legacy';
}

/** Marks a new outbound task as followed in the modern era (the tasks extension of MCP 2026-07-28). */
export function markModern(view: OutboundTaskView): void {
  view.protocol = MODERN_PROTOCOL_VERSION;
}
