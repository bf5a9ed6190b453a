import type { HostApiClient } from '../app/contract/host-api.js';
import type { Child } from './dom.js';

/** What a confirmation asks. */
export interface ConfirmRequest {
  title: string;
  body: Child;
  confirmLabel: string;
  /** The confirm button looks destructive. */
  danger?: boolean;
}

/** What every view is given: the host API and a few shared UI services. */
export interface AppContext {
  client: HostApiClient;
  /** Says something to screen readers (a polite live region) and shows it briefly. */
  announce(message: string): void;
  /** Asks the user in a modal dialog; resolves true when they agree. */
  confirm(request: ConfirmRequest): Promise<boolean>;
  /** Opens an http(s) link outside Taskdesk. The caller has asked the user already. */
  openExternal(url: string): void;
}
