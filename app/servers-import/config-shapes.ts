import type { ImportKind, SettingEntry } from '../contract/server-settings.js';
import { SECRET_NAME } from '../core/redact-url.js';
import { commandLine, redactUrl } from '../mcp/server-config.js';

/** A VS Code input (`promptString`) that server fields refer to as `${input:id}`. */
export interface ConfigInput {
  id: string;
  description?: string;
  password: boolean;
}

/** One server entry of a config file, read but not yet imported: values as written. */
export interface ConfigEntry {
  key: string;
  transport: 'stdio' | 'http';
  command: string;
  args: string[];
  cwd?: string;
  url: string;
  env: Record<string, string>;
  headers: Record<string, string>;
  unknownFields: string[];
  /**
   * Switched off in the app whose config it is: `"disabled": true`, read in every shape (an
   * `mcpServers` entry of Claude Desktop, Cursor or pasted JSON, a VS Code `servers` one).
   * Imported, it is not connected.
   */
  disabled: boolean;
  /** Why it cannot be imported; absent when it can. */
  problem?: string;
}

/** What a config holds: its servers and inputs. */
export interface ConfigContents {
  servers: ConfigEntry[];
  inputs: ConfigInput[];
}

/** Fields of a server entry Taskdesk reads; any other is reported (`disabled` too, unless true or false). */
const KNOWN_FIELDS = new Set(['type', 'command', 'args', 'env', 'cwd', 'url', 'headers']);

/**
 * The servers and inputs of a parsed config of one kind. Claude Desktop and Cursor keep
 * servers under `mcpServers`; VS Code under `servers` (a workspace's or the user's mcp.json) or
 * `mcp.servers` (user settings.json), with `inputs` beside them. Pasted text may be any of these.
 * A file of a known kind without servers holds none (a settings.json need not mention MCP);
 * pasted text without them is an error. Throws what is wrong, in words.
 */
export function readConfig(value: unknown, kind: ImportKind): ConfigContents {
  if (!isObject(value)) throw new Error('The file is not a JSON object');
  const mcp = isObject(value.mcp) ? value.mcp : undefined;
  const holder: Record<string, unknown> | undefined =
    value.mcpServers !== undefined
      ? { servers: value.mcpServers }
      : value.servers !== undefined
        ? value
        : mcp?.servers !== undefined
          ? mcp
          : value['mcp.servers'] !== undefined
            ? { servers: value['mcp.servers'], inputs: value['mcp.inputs'] }
            : undefined;
  if (!holder) {
    if (kind === 'pasted') {
      // A bare map of servers, as some READMEs show it.
      if (
        Object.values(value).length > 0 &&
        Object.values(value).every((entry) => isObject(entry) && ('command' in entry || 'url' in entry))
      )
        return readConfig({ mcpServers: value }, kind);
      throw new Error('No "mcpServers", "servers" or "mcp.servers" found in the pasted JSON');
    }
    return { servers: [], inputs: [] };
  }
  const servers = holder.servers;
  if (!isObject(servers)) throw new Error('The servers are not a JSON object of name → server');
  return {
    servers: Object.entries(servers).map(([key, entry]) => readEntry(key, entry)),
    inputs: readInputs(holder.inputs ?? (mcp === holder ? undefined : mcp?.inputs))
  };
}

function readInputs(value: unknown): ConfigInput[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).flatMap((input) =>
    typeof input.id === 'string'
      ? [
          {
            id: input.id,
            ...(typeof input.description === 'string' && { description: input.description }),
            password: input.password === true
          }
        ]
      : []
  );
}

