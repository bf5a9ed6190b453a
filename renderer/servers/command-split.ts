import { parse } from 'shell-quote';
import type { ServerDraft } from './server-draft.js';

/**
 * A command line typed or pasted whole into Command ("npx -y @scope/server", as every README
 * shows it), split as a shell would split it: quotes kept together, whitespace outside them
 * parting the words. Undefined when there is nothing to split, or nothing safe to split:
 *
 * - a single word (a path with its spaces quoted is one word too);
 * - a backslash: a shell takes it as an escape, Windows as a folder separator, and we cannot
 *   tell which was meant;
 * - a pipe, a redirect, `&&` or a comment: Taskdesk starts the command itself, with no shell to
 *   run those, so no split of them would run what was meant.
 *
 * Variables are kept as written (`$HOME`): no shell expands them here either.
 */
export function commandLineParts(text: string): { command: string; args: string[] } | undefined {
  if (text.includes('\\')) return undefined;
  const words: string[] = [];
  for (const entry of parse(text.trim(), (name) => `$${name}`)) {
    if (typeof entry === 'string') words.push(entry);
    else if ('op' in entry && entry.op === 'glob') words.push(entry.pattern);
    else return undefined;
  }
  const [command, ...args] = words;
  // Arguments holds one a line: a quoted newline could not be told from two arguments.
  if (words.some((word) => word.includes('\n'))) return undefined;
  return command && args.length > 0 ? { command, args } : undefined;
}

/**
 * The draft with a command line in Command split into Command and Arguments, and the words that
 * say so (`commandSplit`); undefined when Arguments has text already (the person chose how to
 * part them) or Command holds no command line.
 */
export function withCommandSplit(draft: ServerDraft): ServerDraft | undefined {
  if (draft.transport !== 'stdio' || draft.args.trim() !== '') return undefined;
  const parts = commandLineParts(draft.command);
  if (!parts) return undefined;
  const count = parts.args.length;
  return {
    ...draft,
    command: parts.command,
    args: parts.args.join('\n'),
    commandSplit: `Split into the command ${parts.command} and ${count} ${count === 1 ? 'argument' : 'arguments'}, one a line in Arguments.`
  };
}

/**
 * Enter in Command with a command line still in it: the draft split first (the form shows it,
 * says it, and Command keeps the focus), not sent; the next submit sends it. True when it split.
 */
export function splitBeforeSubmit(
  draft: ServerDraft,
  form: { setDraft: (draft: ServerDraft) => void; announce: (words: string) => void; focusCommand: () => void }
): boolean {
  const split = withCommandSplit(draft);
  if (!split?.commandSplit) return false;
  form.setDraft(split);
  form.announce(split.commandSplit);
  form.focusCommand();
  return true;
}

/** What the Command field says of an address typed into it. */
const COMMAND_IS_URL = 'This is a URL: choose Streamable HTTP for a server at an address.';

/**
 * The words for a Command that is an http(s) URL (a Streamable HTTP server's address, which no
 * process could be started from), or undefined for any other command.
 */
export function commandUrlWords(command: string): string | undefined {
  const text = command.trim();
  if (!/^https?:\/\/\S+$/i.test(text)) return undefined;
  try {
    new URL(text);
  } catch {
    return undefined;
  }
  return COMMAND_IS_URL;
}
