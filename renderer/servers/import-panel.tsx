import { useEffect, useRef, useState } from 'react';
import type { ImportedServer, ImportSource } from '../../app/contract/server-settings.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { FieldFrame } from '../forms/field-frame.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * "Import from other apps": finds the MCP servers of Claude Desktop, Cursor and VS Code (and of
 * the project folders given, and pasted JSON), shows what each holds, and adds the picked ones.
 */
export function ImportPanel() {
  const { client, announce } = useDesk();
  const [projects, setProjects] = useState('');
  const [pasted, setPasted] = useState('');
  const [sources, setSources] = useState<ImportSource[] | undefined>(undefined);
  const { failure, fail, clear } = useFailure();
  const [busy, setBusy] = useState(false);
  /**
   * What was found lands below the fold, under the button: after the person's own look, the
   * focus goes to the heading of the results and they are brought into sight (a look again after
   * an import leaves the focus on what the import did).
   */
  const results = useRef<HTMLHeadingElement>(null);
  const [looked, setLooked] = useState(0);
  useEffect(() => {
    if (looked === 0) return;
    results.current?.focus({ preventScroll: true });
    results.current?.scrollIntoView({ block: 'start' });
  }, [looked]);

  const find = async (asked = false) => {
    if (busy) return;
    setBusy(true);
    clear();
    try {
      const projectDirs = lines(projects);
      const found = await client.call('servers.importFind', {
        ...(projectDirs.length > 0 && { projectDirs }),
        ...(pasted.trim() && { text: pasted })
      });
      setSources(found.sources);
      announce(foundWords(found.sources));
      if (asked) setLooked((n) => n + 1);
    } catch (thrown) {
      fail('Could not look for servers.', thrown, 'Check the project folders and the pasted JSON, then look again.');
    } finally {
      setBusy(false);
    }
  };

  const readable = sources?.filter((source) => source.exists) ?? [];
  const missing = sources?.filter((source) => !source.exists) ?? [];
  return (
    <section className="import-panel" aria-labelledby="heading-import">
      <h3 id="heading-import">Import from other apps</h3>
      <p className="field-hint">
        Reads the servers of Claude Desktop, Cursor and VS Code where they keep them. Nothing is added until you pick
        servers and press Import.
      </p>
      <div className="field-row">
        <FieldFrame
          name="projects"
          label="Project folders"
          hint="One a line: their .cursor/mcp.json and .vscode/mcp.json."
        >
          {(wiring) => (
            <textarea
              {...wiring}
              rows={2}
              value={projects}
              spellCheck={false}
              onChange={(event) => setProjects(event.target.value)}
            />
          )}
        </FieldFrame>
        <FieldFrame name="pasted" label="Or paste a config" hint="JSON with mcpServers, servers or mcp.servers.">
          {(wiring) => (
            <textarea
              {...wiring}
              rows={2}
              value={pasted}
              spellCheck={false}
              onChange={(event) => setPasted(event.target.value)}
            />
          )}
        </FieldFrame>
      </div>
      <ActionError failure={failure} onDismiss={clear} />
      <div className="actions">
        <button type="button" {...busyProps(busy)} onClick={() => void find(true)}>
          Look for servers
        </button>
      </div>
      {sources ? (
        <h4 id="heading-import-found" className="import-found" ref={results} tabIndex={-1}>
          {foundWords(sources)}
        </h4>
      ) : null}
      {sources ? (
        <ul className="cards import-sources" aria-labelledby="heading-import-found">
          {readable.map((source) => (
            <ImportSourceCard
              key={`${source.kind}:${source.path ?? 'pasted'}`}
              source={source}
              pasted={pasted}
              onImported={find}
            />
          ))}
        </ul>
      ) : null}
      {missing.length > 0 ? (
        <p className="muted small-text">Not found: {missing.map((source) => source.path).join(', ')}</p>
      ) : null}
    </section>
  );
}

/** What a look found: "Found 2 servers in 1 config." */
function foundWords(sources: readonly ImportSource[]): string {
  const servers = sources.reduce((count, source) => count + source.servers.length, 0);
  const configs = sources.filter((source) => source.exists).length;
  return `Found ${servers} server${servers === 1 ? '' : 's'} in ${configs} config${configs === 1 ? '' : 's'}.`;
}

