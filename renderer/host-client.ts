import type { ErrorData, HostApiClient } from '../app/contract/host-api.js';
import type { FolderPicker } from '../app/contract/input-exchanges.js';

declare global {
  interface Window {
    /** The host API (and the folder picker), exposed by the Electron preload. Absent in browser mode. */
    readonly taskdesk?: HostApiClient & Partial<FolderPicker>;
  }
}

/** JSON-RPC code of invalid params: form answers that do not match carry per-field errors. */
export const INVALID_PARAMS = -32602;

/**
 * The page's own code (the host never sends it) for a call browser mode refused because this
 * tab's launch token is out of date: no step but opening the new address can help.
 */
export const STALE_TAB = -32090;

/**
 * The page's own code for a call that never reached Taskdesk (browser mode stopped, or started
 * again at another address): nothing was sent.
 */
export const UNREACHABLE = -32091;

/**
 * The page's own code for a call whose answer never came: the connection to Taskdesk ended
 * after the call was sent (browser mode stopped while it ran). What it asked may have been done
 * (a tool call may have run), or not.
 */
export const CONNECTION_LOST = -32092;

/** A host API call that failed: the contract's error data, as an `Error`. */
export class HostCallError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(error: ErrorData) {
    super(error.message);
    this.name = 'HostCallError';
    this.code = error.code;
    this.data = error.data;
  }

  /** Per-field messages (`data.fields`) of a −32602 answer, keyed by field name. */
  get fields(): Record<string, string> {
    if (this.code !== INVALID_PARAMS) return {};
    const fields = (this.data as { fields?: unknown } | undefined)?.fields;
    if (typeof fields !== 'object' || fields === null) return {};
    return Object.fromEntries(
      Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    );
  }
}

/** Turns whatever a transport rejected with into a {@link HostCallError}. */
export function toHostCallError(error: unknown): HostCallError {
  if (error instanceof HostCallError) return error;
  if (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as ErrorData).code === 'number' &&
    typeof (error as ErrorData).message === 'string'
  ) {
    const { code, message, data } = error as ErrorData;
    return new HostCallError(data === undefined ? { code, message } : { code, message, data });
  }
  return new HostCallError({ code: -32603, message: error instanceof Error ? error.message : String(error) });
}

/**
 * Wraps a transport's client so every failed call rejects with a {@link HostCallError}.
 *
 * The Electron preload rejects with plain error data (an `Error` would lose its code and data
 * crossing the context bridge); the browser adapter already throws `HostCallError`s.
 */
export function withHostErrors(client: HostApiClient): HostApiClient {
  return {
    call: (method, params) =>
      client.call(method, params).catch((error: unknown) => Promise.reject(toHostCallError(error))),
    on: (event, listener) => client.on(event, listener)
  };
}
