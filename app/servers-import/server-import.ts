import fs from 'node:fs';
import path from 'node:path';
import type { ServerConfigInput } from '../mcp/server-config.js';
import type {
  ChosenConfig,
  ImportOrigin,
  ImportSource,
  ImportedServer,
  ImportKind
} from '../contract/server-settings.js';
import { HostError, JsonRpcCode } from '../core/errors.js';
import { parseJsonc } from './jsonc.js';
import {
  entriesOf,
  entryTexts,
  inputRefs,
  looksSecret,
  readConfig,
  substitute,
  targetOf,
  unresolvedIn,
  type ConfigContents,
  type ConfigEntry
} from './config-shapes.js';
import { knownFileAt, knownFiles, type ImportPlaces, type KnownFile } from './known-places.js';

/** The servers already configured, to find clashes against. */
export interface ExistingServers {
  ids: ReadonlySet<string>;
  names: ReadonlySet<string>;
  /** By {@link copyKey}, of those that have one: its name, to tell an entry that is a copy of one. */
  targets: ReadonlyMap<string, string>;
}

/** What a server runs, as {@link copyKey} takes it. */
export type RunsWhat =
  | { type: 'stdio'; command: string; args: readonly string[]; cwd?: string | undefined; env?: Record<string, string> }
  | { type: 'http'; url: string; headers?: Record<string, string> };

/**
 * What a server runs, as a key: its command, arguments, folder and env vars exactly, or its URL
 * and headers. Two servers with the same key are copies of one another. A server with secrets
 * (kept in the key store, or secret-looking in a config) is given none: two accounts may differ
 * only there, which cannot be compared.
 */
