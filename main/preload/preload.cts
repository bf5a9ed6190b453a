/**
 * The preload: exposes one frozen object, `window.taskdesk`, with `call` and `on`, and
 * nothing else: no `ipcRenderer`, no Node.
 *
 * CommonJS because sandboxed preloads are loaded as scripts with a polyfilled `require` that
 * knows only Electron's modules; hence no imports here but `electron` and types.
 */
import electron = require('electron');
import type { IpcRendererEvent } from 'electron';
import type { HostApiClient, HostEvent, HostEventPayload, HostReply } from '../../app/contract/host-api.js';
import type { CALL_CHANNEL, EVENT_CHANNEL, PICK_FOLDER_CHANNEL } from '../ipc-channels.js';
import type { FolderPicker } from '../../app/contract/input-exchanges.js';

const { contextBridge, ipcRenderer } = electron;
const CALL: typeof CALL_CHANNEL = 'taskdesk:call';
const EVENT: typeof EVENT_CHANNEL = 'taskdesk:event';
const PICK_FOLDER: typeof PICK_FOLDER_CHANNEL = 'taskdesk:pick-folder';

const listeners = new Map<string, Set<(payload: unknown) => void>>();

ipcRenderer.on(EVENT, (_event: IpcRendererEvent, message: { event?: unknown; payload?: unknown }) => {
  if (typeof message?.event !== 'string') return;
  for (const listener of [...(listeners.get(message.event) ?? [])]) {
    try {
      listener(message.payload);
    } catch (error) {
      // One broken view must not stop the others from hearing the event.
      console.error(error);
    }
  }
});

const taskdesk: HostApiClient & FolderPicker = {
  /** The system's folder picker (for a server's roots); null when the person closed it. */
  async pickFolder() {
    const folder = (await ipcRenderer.invoke(PICK_FOLDER)) as unknown;
    return typeof folder === 'string' ? folder : null;
  },
  async call(method, params) {
    if (typeof method !== 'string') throw { code: -32600, message: 'The method must be a string' };
    const reply = (await ipcRenderer.invoke(CALL, method, params)) as HostReply<typeof method>;
    if (reply.ok) return reply.result;
    // Rejected with plain error data: it crosses the context bridge whole, where an Error
    // would arrive with its message only (the renderer wraps it in its own error class).
    throw {
      code: reply.error.code,
      message: reply.error.message,
      ...(reply.error.data !== undefined && { data: reply.error.data })
    };
  },
  on<E extends HostEvent>(event: E, listener: (payload: HostEventPayload<E>) => void) {
    if (typeof listener !== 'function') throw new TypeError('The listener must be a function');
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    const entry = listener as (payload: unknown) => void;
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  }
};

contextBridge.exposeInMainWorld('taskdesk', Object.freeze(taskdesk));
