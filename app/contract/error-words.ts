/* Imports nothing: the Desk and the core say an error in the same words. */

/**
 * An error's message as its server meant it. A server written with the MCP SDK sends its error's
 * message with the SDK's own lead, and the SDK's client adds it again ("MCP error -32050: MCP
 * error -32050: Upstream quota exhausted"): the code travels beside it, so a lead of the error's
 * own code is left out, each time. Another code's lead is part of what the server said, and a
 * lead with nothing after it is the whole message. `toErrorData` stores errors so; the screens
 * say records stored before it so too.
 */
export function serverErrorText(error: { code: number; message: string }): string {
  const lead = `MCP error ${error.code}: `;
  let message = error.message;
  while (message.startsWith(lead) && message.length > lead.length) message = message.slice(lead.length);
  return message;
}

/** An error in a line: its code and its message ("Error -32050: Upstream quota exhausted"). */
export function errorWords(error: { code: number; message: string }): string {
  return `Error ${error.code}: ${serverErrorText(error)}`;
}