function readEntry(key: string, entry: unknown): ConfigEntry {
  const base: ConfigEntry = {
    key,
    transport: 'stdio',
    command: '',
    args: [],
    url: '',
    env: {},
    headers: {},
    unknownFields: [],
    disabled: false
  };
  if (!isObject(entry)) return { ...base, problem: 'Not a JSON object' };
  base.unknownFields = Object.keys(entry).filter(
    (field) => !KNOWN_FIELDS.has(field) && !(field === 'disabled' && typeof entry.disabled === 'boolean')
  );
  base.disabled = entry.disabled === true;
  const type = typeof entry.type === 'string' ? entry.type.toLowerCase() : undefined;
  const problems: string[] = [];
  const strings = (field: string, value: unknown): Record<string, string> => {
    if (value === undefined) return {};
    if (!isObject(value)) {
      problems.push(`"${field}" is not an object`);
      return {};
    }
    const out: Record<string, string> = {};
    for (const [name, item] of Object.entries(value)) {
      if (typeof item === 'string') out[name] = item;
      else if (typeof item === 'number' || typeof item === 'boolean') out[name] = String(item);
      else problems.push(`${field}.${name} is not a string`);
    }
    return out;
  };
  if (type === 'sse')
    return {
      ...base,
      transport: 'http',
      url: typeof entry.url === 'string' ? entry.url : '',
      problem:
        'It uses the older HTTP+SSE transport; Taskdesk speaks Streamable HTTP only (add its Streamable HTTP URL by hand)'
    };
  const http =
    type === 'http' ||
    type === 'streamable-http' ||
    type === 'streamablehttp' ||
    (type === undefined && entry.command === undefined && entry.url !== undefined);
  if (!http && type !== undefined && type !== 'stdio')
    return { ...base, problem: `Unknown transport type "${String(entry.type)}"` };
  if (http) {
    const url = typeof entry.url === 'string' ? entry.url : '';
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) problems.push('"url" is not an http:// or https:// URL');
    const result: ConfigEntry = { ...base, transport: 'http', url, headers: strings('headers', entry.headers) };
    return problems.length > 0 ? { ...result, problem: problems.join('; ') } : result;
  }
  const command = typeof entry.command === 'string' ? entry.command.trim() : '';
  if (!command) problems.push('"command" is missing');
  let args: string[] = [];
  if (entry.args !== undefined) {
    if (Array.isArray(entry.args) && entry.args.every((arg) => typeof arg === 'string' || typeof arg === 'number'))
      args = entry.args.map(String);
    else problems.push('"args" is not a list of strings');
  }
  const result: ConfigEntry = {
    ...base,
    command,
    args,
    env: strings('env', entry.env),
    ...(typeof entry.cwd === 'string' && { cwd: entry.cwd })
  };
  return problems.length > 0 ? { ...result, problem: problems.join('; ') } : result;
}

/** `${input:id}` ids a text refers to. */
export function inputRefs(text: string): string[] {
  return [...text.matchAll(/\$\{input:([^}]+)\}/g)].map((match) => match[1]!);
}

/** Every string of an entry that variables may appear in. */
export function entryTexts(entry: ConfigEntry): string[] {
  return [
    entry.command,
    ...entry.args,
    entry.cwd ?? '',
    entry.url,
    ...Object.values(entry.env),
    ...Object.values(entry.headers)
  ];
}

/**
 * Replaces the variables Taskdesk knows in a text: `${input:id}` (the values the user gave),
 * `${workspaceFolder}` (the project a workspace file belongs to) and `${userHome}`. Others stay.
 */
export function substitute(
  text: string,
  values: { inputs: Record<string, string>; workspaceFolder?: string; home: string }
): string {
  return text.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
    if (name.startsWith('input:')) return values.inputs[name.slice(6)] ?? whole;
    if (name === 'workspaceFolder' && values.workspaceFolder !== undefined) return values.workspaceFolder;
    if (name === 'userHome') return values.home;
    return whole;
  });
}

/** Variables a text has that {@link substitute} leaves as they are. */
export function unresolvedIn(text: string, workspaceKnown: boolean): string[] {
  return [...text.matchAll(/\$\{([^}]+)\}/g)]
    .map((match) => match[1]!)
    .filter(
      (name) => !name.startsWith('input:') && name !== 'userHome' && !(workspaceKnown && name === 'workspaceFolder')
    )
    .map((name) => `\${${name}}`);
}

/** Whether a value is taken for a secret at import: its name looks like one, or it uses a password input. */
export function looksSecret(name: string, value: string, inputs: ConfigInput[], header: boolean): boolean {
  if (header && /^(proxy-)?authorization$/i.test(name)) return true;
  if (SECRET_NAME.test(name)) return true;
  return inputRefs(value).some((id) => inputs.find((input) => input.id === id)?.password === true);
}

/** An entry's env vars or headers as the Import panel shows them: a value only when not a secret. */
export function entriesOf(record: Record<string, string>, inputs: ConfigInput[], header: boolean): SettingEntry[] {
  return Object.entries(record).map(([name, value]) =>
    looksSecret(name, value, inputs, header) ? { name, secret: true } : { name, value, secret: false }
  );
}

/**
 * What an entry reaches, with secret-looking values hidden; empty when it has no command (the
 * panel says so in words, where a command line would show an empty quoted word: `'' --port 4000`).
 */
export function targetOf(entry: ConfigEntry): string {
  if (entry.transport === 'http') return redactUrl(entry.url);
  return entry.command === '' ? '' : commandLine(entry.command, entry.args);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
