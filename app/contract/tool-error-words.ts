/* Imports nothing: the Desk takes it as a value (a contract module that imports zod would bring
   zod's eval probe into the page). */

/**
 * What a tool's result marked as an error (`isError`) is said with, before the words of its
 * content ("The tool reported an error: disk full"): above the content where a result is shown
 * whole (the Tools screen, the Tasks detail, History), before its first line in a Tasks row. One
 * wording, so that a row and the detail it opens say the same.
 */
export const TOOL_REPORTED_AN_ERROR = 'The tool reported an error:';
