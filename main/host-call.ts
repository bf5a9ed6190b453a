import type { HostMethod, HostReply } from '../app/contract/host-api.js';
import { isHostMethod, unknownHostMethod } from '../app/contract/known-method.js';
import type { Host } from '../app/host/host.js';

/** JSON-RPC code of the refusal of an untrusted sender, made before the host sees a call. */
const INVALID_REQUEST = -32600;

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
  if (!isHostMethod(method)) return { ok: false, error: unknownHostMethod(method) };
  return host.dispatch(method, params);
}