function ImportSourceCard({
  source,
  pasted,
  onImported
}: {
  source: ImportSource;
  pasted: string;
  onImported: () => Promise<void>;
}) {
  const { client, announce } = useDesk();
  const [picked, setPicked] = useState<Set<string>>(() => new Set());
  const [secrets, setSecrets] = useState<Record<string, string[]>>(() =>
    Object.fromEntries(
      source.servers.map((server) => [
        server.key,
        [...server.env, ...server.headers].filter((e) => e.secret).map((e) => e.name)
      ])
    )
  );
  const [inputs, setInputs] = useState<Record<string, string>>({});
  /** The person's choice for servers Taskdesk has already; until they choose, see `onClash` below. */
  const [clashChoice, setOnClash] = useState<'rename' | 'skip' | undefined>(undefined);
  // On, as on the Add form: a server is imported to be used (the panel shows each command first).
  const [autoConnect, setAutoConnect] = useState(true);
  const [message, setMessage] = useState<string | undefined>(undefined);
  /** What the import did: the focus goes there, as the Import button is disabled once nothing is picked. */
  const said = useRef<HTMLParagraphElement>(null);
  const [imports, setImports] = useState(0);
  useEffect(() => {
    if (imports > 0) said.current?.focus();
  }, [imports]);
  // Servers of this source imported from here: once in Taskdesk, they would read as clashing with themselves.
  const [imported, setImported] = useState<ReadonlySet<string>>(() => new Set());
  const { failure, fail, clear } = useFailure();
  const [busy, setBusy] = useState(false);
  const chosen = source.servers.filter((server) => picked.has(server.key));
  const had = chosen.filter((server) => server.clash || server.sameAs !== undefined);
  // A copy of a server Taskdesk runs already is skipped unless the person says otherwise; a
  // server that only shares a name is imported under a numbered one.
  const onClash =
    clashChoice ?? (had.length > 0 && had.every((server) => server.sameAs !== undefined) ? 'skip' : 'rename');
  // What the button would import: under "Skip it", the picks Taskdesk has already are left out.
  const importing = onClash === 'skip' ? chosen.filter((server) => !had.includes(server)) : chosen;
  const servers = useDeskState((state) => state.servers);
  const copies = copyNames(source.servers, new Set(importing.map((server) => server.key)), servers);
  const neededInputs = source.inputs.filter((input) => chosen.some((server) => server.inputs.includes(input.id)));
  const toggle = (key: string, on: boolean) =>
    setPicked((old) => {
      const next = new Set(old);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });

  const run = async () => {
    if (busy) return;
    setBusy(true);
    clear();
    setMessage(undefined);
    try {
      const result = await client.call('servers.importAdd', {
        origin: source.path !== undefined ? { path: source.path } : { text: pasted },
        picks: chosen.map((server) => {
          const marked = secrets[server.key] ?? [];
          return {
            key: server.key,
            secretEnv: server.env.filter((e) => marked.includes(e.name)).map((e) => e.name),
            secretHeaders: server.headers.filter((e) => marked.includes(e.name)).map((e) => e.name)
          };
        }),
        onClash,
        inputs: Object.fromEntries(neededInputs.map((input) => [input.id, inputs[input.id] ?? ''])),
        autoConnect
      });
      const words = [
        result.added.length > 0 ? `Imported ${result.added.map((a) => a.name).join(', ')}.` : 'Nothing was imported.',
        ...result.skipped.map((s) => `Skipped ${s.key}: ${s.reason}.`)
      ].join(' ');
      setMessage(words);
      announce(words);
      setImports((n) => n + 1);
      setImported((old) => new Set([...old, ...result.added.map((added) => added.key)]));
      setPicked(new Set());
      await onImported();
    } catch (thrown) {
      fail('Nothing was imported.', thrown);
    } finally {
      setBusy(false);
    }
  };

  const headingId = `import-${source.kind}-${(source.path ?? 'pasted').replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return (
    <li className="card import-source" data-kind={source.kind} aria-labelledby={headingId}>
      <div className="card-header">
        <h5 id={headingId}>{source.label}</h5>
      </div>
      {source.path ? <p className="muted small-text">{source.path}</p> : null}
      {source.error ? (
        <p className="reason" role="alert">
          {source.error}
        </p>
      ) : null}
      {!source.error && source.servers.length === 0 ? <p className="muted">No MCP servers in it.</p> : null}
      <ul className="import-servers">
        {source.servers.map((server) => (
          <ImportServerRow
            key={server.key}
            server={server}
            picked={picked.has(server.key)}
            imported={imported.has(server.key)}
            copyName={copies.get(server.key)}
            secrets={secrets[server.key] ?? []}
            onPick={(on) => toggle(server.key, on)}
            onSecrets={(names) => setSecrets((old) => ({ ...old, [server.key]: names }))}
          />
        ))}
      </ul>
      {neededInputs.map((input) => (
        <FieldFrame key={input.id} name={`input-${input.id}`} label={`Input ${input.id}`} hint={input.description}>
          {(wiring) => (
            <input
              {...wiring}
              type={input.password ? 'password' : 'text'}
              autoComplete={input.password ? 'new-password' : 'off'}
              value={inputs[input.id] ?? ''}
              onChange={(event) => setInputs((old) => ({ ...old, [input.id]: event.target.value }))}
            />
          )}
        </FieldFrame>
      ))}
      {had.length > 0 ? (
        <fieldset className="field">
          <legend>
            When Taskdesk has it already (a server of that id or name, or the same server under another name)
          </legend>
          {(
            [
              ['skip', 'Skip it'],
              ['rename', 'Import it anyway, under a new name with a number (“name (2)”) if its name is taken']
            ] as const
          ).map(([value, label]) => (
            <div className="checkbox-row" key={value}>
              <input
                id={`${headingId}-clash-${value}`}
                type="radio"
                name={`${headingId}-clash`}
                checked={onClash === value}
                onChange={() => setOnClash(value)}
              />
              <label htmlFor={`${headingId}-clash-${value}`}>{label}</label>
            </div>
          ))}
        </fieldset>
      ) : null}
      {source.servers.length > 0 ? (
        <>
          <div className="checkbox-row">
            <input
              id={`${headingId}-connect`}
              type="checkbox"
              checked={autoConnect}
              onChange={(event) => setAutoConnect(event.target.checked)}
            />
            <label htmlFor={`${headingId}-connect`}>Connect them now and when Taskdesk starts</label>
          </div>
          <ActionError failure={failure} onDismiss={clear} />
          {message ? (
            <p role="status" ref={said} tabIndex={-1}>
              {message}
            </p>
          ) : null}
          {chosen.length > 0 && importing.length === 0 ? (
            <p className="muted" id={`${headingId}-nothing`}>
              {nothingToImport(chosen)}
            </p>
          ) : null}
          <div className="actions">
            <button
              type="button"
              className="primary"
              disabled={importing.length === 0}
              aria-describedby={chosen.length > 0 && importing.length === 0 ? `${headingId}-nothing` : undefined}
              {...busyProps(busy)}
              onClick={() => void run()}
            >
              Import {importing.length > 0 ? importing.length : ''} selected
              <span className="sr-only"> from {source.label}</span>
            </button>
          </div>
        </>
      ) : null}
    </li>
  );
}

/**
 * The name each found server whose id or name is taken would be added under, imported anyway:
 * numbered as `servers.importAdd` numbers it (`planImport` in the core), in the order of the
 * file, the servers above it that would be imported taking their names first. So a row says the
 * name the import will give it before it is ticked, and follows what is ticked above it.
 */
function copyNames(
  found: readonly ImportedServer[],
  importing: ReadonlySet<string>,
  servers: ReadonlyArray<{ id: string; name: string }>
): Map<string, string> {
  const ids = new Set(servers.map((server) => server.id));
  const names = new Set(servers.map((server) => server.name.toLowerCase()));
  const copies = new Map<string, string>();
  for (const server of found) {
    if (server.problem !== undefined) continue;
    let id = server.id;
    let name = server.key;
    if (ids.has(id) || names.has(name.toLowerCase())) {
      let n = 2;
      while (ids.has(`${id.slice(0, 60)}-${n}`) || names.has(`${name} (${n})`.toLowerCase())) n++;
      id = `${id.slice(0, 60)}-${n}`;
      name = `${name} (${n})`;
      copies.set(server.key, name);
    }
    if (importing.has(server.key)) {
      ids.add(id);
      names.add(name.toLowerCase());
    }
  }
  return copies;
}

/** Why nothing picked would be imported under "Skip it", and how to import it anyway. */
function nothingToImport(chosen: ReadonlyArray<{ sameAs?: string | undefined }>): string {
  const one = chosen.length === 1;
  const had = chosen.every((server) => server.sameAs !== undefined)
    ? `${one ? 'The server you picked is' : 'The servers you picked are'} in Taskdesk already`
    : `Taskdesk already has ${one ? 'the server you picked, or one' : 'the servers you picked, or ones'} of the same id or name`;
  return `${had}: to add ${one ? 'it' : 'them'} anyway, choose “Import it anyway”.`;
}

function ImportServerRow({
  server,
  picked,
  imported,
  copyName,
  secrets,
  onPick,
  onSecrets
}: {
  server: ImportedServer;
  picked: boolean;
  imported: boolean;
  /** The name it is added under when imported anyway, its own being taken. */
  copyName: string | undefined;
  secrets: string[];
  onPick: (on: boolean) => void;
  onSecrets: (names: string[]) => void;
}) {
  const id = `pick-${server.id}-${server.key.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const entries = server.transport === 'stdio' ? server.env : server.headers;
  return (
    <li className="import-server" data-key={server.key}>
      <div className="checkbox-row">
        <input
          id={id}
          type="checkbox"
          checked={picked}
          disabled={server.problem !== undefined}
          onChange={(event) => onPick(event.target.checked)}
        />
        <label htmlFor={id}>
          <strong>{server.key}</strong>{' '}
          <span className="kind-tag">{server.transport === 'stdio' ? 'stdio' : 'HTTP'}</span>
        </label>
      </div>
      <code className="url">{server.target}</code>
      {imported ? (
        <p className="small-text">Imported: it is on your list of servers.</p>
      ) : server.sameAs !== undefined ? (
        <p className="small-text">
          Taskdesk already has this server (the same {server.transport === 'stdio' ? 'command' : 'URL'} and settings),
          as “{server.sameAs}”.
        </p>
      ) : server.clash ? (
        // Said before it is ticked (it is not ticked for the person): importing it adds a second server.
        <p className="small-text">
          Taskdesk already has a server with this id or name
          {copyName === undefined ? '.' : `: imported anyway, it is added as “${copyName}”.`}
        </p>
      ) : null}
      {server.problem ? <p className="reason">Cannot be imported: {server.problem}</p> : null}
      {entries.length > 0 ? (
        <ul
          className="import-entries"
          aria-label={`${server.transport === 'stdio' ? 'Env vars' : 'Headers'} of ${server.key}`}
        >
          {entries.map((entry) => {
            const box = `${id}-secret-${entry.name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
            const forced = /^(proxy-)?authorization$/i.test(entry.name);
            return (
              <li key={entry.name} className="checkbox-row">
                <code>{entry.name}</code>
                {entry.value !== undefined ? <span className="muted">= {entry.value}</span> : null}
                <input
                  id={box}
                  type="checkbox"
                  checked={forced || secrets.includes(entry.name)}
                  disabled={forced}
                  onChange={(event) =>
                    onSecrets(
                      event.target.checked ? [...secrets, entry.name] : secrets.filter((name) => name !== entry.name)
                    )
                  }
                />
                <label htmlFor={box}>
                  Keep in the key store<span className="sr-only"> ({entry.name})</span>
                </label>
              </li>
            );
          })}
        </ul>
      ) : null}
      {server.unknownFields.length > 0 ? (
        <p className="small-text">Not imported (Taskdesk does not use them): {server.unknownFields.join(', ')}</p>
      ) : null}
      {server.unresolved.length > 0 ? (
        <p className="small-text">Left as written (Taskdesk cannot fill them in): {server.unresolved.join(', ')}</p>
      ) : null}
    </li>
  );
}
