/**
 * The two IPC channels of the host API: one `invoke` channel for calls, one channel for events.
 *
 * The sandboxed preload cannot import this module (its `require` loads only Electron), so it
 * repeats the names typed as `typeof` these constants: a mismatch does not compile.
 */
export const CALL_CHANNEL = 'taskdesk:call';
export const EVENT_CHANNEL = 'taskdesk:event';
/** The app's folder picker (`dialog.showOpenDialog`), for a server's roots: one `invoke` channel. */
export const PICK_FOLDER_CHANNEL = 'taskdesk:pick-folder';
