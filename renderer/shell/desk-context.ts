import { createContext, useContext, useSyncExternalStore } from 'react';
import type { HostApiClient } from '../../app/contract/host-api.js';
import type { DeskState } from '../store/desk-state.js';
import type { DeskStore } from '../store/desk-store.js';
import type { ConfirmRequest } from './confirm-dialog.js';

/** What every component may reach: the store, the host API and a few shared UI services. */
export interface Desk {
  store: DeskStore;
  client: HostApiClient;
  /** Says something to screen readers (a polite live region). */
  announce: (message: string) => void;
  /** Asks the user in a modal dialog; resolves true when they agree. */
  confirm: (request: ConfirmRequest) => Promise<boolean>;
  /** Opens an http(s) link outside Taskdesk. The caller has asked the user already. */
  openExternal: (url: string) => void;
  /**
   * Goes to the Tools screen showing one server's tools; with `call`, that tool's form open and
   * filled with the call's arguments (Call again…), sent only when the person presses Call tool.
   */
  openTools: (serverId: string, call?: ToolCallAgain) => void;
}

/** A call to make again: which tool, with what arguments (absent when they were not kept). */
export interface ToolCallAgain {
  tool: string;
  arguments?: Record<string, unknown>;
}

export const DeskContext = createContext<Desk | undefined>(undefined);

/** The Desk's services. */
export function useDesk(): Desk {
  const desk = useContext(DeskContext);
  if (!desk) throw new Error('useDesk outside the Desk');
  return desk;
}

/**
 * A slice of the store's state. The selector must return a part of the state (or a value),
 * not a new object each time; derive lists with `useMemo` on the slice.
 */
export function useDeskState<T>(select: (state: DeskState) => T): T {
  const { store } = useDesk();
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}
