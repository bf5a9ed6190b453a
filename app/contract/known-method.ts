/**
 * The one check of a call's method name, shared by every transport of the host API (Electron
 * IPC in main/, browser mode in app/browser) and by `Host.dispatch` itself.
 *
 * Depends on the contract alone (zod), so any side of a transport may import it.
 */
import type { ErrorData } from './common.js';
import { HostMethods, type HostMethod } from './host-api.js';

/** JSON-RPC "Method not found": what a call to a method the contract does not have gets. */
const METHOD_NOT_FOUND = -32601;

/** Whether a name is a method of the host API contract. */
export function isHostMethod(name: unknown): name is HostMethod {
  // hasOwn: a name such as `constructor` must not reach the method table's prototype.
  return typeof name === 'string' && Object.hasOwn(HostMethods, name);
}

/** The error data a call to an unknown method is answered with. */
export function unknownHostMethod(name: unknown): ErrorData {
  return { code: METHOD_NOT_FOUND, message: `Unknown host method ${String(name)}` };
}
