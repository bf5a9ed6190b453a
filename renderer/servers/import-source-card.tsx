import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import type { ImportedServer, ImportOrigin, ImportSource } from '../../app/contract/server-settings.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { FieldFrame } from '../forms/field-frame.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { listInWords } from '../../app/contract/list-words.js';
import { ImportResult, type ImportDone } from './import-result.js';
import { ImportServerRow, type AddedServer } from './import-server-row.js';
import { appOf } from './import-words.js';

/** What to do with a picked server Taskdesk has already: leave it out, or add it under a numbered name if need be. */
type ClashChoice = 'skip' | 'rename';

/**
 * One config found by the Import panel: its servers to pick, the VS Code inputs they need, what
 * to do with those Taskdesk has already, and the Import button.
 *
 * Two kinds of "has already" are chosen for apart: a copy (`sameAs`: the same command or URL and
 * settings) is skipped unless the person asks for a copy; a server that only shares an id or name
 * is imported under a numbered name unless the person asks to skip it. Each row says what Import
 * will do with it under the choices made now.
 */
export function ImportSourceCard({
  source,
  origin,
  onImported
}: {
  source: ImportSource;
  /** Where Import reads it again: its file, or the text the look read (pasted, or of a file chosen, with its name). */
  origin: ImportOrigin;
  /** After an import that went through: how many servers it added. */
  onImported: (added: number) => Promise<void>;
}) {
  const { client } = useDesk();
  // Every server that can be imported starts ticked (the person unticks what they do not want),
  // but for one that cannot, one Taskdesk has already (a copy, or one of its id or name):
  // imported again, it would be a second server of that name, which is the person's choice, and
  // one the other app has switched off (imported anyway, it is not connected).
  const [picked, setPicked] = useState<Set<string>>(
    () =>
      new Set(
        source.servers
          .filter(
            (server) => server.problem === undefined && server.sameAs === undefined && !server.clash && !server.disabled
          )
          .map((server) => server.key)
      )
  );
  const [secrets, setSecrets] = useState<Record<string, string[]>>(() =>
    Object.fromEntries(
      source.servers.map((server) => [
        server.key,
        [...server.env, ...server.headers].filter((e) => e.secret).map((e) => e.name)
      ])
    )
  );
  const [inputs, setInputs] = useState<Record<string, string>>({});
  const [inputErrors, setInputErrors] = useState<Record<string, string>>({});
  const [copyChoice, setCopyChoice] = useState<ClashChoice>('skip');
  const [nameChoice, setNameChoice] = useState<ClashChoice>('rename');
  // On, as on the Add form: a server is imported to be used (the panel shows each command first).
  const [autoConnect, setAutoConnect] = useState(true);
  const [done, setDone] = useState<ImportDone | undefined>(undefined);
  /** What the import did: the focus goes there, as the Import button is disabled once nothing is picked. */
  const said = useRef<HTMLParagraphElement>(null);
  const [imports, setImports] = useState(0);
  // In the commit that shows it: that commit disables the focused Import button, which drops the
  // focus to the page, and a passive effect would take it on only in a later task, after a paint.
  useLayoutEffect(() => {
    if (imports > 0) said.current?.focus();
  }, [imports]);
  // Servers of this source imported from here, by key: once in Taskdesk, they would read as clashing with themselves.
  const [added, setAdded] = useState<ReadonlyMap<string, AddedServer>>(() => new Map());
  /** An Import stopped for a blank input: the focus goes to the first, which says what it needs. */
  const card = useRef<HTMLLIElement>(null);
  const [checks, setChecks] = useState(0);
  useEffect(() => {
    if (checks > 0) card.current?.querySelector<HTMLElement>('input[aria-invalid="true"]')?.focus();
  }, [checks]);
  const { failure, fail, clear } = useFailure();
  const [busy, setBusy] = useState(false);
  const servers = useDeskState((state) => state.servers);

  const isCopy = (server: ImportedServer) => server.sameAs !== undefined;
  const isNamesake = (server: ImportedServer) => server.sameAs === undefined && server.clash;
  const skips = (server: ImportedServer) =>
    (isCopy(server) && copyChoice === 'skip') || (isNamesake(server) && nameChoice === 'skip');
  const chosen = source.servers.filter((server) => picked.has(server.key));
  const importing = chosen.filter((server) => !skips(server));
  const copies = copyNames(source.servers, new Set(importing.map((server) => server.key)), servers);
  const neededInputs = source.inputs.filter((input) => importing.some((server) => server.inputs.includes(input.id)));
  const toggle = (key: string, on: boolean) =>
    setPicked((old) => {
      const next = new Set(old);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });

  const run = async () => {
    if (busy) return;
    clear();
    // Each input is required: said at its field, before anything is sent (the core checks it too).
    const blank = neededInputs.filter((input) => (inputs[input.id] ?? '').trim() === '');
    setInputErrors(Object.fromEntries(blank.map((input) => [input.id, 'Enter a value: the import needs it.'])));
    if (blank.length > 0) {
      setChecks((n) => n + 1);
      return;
    }
    setBusy(true);
    setDone(undefined);
    try {
      const result = await client.call('servers.importAdd', {
        origin,
        picks: importing.map((server) => {
          const marked = secrets[server.key] ?? [];
          return {
            key: server.key,
            secretEnv: server.env.filter((e) => marked.includes(e.name)).map((e) => e.name),
            secretHeaders: server.headers.filter((e) => marked.includes(e.name)).map((e) => e.name)
          };
        }),
        // The picks to skip are left out above; the core skips too should a name be taken meanwhile.
        onClash: copyChoice === 'skip' && nameChoice === 'skip' ? 'skip' : 'rename',
        inputs: Object.fromEntries(neededInputs.map((input) => [input.id, inputs[input.id] ?? ''])),
        autoConnect
      });
      // One its app has switched off is imported off (`planImport` in the core): not connected, and
      // said why, as the core found the file at the import (it is read again then).
      const addedOf = (one: (typeof result.added)[number]): AddedServer => ({
        id: one.id,
        name: one.name,
        autoConnect: one.autoConnect,
        offIn: one.switchedOff ? appOf(source.kind) : undefined
      });
      const next: ImportDone = {
        // A file chosen is named by what it did: its card's heading is only its name.
        ...('name' in origin && origin.name !== undefined && { from: origin.name }),
        added: result.added.map(addedOf),
        skipped: [
          ...chosen
            .filter(skips)
            .map((server) =>
              server.sameAs !== undefined
                ? `Skipped ${server.key}: Taskdesk has it already, as “${server.sameAs}”.`
                : `Skipped ${server.key}: a server of that id or name exists already.`
            ),
          ...result.skipped.map((s) => `Skipped ${s.key}: ${s.reason}.`)
        ]
      };
      // Said by the result once no server it added is still connecting (see `ImportResult`).
      setDone(next);
      setImports((n) => n + 1);
      setAdded((old) => {
        const map = new Map(old);
        for (const one of result.added) map.set(one.key, addedOf(one));
        return map;
      });
      setPicked(new Set());
      await onImported(next.added.length);
    } catch (thrown) {
      fail('Nothing was imported.', thrown);
    } finally {
      setBusy(false);
    }
  };

  const headingId = useId();
  const fate = (server: ImportedServer): string | undefined => {
    if (server.problem !== undefined) return undefined;
    if (server.sameAs !== undefined) {
      const has = `Taskdesk already has this server (the same ${server.transport === 'stdio' ? 'command' : 'URL'} and settings), as “${server.sameAs}”`;
      return copyChoice === 'skip'
        ? `${has}: it is skipped, unless you choose to import a copy.`
        : `${has}: a copy is added, as “${copies.get(server.key) ?? server.key}”.`;
    }
    if (!server.clash) {
      // New here, it is added under its own name; numbered only when a server above it in this config takes that.
      const numbered = copies.get(server.key);
      return numbered === undefined
        ? 'New to Taskdesk: importing adds it.'
        : `New to Taskdesk: importing adds it, as “${numbered}” (a server above it takes its name).`;
    }
    const has = 'Taskdesk already has a server with this id or name';
    if (nameChoice === 'skip') return `${has}: it is skipped.`;
    const copy = copies.get(server.key);
    return copy === undefined ? `${has}.` : `${has}: if you import it anyway, it is added as “${copy}”.`;
  };
  const pickedCopies = chosen.filter(isCopy);
  const pickedNamesakes = chosen.filter(isNamesake);
  return (
    <li ref={card} className="card import-source" data-kind={source.kind} aria-labelledby={headingId}>
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
            added={added.get(server.key)}
            fate={fate(server)}
            offIn={server.disabled ? appOf(source.kind) : undefined}
            secrets={secrets[server.key] ?? []}
            onPick={(on) => toggle(server.key, on)}
            onSecrets={(names) => setSecrets((old) => ({ ...old, [server.key]: names }))}
          />
        ))}
      </ul>
      {neededInputs.map((input) => {
        const users = importing.filter((server) => server.inputs.includes(input.id));
        return (
          <FieldFrame
            key={input.id}
            name={`input-${input.id}`}
            label={`${input.description ?? input.id}, for ${listInWords(users.map((server) => server.key))}`}
            hint={inputHint(input.id, users)}
            required
            error={inputErrors[input.id]}
          >
            {(wiring) => (
              <input
                {...wiring}
                aria-required="true"
                type={input.password ? 'password' : 'text'}
                autoComplete={input.password ? 'new-password' : 'off'}
                value={inputs[input.id] ?? ''}
                onChange={(event) => {
                  setInputs((old) => ({ ...old, [input.id]: event.target.value }));
                  setInputErrors(({ [input.id]: _fixed, ...rest }) => rest);
                }}
              />
            )}
          </FieldFrame>
        );
      })}
      {pickedCopies.length > 0 ? (
        <ClashChoiceField
          name={`${headingId}-copy`}
          legend="When Taskdesk has the same server already (the same command or URL and settings)"
          choices={[
            ['skip', 'Skip it'],
            ['rename', 'Import a copy anyway (under a new name with a number if its name is taken)']
          ]}
          value={copyChoice}
          onChange={setCopyChoice}
        />
      ) : null}
      {pickedNamesakes.length > 0 ? (
        <ClashChoiceField
          name={`${headingId}-name`}
          legend="When Taskdesk has another server of that id or name"
          choices={[
            ['skip', 'Skip it'],
            ['rename', 'Import it anyway, under a new name with a number (“name (2)”)']
          ]}
          value={nameChoice}
          onChange={setNameChoice}
        />
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
          {done ? <ImportResult done={done} said={said} /> : null}
          {chosen.length > 0 && importing.length === 0 ? (
            <p className="muted" id={`${headingId}-nothing`}>
              {nothingToImport(chosen, isCopy)}
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

/** One "when Taskdesk has it already" choice: a group of radios. */
function ClashChoiceField({
  name,
  legend,
  choices,
  value,
  onChange
}: {
  name: string;
  legend: string;
  choices: ReadonlyArray<readonly [ClashChoice, string]>;
  value: ClashChoice;
  onChange: (value: ClashChoice) => void;
}) {
  return (
    <fieldset className="field">
      <legend>{legend}</legend>
      {choices.map(([choice, label]) => (
        <div className="checkbox-row" key={choice}>
          <input
            id={`${name}-${choice}`}
            type="radio"
            name={name}
            checked={value === choice}
            onChange={() => onChange(choice)}
          />
          <label htmlFor={`${name}-${choice}`}>{label}</label>
        </div>
      ))}
    </fieldset>
  );
}

/**
 * What a VS Code input is for: the config's `${input:id}`, the servers that use it, and where in
 * them as far as the panel sees (a secret's value is not shown to it, so neither is its use there).
 */
function inputHint(id: string, users: readonly ImportedServer[]): string {
  const ref = `\${input:${id}}`;
  const places = users.flatMap((server) => [
    ...(server.target.includes(ref) ? [server.transport === 'stdio' ? 'command line' : 'URL'] : []),
    ...server.headers.filter((e) => e.value?.includes(ref)).map((e) => `header ${e.name}`),
    ...server.env.filter((e) => e.value?.includes(ref)).map((e) => `env var ${e.name}`)
  ]);
  const whose = listInWords(users.map((server) => `${server.key}’s`));
  return `The config’s ${ref}, which VS Code asks for when the server starts. Taskdesk puts your value wherever ${whose} settings use it${
    places.length > 0 ? `, such as ${users.length === 1 ? 'its' : 'their'} ${listInWords(places)}` : ''
  }.`;
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

/** Why nothing picked would be imported, and which choice imports it anyway. */
function nothingToImport(chosen: readonly ImportedServer[], isCopy: (server: ImportedServer) => boolean): string {
  const one = chosen.length === 1;
  const copies = chosen.every(isCopy);
  const had = copies
    ? `${one ? 'The server you picked is' : 'The servers you picked are'} in Taskdesk already`
    : `Taskdesk already has ${one ? 'the server you picked, or one' : 'the servers you picked, or ones'} of the same id or name`;
  const how = copies
    ? '“Import a copy anyway”'
    : chosen.some(isCopy)
      ? '“Import a copy anyway” or “Import it anyway”'
      : '“Import it anyway”';
  return `${had}: to add ${one ? 'it' : 'them'} anyway, choose ${how}.`;
}
