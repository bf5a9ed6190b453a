import { HostMethods, type HostMethod, type HostReply } from '../app/contract/host-api.js';
import type { Host } from '../app/host/host.js';

/** JSON-RPC codes of the two refusals made before the host sees a call. */
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;

/**
 * Answers one host API call that arrived over IPC: refuses untrusted senders and unknown
 * methods, then hands the params, unparsed, to `host.dispatch`, which validates them against
 * the contract. Always resolves: errors travel as data, because Electron keeps only the
 * message of a thrown error.
 *
 * Electron-free, so the same decision runs in tests without Electron.
 */
export async function answerCall(
  host: Pick<Host, 'dispatch'>,
  trusted: boolean,
  method: unknown,
  params: unknown
): Promise<HostReply<HostMethod>> {
  if (!trusted)
    return { ok: false, error: { code: INVALID_REQUEST, message: 'Calls are accepted from the Taskdesk window only' } };
  // hasOwn: a name such as `constructor` must not reach the method table's prototype.
  if (typeof method !== 'string' || !Object.hasOwn(HostMethods, method)) {
    return { ok: false, error: { code: METHOD_NOT_FOUND, message: `Unknown host method ${String(method)}` } };
  }
  return host.dispatch(method as HostMethod, params);
}
