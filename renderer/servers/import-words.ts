import { listInWords } from '../../app/contract/list-words.js';
import type { ImportSource } from '../../app/contract/server-settings.js';

/**
 * What a look found: "Found 2 servers to import in 3 configs; 1 more is in Taskdesk already, 1 is
 * switched off in Claude Desktop and 1 cannot be imported.", or, when none is new, "Nothing new to
 * import in 1 config: 2 servers are in Taskdesk already and 1 cannot be imported." The servers to
 * import are those the rows start ticked with (see `ImportSourceCard`); those Taskdesk has (by
 * name, or a copy), those switched off in their app and those that cannot be imported (no
 * command, an SSE server…) are counted apart, each row saying what it is.
 *
 * A config there that could not be read (not JSON, not a config, too big) is not counted as one
 * looked in: it is said apart, "Could not read the pasted text.", alone when nothing else was
 * read, after the count otherwise. Its card says why.
 */
export function foundWords(sources: readonly ImportSource[]): string {
  const there = sources.filter((source) => source.exists);
  const read = there.filter((source) => source.error === undefined);
  const unread = there.filter((source) => source.error !== undefined);
  const notRead =
    unread.length === 0
      ? undefined
      : `Could not read ${unread.length === 1 ? sourceName(unread[0]!) : `${unread.length} configs`}.`;
  if (read.length === 0) return notRead ?? 'Found no configs to import from.';
  const found = readWords(read, `${read.length} config${read.length === 1 ? '' : 's'}`);
  return notRead === undefined ? found : `${found} ${notRead}`;
}

/** A config as a sentence names it: "the pasted text", a chosen file's name, a file's path. */
function sourceName(source: ImportSource): string {
  if (source.kind === 'pasted') return 'the pasted text';
  return source.path ?? source.label;
}

/** What the configs read hold, counted as {@link foundWords} says it, `where` naming them ("2 configs"). */
function readWords(sources: readonly ImportSource[], where: string): string {
  const servers = sources.flatMap((source) => source.servers.map((server) => ({ server, kind: source.kind })));
  if (servers.length === 0) return `Found no servers to import in ${where}.`;
  const importable = servers.filter(({ server }) => server.problem === undefined);
  const had = importable.filter(({ server }) => server.sameAs !== undefined || server.clash).length;
  const off = importable.filter(({ server }) => server.sameAs === undefined && !server.clash && server.disabled);
  const fresh = importable.length - had - off.length;
  const not = servers.length - importable.length;
  const apps = [...new Set(off.map(({ kind }) => appOf(kind)))];
  const apart: Array<[count: number, one: string, many: string]> = [
    [had, 'is in Taskdesk already', 'are in Taskdesk already'],
    [
      off.length,
      `is switched off in ${apps[0] ?? ''}`,
      `are switched off in ${apps.length === 1 ? apps[0]! : 'their apps'}`
    ],
    [not, 'cannot be imported', 'cannot be imported']
  ];
  // The first count says what it counts ("2 more", "2 servers"); the others follow it.
  const said = apart
    .filter(([count]) => count > 0)
    .map(([count, one, many], index) => {
      const noun = index > 0 ? '' : fresh > 0 ? ' more' : count === 1 ? ' server' : ' servers';
      return `${count}${noun} ${count === 1 ? one : many}`;
    });
  if (fresh === 0) return `Nothing new to import in ${where}: ${listInWords(said)}.`;
  const found = `Found ${fresh} server${fresh === 1 ? '' : 's'} to import in ${where}`;
  return said.length === 0 ? `${found}.` : `${found}; ${listInWords(said)}.`;
}

/** The app a config of a kind belongs to, as a row says a server is switched off "in" it. */
export function appOf(kind: ImportSource['kind']): string {
  switch (kind) {
    case 'claude-desktop':
      return 'Claude Desktop';
    case 'cursor':
    case 'cursor-project':
      return 'Cursor';
    case 'vscode-user':
    case 'vscode-workspace':
      return 'VS Code';
    case 'file':
      return 'its config file';
    case 'pasted':
      return 'the pasted config';
  }
}

/** A server an import added, as the import's result line names it (a way to its card). */
export interface ResultServer {
  id: string;
  name: string;
}

/** Where a server an import added stands, as the result line says it. */
export type ResultState =
  | { is: 'connected' }
  | { is: 'connecting' }
  | { is: 'failed'; reason: string }
  /** Not connected: the app it came from has it switched off. */
  | { is: 'off'; app: string }
  /** Not connected, and not to be (the person unticked "Connect them now"), or disconnected since. */
  | { is: 'left' }
  /** Removed from Taskdesk since it was imported: it has no card to go to. */
  | { is: 'removed' };

