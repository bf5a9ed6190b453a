/**
 * Limits of importing servers from other apps' configs that the Desk keeps to as well as the
 * core. Values only, no zod: the renderer imports this module (see `import-panel.tsx`).
 */

/**
 * The most characters of config text `servers.importFind` and `servers.importAdd` take, pasted or
 * of a file chosen in the page (the page refuses a chosen file of more bytes before reading it).
 */
export const MAX_IMPORT_TEXT = 1_000_000;