export function copyKey(runs: RunsWhat): string {
  const sorted = (record: Record<string, string> | undefined) =>
    Object.entries(record ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(
    runs.type === 'stdio'
      ? ['stdio', runs.command, runs.args, runs.cwd ?? null, sorted(runs.env)]
      : ['http', runs.url, sorted(runs.headers)]
  );
}

/**
 * An entry's {@link copyKey}; none when it has secret-looking values, or variables Taskdesk would
 * fill in at import (`${input:…}`, `${workspaceFolder}`…: its saved copy holds their values).
 */
function entryCopyKey(entry: ConfigEntry, inputs: ConfigContents['inputs']): string | undefined {
  if (entryTexts(entry).some((text) => text.includes('${'))) return undefined;
  const secret = (record: Record<string, string>, header: boolean) =>
    Object.entries(record).some(([name, value]) => looksSecret(name, value, inputs, header));
  if (secret(entry.env, false) || secret(entry.headers, true)) return undefined;
  return copyKey(
    entry.transport === 'stdio'
      ? { type: 'stdio', command: entry.command, args: entry.args, cwd: entry.cwd, env: entry.env }
      : { type: 'http', url: entry.url, headers: entry.headers }
  );
}

function runsWords(entry: ConfigEntry): string {
  return entry.transport === 'stdio' ? 'command, arguments and settings' : 'URL and headers';
}

/** A source read in full: its contents, or why it could not be. */
interface ReadSource {
  file?: KnownFile;
  kind: ImportKind;
  contents?: ConfigContents;
  exists: boolean;
  error?: string;
}

/** A name in a file made a Taskdesk server id (letters, digits, dot, dash, underscore; at most 64). */
export function idFor(key: string): string {
  const id = key
    .trim()
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return id || 'server';
}

/**
 * Why a project folder given to look in holds no config, when the folder itself is the reason: it
 * does not exist, or is not a folder (nor a file, which is read as a config). Said rather than
 * only that its two files were not found; and, as a config file's path is given in the same box,
 * a path with nothing at it is not said to be a folder.
 */
async function folderProblem(folder: string): Promise<string | undefined> {
  try {
    return (await fs.promises.stat(folder)).isDirectory() ? undefined : `${folder} is not a folder or a config file`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? `There is no folder or file at ${folder}` : undefined;
  }
}

/** The largest file read as a config: configs are a few kilobytes, and a far larger file is not one. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/** How much one read asks for: a config is read in one or two, and a file of unknown size a bit at a time. */
const READ_CHUNK_BYTES = 64 * 1024;

/**
 * A file's text, read only, or why not. What is not a regular file (a named pipe, a device, a
 * socket) is never opened: its kind is known from `stat` first, through any symlink. At most
 * {@link MAX_CONFIG_BYTES} and a chunk are read, whatever its size says: a file that grows while
 * read, or one of /proc or /sys that says 0 bytes, is refused as too big once it has more. Reads
 * are asynchronous, so a slow disk or network share does not hold up the host.
 */
async function readRegularFile(where: string): Promise<{ text: string } | { code: string } | { problem: string }> {
  const notRegular = { problem: `${where} is not a config file (not a regular file)` };
  const tooBig = { problem: `${where} is too big to be a config` };
  let before: fs.Stats;
  try {
    before = await fs.promises.stat(where);
  } catch (error) {
    return { code: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
  if (before.isDirectory()) return { code: 'EISDIR' };
  if (!before.isFile()) return notRegular;
  if (before.size > MAX_CONFIG_BYTES) return tooBig;
  let file: fs.promises.FileHandle;
  try {
    // Should the path be made a named pipe or a device after the stat, the open neither waits
    // for a writer (non-blocking) nor makes a terminal the host's (no controlling tty).
    const { O_RDONLY, O_NONBLOCK, O_NOCTTY } = fs.constants;
    file = await fs.promises.open(where, O_RDONLY | (O_NONBLOCK ?? 0) | (O_NOCTTY ?? 0));
  } catch (error) {
    return { code: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
  try {
    const stat = await file.stat();
    if (!stat.isFile()) return notRegular;
    // Whole chunks (/proc/self/pagemap answers only reads of 8 bytes and more), until there is
    // more than allowed: the file is too big, whatever its size said.
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES);
      const { bytesRead } = await file.read(chunk, 0, chunk.length, length);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      length += bytesRead;
      if (length > MAX_CONFIG_BYTES) return tooBig;
    }
    return { text: Buffer.concat(chunks, length).toString('utf8') };
  } catch (error) {
    return { code: (error as NodeJS.ErrnoException).code ?? String(error) };
  } finally {
    await file.close().catch(() => undefined);
  }
}

/** Reads and parses one file, in words when it cannot be: never throws, never writes. */
async function readFile(file: KnownFile): Promise<ReadSource> {
  const read = await readRegularFile(file.path);
  if ('problem' in read) return { file, kind: file.kind, exists: true, error: read.problem };
  if ('code' in read) {
    if (read.code === 'ENOENT' || read.code === 'ENOTDIR') {
      const folder = file.workspaceFolder === undefined ? undefined : await folderProblem(file.workspaceFolder);
      return { file, kind: file.kind, exists: false, ...(folder !== undefined && { error: folder }) };
    }
    return { file, kind: file.kind, exists: true, error: `${file.path} could not be read (${read.code})` };
  }
  return { file, ...readText(read.text, file.kind, file.path), exists: true };
}

/**
 * A config file the person named by its path: a known one as what it is (a project's
 * `.vscode/mcp.json` as that project's), any other as a config of its own (`file`), read in any of
 * the shapes the importer knows. Only ever read (see {@link readFile}).
 */
function givenFile(places: ImportPlaces, where: string): KnownFile {
  const p = places.platform === 'win32' ? path.win32 : path.posix;
  const full = p.resolve(where);
  return knownFileAt(places, full) ?? { kind: 'file', label: 'Config file', path: full };
}

/** Whether a path given under Project folders is a file (read as a config) rather than a folder. */
async function isFileAt(where: string): Promise<boolean> {
  try {
    return (await fs.promises.stat(where)).isFile();
  } catch {
    return false;
  }
}

function readText(text: string, kind: ImportKind, where: string): Omit<ReadSource, 'exists'> {
  try {
    return { kind, contents: readConfig(parseJsonc(text), kind) };
  } catch (error) {
    return {
      kind,
      error: `${where} is not a config Taskdesk can read: ${(error as Error).message}. Nothing was imported from it.`
    };
  }
}

function sourceView(source: ReadSource, existing: ExistingServers, label: string): ImportSource {
  const inputs = source.contents?.inputs ?? [];
  const workspaceKnown = source.file?.workspaceFolder !== undefined;
  const servers: ImportedServer[] = (source.contents?.servers ?? []).map((entry) => {
    const id = idFor(entry.key);
    const texts = entryTexts(entry);
    const key = entryCopyKey(entry, inputs);
    const sameAs = key === undefined ? undefined : existing.targets.get(key);
    return {
      key: entry.key,
      id,
      transport: entry.transport,
      target: targetOf(entry),
      env: entriesOf(entry.env, inputs, false),
      headers: entriesOf(entry.headers, inputs, true),
      inputs: [...new Set(texts.flatMap(inputRefs))],
      unknownFields: entry.unknownFields,
      unresolved: [...new Set(texts.flatMap((text) => unresolvedIn(text, workspaceKnown)))],
      ...(entry.problem !== undefined && { problem: entry.problem }),
      ...(entry.disabled && { disabled: true }),
      clash: existing.ids.has(id) || existing.names.has(entry.key.toLowerCase()),
      ...(sameAs !== undefined && { sameAs })
    };
  });
  return {
    kind: source.kind,
    label,
    ...(source.file && { path: source.file.path }),
    exists: source.exists,
    ...(source.error !== undefined && { error: source.error }),
    servers,
    inputs
  };
}

/**
 * What `servers.importFind` answers: every known file (found or not), the file chosen in the page
 * if any (read by its text, as pasted text is, and said by its name) and the pasted text if any.
 */
export async function findImports(
  places: ImportPlaces,
  existing: ExistingServers,
  options: { projectDirs?: readonly string[]; file?: ChosenConfig; text?: string }
): Promise<ImportSource[]> {
  const given = options.projectDirs ?? [];
  const isFile = await Promise.all(given.map(isFileAt));
  const files = knownFiles(
    places,
    given.filter((_, index) => !isFile[index])
  );
  // A file given is read as that config, once (a known one may be in the list already).
  for (const where of given.filter((_, index) => isFile[index])) {
    const file = givenFile(places, where);
    if (!files.some((known) => known.path === file.path)) files.push(file);
  }
  const read = await Promise.all(files.map(readFile));
  const sources = files.map((file, index) => sourceView(read[index]!, existing, file.label));
  // A file chosen is read whatever it holds: an empty one is said to be no config, not left out.
  if (options.file !== undefined)
    sources.push(
      sourceView(readOrigin({ text: options.file.text, name: options.file.name }), existing, options.file.name)
    );
  if (options.text !== undefined && options.text.trim() !== '')
    sources.push(sourceView(readOrigin({ text: options.text }), existing, 'Pasted JSON'));
  return sources;
}

/** Config text, pasted or (with its `name`) of a file chosen in the page, read as the source it is. */
function readOrigin(origin: { text: string; name?: string | undefined }): ReadSource {
  const read =
    origin.name === undefined
      ? readText(origin.text, 'pasted', 'The pasted text')
      : readText(origin.text, 'file', origin.name);
  return { ...read, exists: true };
}

/** One server to add, as `servers.importAdd` picks it. */
export interface ImportPick {
  key: string;
  secretEnv: string[];
  secretHeaders: string[];
}

/**
 * The configs `servers.importAdd` adds, and what it skips, for the picks of one source. Nothing
 * is returned (−32602 is thrown) when the source does not parse, a pick is not in it, or an
 * input a picked server uses has no value: a broken import adds nothing. A server the other app
 * has switched off (`"disabled": true`) is added with `autoConnect: false`, whatever was asked.
 */
export async function planImport(
  places: ImportPlaces,
  existing: ExistingServers,
  request: {
    origin: ImportOrigin;
    picks: ImportPick[];
    onClash: 'rename' | 'skip';
    inputs: Record<string, string>;
    autoConnect: boolean;
  }
): Promise<{
  add: Array<{ key: string; config: ServerConfigInput }>;
  skipped: Array<{ key: string; reason: string }>;
}> {
  let source: ReadSource;
  if ('path' in request.origin) {
    const file = givenFile(places, request.origin.path);
    source = await readFile(file);
    if (!source.exists) throw new HostError(JsonRpcCode.InvalidParams, `${file.path} does not exist`);
  } else source = readOrigin(request.origin);
  if (source.error !== undefined || !source.contents)
    throw new HostError(JsonRpcCode.InvalidParams, source.error ?? 'Nothing to import');
  const contents = source.contents;
  const ids = new Set(existing.ids);
  const names = new Set(existing.names);
  const add: Array<{ key: string; config: ServerConfigInput }> = [];
  const skipped: Array<{ key: string; reason: string }> = [];
  const missing = new Set<string>();
  for (const pick of request.picks) {
    const entry = contents.servers.find((server) => server.key === pick.key);
    if (!entry) throw new HostError(JsonRpcCode.InvalidParams, `No server "${pick.key}" in this config`);
    if (entry.problem !== undefined) {
      skipped.push({ key: entry.key, reason: entry.problem });
      continue;
    }
    // An input left empty counts as missing: an empty key or region makes a server that fails later, unexplained.
    for (const id of entryTexts(entry).flatMap(inputRefs))
      if (!Object.hasOwn(request.inputs, id) || request.inputs[id]!.trim() === '') missing.add(id);
    let id = idFor(entry.key);
    let name = entry.key;
    const key = entryCopyKey(entry, contents.inputs);
    const sameAs = key === undefined ? undefined : existing.targets.get(key);
    if (sameAs !== undefined && request.onClash === 'skip') {
      skipped.push({ key: entry.key, reason: `${sameAs} runs the same ${runsWords(entry)} already` });
      continue;
    }
    if (ids.has(id) || names.has(name.toLowerCase())) {
      if (request.onClash === 'skip') {
        skipped.push({ key: entry.key, reason: `A server with the id ${id} or the name ${name} exists already` });
        continue;
      }
      let n = 2;
      while (ids.has(`${id.slice(0, 60)}-${n}`) || names.has(`${name} (${n})`.toLowerCase())) n++;
      id = `${id.slice(0, 60)}-${n}`;
      name = `${name} (${n})`;
    }
    ids.add(id);
    names.add(name.toLowerCase());
    const vars = {
      inputs: request.inputs,
      home: places.home,
      ...(source.file?.workspaceFolder !== undefined && { workspaceFolder: source.file.workspaceFolder })
    };
    const sub = (text: string) => substitute(text, vars);
    const subAll = (record: Record<string, string>) =>
      Object.fromEntries(Object.entries(record).map(([key, value]) => [key, sub(value)]));
    // A value from a password input is a secret whatever the user unticked.
    const secret = (record: Record<string, string>, picked: string[], header: boolean) =>
      Object.entries(record)
        .filter(
          ([key, value]) =>
            picked.includes(key) ||
            (looksSecret(key, value, contents.inputs, header) && inputRefs(value).length > 0) ||
            (header && /^(proxy-)?authorization$/i.test(key))
        )
        .map(([key]) => key);
    // One the other app has switched off stays off here: imported if picked, but not connected.
    const autoConnect = request.autoConnect && !entry.disabled;
    const config: ServerConfigInput =
      entry.transport === 'stdio'
        ? {
            id,
            name,
            autoConnect,
            transport: {
              type: 'stdio',
              command: sub(entry.command),
              args: entry.args.map(sub),
              ...(entry.cwd !== undefined && { cwd: sub(entry.cwd) }),
              ...(Object.keys(entry.env).length > 0 && { env: subAll(entry.env) })
            },
            secrets: { env: secret(entry.env, pick.secretEnv, false), headers: [] }
          }
        : {
            id,
            name,
            autoConnect,
            transport: {
              type: 'http',
              url: sub(entry.url),
              ...(Object.keys(entry.headers).length > 0 && { headers: subAll(entry.headers) })
            },
            secrets: { env: [], headers: secret(entry.headers, pick.secretHeaders, true) }
          };
    add.push({ key: entry.key, config });
  }
  if (missing.size > 0)
    throw new HostError(
      JsonRpcCode.InvalidParams,
      `Enter a value for the input${missing.size > 1 ? 's' : ''} ${[...missing].join(', ')}`
    );
  return { add, skipped };
}