/**
 * The result line in parts: words, and the servers it names (each once), which the panel makes
 * ways to their cards; a server removed since is named in words, having no card.
 */
export type ResultPart = string | ResultServer;

/**
 * What an import did, naming each server once: "Imported env-echo (2) and filesystem; both are
 * connected.", "Imported github; it is not connected, since it is switched off in Claude
 * Desktop.", or, where they stand apart, "Imported 3 servers. Connected: filesystem. Did not
 * connect: github (the command … was not found); weather (…)." With `from` (a chosen file's
 * name), it says where they came from: "Imported task-tools and echo-two from
 * claude_desktop_config.json; both are connected."
 */
export function importedWords(
  added: ReadonlyArray<ResultServer & { state: ResultState }>,
  from?: string
): ResultPart[] {
  const source = from === undefined ? '' : ` from ${from}`;
  if (added.length === 0) return [`Nothing was imported${source}.`];
  const removed = new Set(added.flatMap((server) => (server.state.is === 'removed' ? [server.id] : [])));
  const names = (list: readonly ResultServer[]): ResultPart[] =>
    list.flatMap((server, index) => [
      ...(index === 0 ? [] : [index === list.length - 1 ? ' and ' : ', ']),
      removed.has(server.id) ? server.name : { id: server.id, name: server.name }
    ]);
  const group = (state: ResultState) => (state.is === 'off' ? `off:${state.app}` : state.is);
  const first = added[0]!.state;
  // All alike, said once after their names; but each failure has its own reason, said by its name.
  if (added.every((server) => group(server.state) === group(first)) && (first.is !== 'failed' || added.length === 1)) {
    const one = added.length === 1;
    const all = one ? 'it is' : added.length === 2 ? 'both are' : 'all are';
    const end =
      first.is === 'connected'
        ? `; ${all} connected.`
        : first.is === 'connecting'
          ? `; ${all} still connecting.`
          : first.is === 'failed'
            ? `; it did not connect (${first.reason}).`
            : first.is === 'off'
              ? `; ${one ? 'it is' : 'they are'} not connected, since ${one ? 'it is' : 'they are'} switched off in ${first.app}.`
              : first.is === 'removed'
                ? `; ${one ? 'it was' : added.length === 2 ? 'both were' : 'all were'} removed since.`
                : '.';
    return ['Imported ', ...names(added), source + end];
  }
  const parts: ResultPart[] = [`Imported ${added.length} servers${source}.`];
  const of = (is: ResultState['is']) => added.filter((server) => server.state.is === is);
  const line = (label: string, list: readonly ResultServer[]) => {
    if (list.length > 0) parts.push(` ${label}: `, ...names(list), '.');
  };
  line('Connected', of('connected'));
  line('Still connecting', of('connecting'));
  const failed = added.flatMap(({ id, name, state }) =>
    state.is === 'failed' ? [{ id, name, why: state.reason }] : []
  );
  if (failed.length > 0)
    parts.push(
      ' Did not connect: ',
      ...failed.flatMap(({ id, name, why }, index) => [...(index === 0 ? [] : ['; ']), { id, name }, ` (${why})`]),
      '.'
    );
  const offApps = [...new Set(added.flatMap(({ state }) => (state.is === 'off' ? [state.app] : [])))];
  for (const app of offApps)
    line(
      `Switched off in ${app}, so not connected`,
      added.filter(({ state }) => state.is === 'off' && state.app === app)
    );
  line('Not connected', of('left'));
  line('Removed since', of('removed'));
  return parts;
}

/** The kinds of config an app keeps in a place of its own, looked in at every look. */
const APP_KINDS: ReadonlySet<ImportSource['kind']> = new Set(['claude-desktop', 'cursor', 'vscode-user']);

/**
 * Where a look found no config, said as information, not as an error: "Looked for Claude
 * Desktop, Cursor and VS Code configs in: … (none there)." when no app keeps one here, "Looked in:
 * … (no config there)." for the others (a project folder's file, an app's second file). After a
 * pasted config or a config file chosen (`pasted`), the apps' places are left out: that is what
 * the person asked to read.
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

/**
 * Why a config file chosen in the page is not read: it has more bytes than Taskdesk takes
 * (`MAX_IMPORT_TEXT`), said in megabytes: "It is 2.5 MB; Taskdesk reads a config file of at most
 * 1 MB." The size is rounded up, so that one just over the limit does not read as the limit.
 */
export function tooBigWords(bytes: number, limit: number): string {
  const megabytes = (size: number) => `${(Math.ceil(size / 100_000) / 10).toLocaleString('en')} MB`;
  return `It is ${megabytes(bytes)}; Taskdesk reads a config file of at most ${megabytes(limit)}.`;
}
