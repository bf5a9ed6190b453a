import type { ReactNode } from 'react';
import type { ImportedServer } from '../../app/contract/server-settings.js';
import { useFieldId } from '../forms/field-frame.js';
import { useDeskState } from '../shell/desk-context.js';

/** A server this source added: its id and name in Taskdesk, and whether it was to connect. */
export interface AddedServer {
  id: string;
  name: string;
  autoConnect: boolean;
  /** Asked to connect, but left off: the app it came from (named here) has it switched off. */
  offIn?: string | undefined;
}

/** Props of {@link ImportServerRow}. */
export interface ImportServerRowProps {
  server: ImportedServer;
  picked: boolean;
  /** Once imported from here: the server it became. */
  added: AddedServer | undefined;
  /** What importing it would do, under the choices made now (absent: it cannot be imported, and the row says why). */
  fate: ReactNode;
  /** The app that has it switched off (`"disabled": true`), if one does: it starts unticked, and is not connected. */
  offIn: string | undefined;
  secrets: string[];
  onPick: (on: boolean) => void;
  onSecrets: (names: string[]) => void;
}

/**
 * One server found in a config: its tick, what it runs, what importing it does, and its env vars
 * or headers with a "Keep in the key store" box each. Every id is the row's own (`useId`): the
 * same server in two apps' configs makes two rows, whose labels must each tick their own box.
 */
export function ImportServerRow({
  server,
  picked,
  added,
  fate,
  offIn,
  secrets,
  onPick,
  onSecrets
}: ImportServerRowProps) {
  const id = useFieldId(`pick-${server.key}`);
  const entries = server.transport === 'stdio' ? server.env : server.headers;
  const importable = server.problem === undefined;
  return (
    <li className="import-server" data-key={server.key}>
      <div className="checkbox-row">
        <input
          id={id}
          type="checkbox"
          checked={picked}
          disabled={!importable}
          onChange={(event) => onPick(event.target.checked)}
        />
        <label htmlFor={id}>
          <strong>{server.key}</strong>{' '}
          {/* A transport Taskdesk cannot speak (SSE) is not badged as one it can: the reason below says what it is. */}
          <span className="kind-tag">
            {!importable ? 'cannot be imported' : server.transport === 'stdio' ? 'stdio' : 'HTTP'}
          </span>
        </label>
      </div>
      {/* An entry with no command (or no URL) has nothing to show there, not even an empty quote: the
          reason it cannot be imported says so ("command" is missing), and words say it if none does. */}
      {server.target !== '' ? (
        <code className="url">{server.target}</code>
      ) : importable ? (
        <p className="small-text">{server.transport === 'stdio' ? 'No command given.' : 'No URL given.'}</p>
      ) : null}
      {/* Imported from here, it says what became of it; picked again, what importing it again would do. */}
      {added && !picked ? <ImportedNote added={added} /> : fate ? <p className="small-text">{fate}</p> : null}
      {offIn !== undefined && importable && !(added && !picked) ? (
        <p className="small-text">Switched off in {offIn}, so not ticked; if you import it, it is not connected.</p>
      ) : null}
      {server.problem ? <p className="reason">Cannot be imported: {server.problem}</p> : null}
      {entries.length > 0 ? (
        <ul
          className="import-entries"
          aria-label={`${server.transport === 'stdio' ? 'Env vars' : 'Headers'} of ${server.key}`}
        >
          {entries.map((entry, index) => {
            // By place, not by name: two names may differ only in characters an id cannot hold.
            const box = `${id}-secret-${index}`;
            const forced = /^(proxy-)?authorization$/i.test(entry.name);
            return (
              <li key={entry.name} className="checkbox-row">
                <code>{entry.name}</code>
                {entry.value !== undefined ? <span className="muted">= {entry.value}</span> : null}
                {/* Where it is kept is a choice of importing: a server that cannot be imported offers none. */}
                {importable ? (
                  <>
                    <input
                      id={box}
                      type="checkbox"
                      checked={forced || secrets.includes(entry.name)}
                      disabled={forced}
                      onChange={(event) =>
                        onSecrets(
                          event.target.checked
                            ? [...secrets, entry.name]
                            : secrets.filter((name) => name !== entry.name)
                        )
                      }
                    />
                    <label htmlFor={box}>
                      Keep in the key store<span className="sr-only"> ({entry.name})</span>
                    </label>
                  </>
                ) : null}
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

/** Why a connection failed, without the "Could not connect:" the words around it say already. */
export function whyNotConnected(reason: string | undefined): string {
  return reason ? reason.replace(/^Could not connect:\s*/i, '') : 'no reason given';
}

/** Where an imported server's connection is, in words. */
function connectionWords(added: AddedServer, state: { status: string; reason?: string } | undefined) {
  if (!state) return 'it is no longer on your list of servers';
  switch (state.status) {
    case 'ready':
      return 'connected';
    case 'failed':
      return `it did not connect (${whyNotConnected(state.reason).replace(/\.$/, '')})`;
    case 'closed':
      return 'disconnected';
    case 'connecting':
      return 'connecting…';
    default:
      return added.autoConnect
        ? 'connecting…'
        : added.offIn !== undefined
          ? `not connected, since it is switched off in ${added.offIn}`
          : 'not connected';
  }
}

/** Brings a server's card into sight and gives it the focus. */
export function showCard(serverId: string): void {
  const card = document.querySelector<HTMLElement>(`li.card.server[data-server-id="${CSS.escape(serverId)}"]`);
  card?.focus({ preventScroll: true });
  card?.scrollIntoView({ block: 'start' });
}

/** What became of an imported server: its name here, and whether it connected (kept up to date). */
function ImportedNote({ added }: { added: AddedServer }) {
  const state = useDeskState((desk) => desk.servers.find((server) => server.id === added.id)?.state);
  const words = `Imported as “${added.name}”: ${connectionWords(added, state)}`;
  return (
    <p className={state?.status === 'failed' ? 'small-text reason' : 'small-text'}>
      {/[.!?…]$/.test(words) ? words : `${words}.`}
    </p>
  );
}
