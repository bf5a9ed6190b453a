import type { ServerConfigInput } from '../../app/contract/host-api.js';
import type { EditableServerInput, ServerSettings, SettingEntry } from '../../app/contract/server-settings.js';

/** One env var or header being edited. `stored`: a secret whose value is in the key store. */
export interface EntryDraft {
  key: number;
  name: string;
  value: string;
  secret: boolean;
  stored: boolean;
}

/** The fields of the Add and Edit forms, as typed. */
export interface ServerDraft {
  name: string;
  transport: 'stdio' | 'http';
  command: string;
  /** One argument per line. */
  args: string;
  cwd: string;
  env: EntryDraft[];
  url: string;
  headers: EntryDraft[];
  autoConnect: boolean;
  protocol: 'auto' | '2025-11-25' | '2026-07-28';
  /** What the form did to a command line in Command (see `withCommandSplit`): said by the field until Command is typed in again. */
  commandSplit?: string | undefined;
}

export type DraftField = 'name' | 'command' | 'url' | 'env' | 'headers';

let nextKey = 1;
/** A fresh entry row. */
export function newEntry(partial: Partial<EntryDraft> = {}): EntryDraft {
  return { key: nextKey++, name: '', value: '', secret: false, stored: false, ...partial };
}

/** What the Add form starts with, and goes back to after an add. */
export function emptyDraft(): ServerDraft {
  return {
    name: '',
    transport: 'stdio',
    command: '',
    args: '',
    cwd: '',
    env: [],
    url: '',
    headers: [],
    autoConnect: true,
    protocol: 'auto'
  };
}

/** A name the form ticks "Secret" for by default (the user may untick it; not an Authorization header). */
export const SECRET_LOOKING = /(key|token|secret|password|passwd|pwd|auth|credential|cookie|bearer|jwt|private)/i;

/** Headers that are always secrets: their box is ticked and cannot be unticked. */
export function alwaysSecret(name: string): boolean {
  return /^(proxy-)?authorization$/i.test(name.trim());
}

/** The Edit form's draft of a server's settings (secrets as stored rows without values). */
export function draftFromSettings(settings: ServerSettings): ServerDraft {
  const rows = (entries: SettingEntry[]) =>
    entries.map((entry) =>
      newEntry({ name: entry.name, value: entry.value ?? '', secret: entry.secret, stored: entry.secret })
    );
  const transport = settings.transport;
  return {
    ...emptyDraft(),
    name: settings.name,
    autoConnect: settings.autoConnect,
    protocol: settings.protocol,
    ...(transport.type === 'stdio'
      ? {
          transport: 'stdio',
          command: transport.command,
          args: transport.args.join('\n'),
          cwd: transport.cwd ?? '',
          env: rows(transport.env)
        }
      : { transport: 'http', url: transport.url, headers: rows(transport.headers) })
  };
}

/** What the user can fix before asking the host: field → message. */
export function draftProblems(draft: ServerDraft): Array<[DraftField, string]> {
  const problems: Array<[DraftField, string]> = [];
  if (!draft.name.trim()) problems.push(['name', 'Required']);
  if (draft.transport === 'stdio' && !draft.command.trim()) problems.push(['command', 'Required']);
  if (draft.transport === 'http') {
    const url = draft.url.trim();
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!url) problems.push(['url', 'Required']);
    else if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:'))
      problems.push(['url', 'Enter an http:// or https:// URL']);
  }
  const field: DraftField = draft.transport === 'stdio' ? 'env' : 'headers';
  const rows = draft.transport === 'stdio' ? draft.env : draft.headers;
  const seen = new Set<string>();
  for (const row of rows) {
    const name = row.name.trim();
    if (!name) {
      problems.push([field, 'Every row needs a name (or remove the row)']);
      break;
    }
    if (seen.has(name.toLowerCase())) {
      problems.push([field, `${name} is listed twice`]);
      break;
    }
    seen.add(name.toLowerCase());
    if (field === 'headers' && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      problems.push([field, `${name} is not a valid header name`]);
      break;
    }
    if (row.secret && !row.stored && row.value === '') {
      problems.push([field, `Enter a value for the secret ${name}`]);
      break;
    }
  }
  return problems;
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** The draft as `servers.update` takes it: a stored secret left empty keeps its value. */
export function toEditable(draft: ServerDraft): EditableServerInput {
  const entries = (rows: EntryDraft[]) =>
    rows.map((row) => {
      const secret = row.secret || (draft.transport === 'http' && alwaysSecret(row.name));
      const keep = secret && row.stored && row.value === '';
      return { name: row.name.trim(), secret, ...(!keep && { value: row.value }) };
    });
  return {
    name: draft.name.trim(),
    autoConnect: draft.autoConnect,
    protocol: draft.protocol,
    transport:
      draft.transport === 'stdio'
        ? {
            type: 'stdio',
            command: draft.command.trim(),
            args: lines(draft.args),
            ...(draft.cwd.trim() && { cwd: draft.cwd.trim() }),
            env: entries(draft.env)
          }
        : { type: 'http', url: draft.url.trim(), headers: entries(draft.headers) }
  };
}

/** The draft as `servers.add` takes it: values in env/headers, the secret ones named in `secrets`. */
export function toConfigInput(id: string, draft: ServerDraft): ServerConfigInput {
  const record = (rows: EntryDraft[]) => Object.fromEntries(rows.map((row) => [row.name.trim(), row.value]));
  const secretNames = (rows: EntryDraft[]) =>
    rows
      .filter((row) => row.secret || (draft.transport === 'http' && alwaysSecret(row.name)))
      .map((row) => row.name.trim());
  return {
    id,
    name: draft.name.trim(),
    autoConnect: draft.autoConnect,
    protocol: draft.protocol,
    transport:
      draft.transport === 'stdio'
        ? {
            type: 'stdio',
            command: draft.command.trim(),
            args: lines(draft.args),
            ...(draft.cwd.trim() && { cwd: draft.cwd.trim() }),
            ...(draft.env.length > 0 && { env: record(draft.env) })
          }
        : { type: 'http', url: draft.url.trim(), ...(draft.headers.length > 0 && { headers: record(draft.headers) }) },
    secrets: {
      env: draft.transport === 'stdio' ? secretNames(draft.env) : [],
      headers: draft.transport === 'http' ? secretNames(draft.headers) : []
    },
    // Said, not left to the records' key order: an object puts a name like "10" first.
    entryOrder: (draft.transport === 'stdio' ? draft.env : draft.headers).map((row) => row.name.trim())
  };
}

/** The other server already called `name` (case and spaces aside, as a screen reader says it), if any. */
export function nameTakenBy<S extends { id: string; name: string }>(
  name: string,
  servers: readonly S[],
  ownId?: string
): S | undefined {
  const wanted = name.trim().toLowerCase();
  if (!wanted) return undefined;
  return servers.find((server) => server.id !== ownId && server.name.trim().toLowerCase() === wanted);
}

/** What the Name field says of a name another server has. */
export function nameTakenWords(other: { id: string; name: string }): string {
  return `Another server (id ${other.id}) is named ${other.name}: messages could not tell the two apart. Choose another name.`;
}

/** What the Id field says of an id another server has (the host's own words). */
export function idTakenWords(other: { name: string }): string {
  return `Id already used by ${other.name}: choose another, or edit that server.`;
}
