import { listInWords } from '../../app/contract/list-words.js';
import type { ImportSource } from '../../app/contract/server-settings.js';

/**
 * What a look found: "Found 2 servers to import in 1 config, 1 that Taskdesk has already, and 1
 * that cannot be imported." The servers to import are those the rows start ticked with (see
 * `ImportSourceCard`); those Taskdesk has (by name, or a copy) and those that cannot be imported
 * (no command, an SSE server…) are counted apart, each row saying what it is.
 */
export function foundWords(sources: readonly ImportSource[]): string {
  const configs = sources.filter((source) => source.exists).length;
  if (configs === 0) return 'Found no configs to import from.';
  const servers = sources.flatMap((source) => source.servers);
  const importable = servers.filter((server) => server.problem === undefined);
  const had = importable.filter((server) => server.sameAs !== undefined || server.clash).length;
  const fresh = importable.length - had;
  const not = servers.length - importable.length;
  const found = `Found ${fresh === 0 ? 'no' : fresh} server${fresh === 1 ? '' : 's'} to import in ${configs} config${configs === 1 ? '' : 's'}`;
  const apart = [
    ...(had > 0 ? [`${had} that Taskdesk has already`] : []),
    ...(not > 0 ? [`${not} that cannot be imported`] : [])
  ];
  return apart.length === 0 ? `${found}.` : `${found}, ${[...apart.slice(0, -1), `and ${apart.at(-1)!}`].join(', ')}.`;
}

/** The kinds of config an app keeps in a place of its own, looked in at every look. */
const APP_KINDS: ReadonlySet<ImportSource['kind']> = new Set(['claude-desktop', 'cursor', 'vscode-user']);

/**
 * Where a look found no config, said as information, not as an error: "Looked for Claude
 * Desktop, Cursor and VS Code configs in: … (none there)." when no app keeps one here, "Looked in:
 * … (no config there)." for the others (a project folder's file, an app's second file). After a
 * pasted config, the apps' places are left out: the paste is what the person asked to read.
 * A project folder that is not there is said apart (its source's `error`), not here.
 */
export function lookedWords(sources: readonly ImportSource[], { pasted }: { pasted: boolean }): string[] {
  const isApp = (source: ImportSource) => APP_KINDS.has(source.kind);
  const notThere = sources.filter((source) => !source.exists && source.error === undefined);
  const apps = pasted ? [] : notThere.filter(isApp);
  const noApp = apps.length > 0 && apps.length === sources.filter(isApp).length;
  const rest = [...(noApp ? [] : apps), ...notThere.filter((source) => !isApp(source))];
  const paths = (list: readonly ImportSource[]) => listInWords(list.map((source) => source.path ?? source.label));
  // "VS Code (user settings)" and "VS Code (user mcp.json)" are one app.
  const names = [...new Set(apps.map((source) => source.label.replace(/\s*\(.*\)$/, '')))];
  const lines = noApp ? [`Looked for ${listInWords(names)} configs in: ${paths(apps)} (none there).`] : [];
  if (rest.length > 0) lines.push(`${noApp ? 'Also looked in' : 'Looked in'}: ${paths(rest)} (no config there).`);
  return lines;
}
