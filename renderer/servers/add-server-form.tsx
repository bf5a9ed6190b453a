import { useEffect, useMemo, useRef, useState } from 'react';
import { isSignInRequest } from '../../app/contract/sign-in-words.js';
import { busyProps } from '../components/busy-props.js';
import { ActionError, correctingFailure, failureOf, useFailure } from '../components/action-error.js';
import { toHostCallError } from '../host-client.js';
import { FieldFrame } from '../forms/field-frame.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { addedWords, connectAgainWords } from './added-words.js';
import { ServerFields } from './server-fields.js';
import { commandUrlWords, splitBeforeSubmit } from './command-split.js';
import { suggestedId } from '../components/suggested-id.js';
import { useCorrecting } from './use-correcting.js';
import {
  draftProblems,
  emptyDraft,
  idTakenWords,
  nameTakenBy,
  nameTakenWords,
  toConfigInput,
  type DraftField,
  type ServerDraft
} from './server-draft.js';

const ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * The "Add a server" form. After a successful add the form is mounted anew (its `key` changes),
 * so every control, the transport choice and "Connect now" among them, is back at its default
 * and shows what the next submit sends. The focus, which its Add button (gone with the old form)
 * held, goes to the new server's card: `onAdded`, for the screen, which has the cards.
 */
export function AddServerForm({
  onAdded,
  reports = 0
}: {
  onAdded?: (serverId: string) => void;
  /** How many things the rest of the Servers screen has reported (see `ServersScreen`). */
  reports?: number;
}) {
  const [generation, setGeneration] = useState(0);
  /**
   * What the last add did, shown at the top of the fresh form (for one who comes back to the form
   * from the new card) until the person starts the next server (edits a field) or adds it: kept
   * here, as the form itself is mounted anew. Left while the next one is filled in, it would read
   * as about that one.
   */
  const [added, setAdded] = useState<
    { id: string; words: string; failed?: boolean; signIn?: boolean; reports: number } | undefined
  >(undefined);
  /**
   * A failed connect's line goes once the card has a newer outcome (Connect again, from the card
   * or elsewhere): its words would be stale. Seen by the server's status leaving failed after the
   * line said it failed; a server removed meanwhile takes its line too.
   */
  const status = useDeskState((state) =>
    added?.failed ? (state.servers.find((server) => server.id === added.id)?.state.status ?? 'removed') : undefined
  );
  const failedSeen = useRef(false);
  useEffect(() => {
    if (!added?.failed) failedSeen.current = false;
    else if (status === 'failed') failedSeen.current = true;
    else if (failedSeen.current || status === 'removed') setAdded(undefined);
  }, [added, status]);
  /**
   * Any line goes once it could mislead: its server renamed, edited or removed since (the line
   * would name what is no longer there), or something else on the screen reported since (an
   * import, a Connect): the line would read as about that. Changes are counted from the server's
   * settings as the Desk first saw them after the add, as it may not have the server yet.
   */
  const settings = useDeskState((state) => {
    if (!added) return undefined;
    const server = state.servers.find((known) => known.id === added.id);
    return server
      ? `${server.name}\n${server.transport.type}\n${server.transport.target}\n${server.protocol ?? ''}`
      : null;
  });
  const seenSettings = useRef<{ id: string; settings: string | null } | undefined>(undefined);
  useEffect(() => {
    if (!added || settings === undefined) {
      seenSettings.current = undefined;
      return;
    }
    if (reports !== added.reports) {
      setAdded(undefined);
      return;
    }
    const seen = seenSettings.current;
    if (seen?.id !== added.id || seen.settings === null) seenSettings.current = { id: added.id, settings };
    else if (seen.settings !== settings) setAdded(undefined);
  }, [added, settings, reports]);
  return (
    <AddServerFormBody
      key={generation}
      added={added}
      onSubmitting={() => setAdded(undefined)}
      onEditing={() => setAdded(undefined)}
      onAdded={(id, words) => {
        setAdded({ id, words, reports });
        setGeneration((n) => n + 1);
        onAdded?.(id);
      }}
      onConnected={(id, words, failed, signIn) =>
        setAdded((shown) => (shown?.id === id ? { ...shown, words, failed, signIn } : shown))
      }
    />
  );
}

function AddServerFormBody({
  added,
  onSubmitting,
  onEditing,
  onAdded,
  onConnected
}: {
  /**
   * What the last add did, shown under the heading; `failed`: added, but its connect failed;
   * `signIn`: it failed only for want of a sign-in, the person's next step, not a failure.
   */
  added: { words: string; failed?: boolean; signIn?: boolean } | undefined;
  onSubmitting: () => void;
  /** The person changed a field: the next server is begun, and the last add's line goes. */
  onEditing: () => void;
  onAdded: (id: string, words: string) => void;
  /** How the connect of an add went, once known: the line says it if it still shows that add. */
  onConnected: (id: string, words: string, failed: boolean, signIn: boolean) => void;
}) {
  const { client, store, announce } = useDesk();
  const servers = useDeskState((state) => state.servers);
  const [id, setId] = useState('');
  /** Whether the person typed the id: until then it follows the name (see {@link suggestedId}). */
  const [idTyped, setIdTyped] = useState(false);
  const [draft, setDraft] = useState<ServerDraft>(emptyDraft);
  const taken = useMemo(() => new Set(servers.map((server) => server.id)), [servers]);
  const [errors, setErrors] = useState<Partial<Record<DraftField | 'id', string>>>({});
  const { failure, fail, show, clear } = useFailure();
  const [busy, setBusy] = useState(false);
  const controls = useRef(new Map<DraftField | 'id', HTMLElement>());
  const register = (field: DraftField | 'id', element: HTMLElement | null) => {
    if (element) controls.current.set(field, element);
  };

  const problems = formProblems(id, idTyped, draft, servers);
  const clash = nameTakenBy(draft.name, servers);
  const correcting = useCorrecting(problems, setErrors, { show, clear });

  const submit = async () => {
    if (busy) return;
    clear();
    onSubmitting();
    // Enter in Command, a command line still in it: split first, added on the next Add server.
    if (splitBeforeSubmit(draft, { setDraft, announce, focusCommand: () => controls.current.get('command')?.focus() }))
      return;
    const trimmed = id.trim();
    setErrors(Object.fromEntries(problems));
    if (problems.length > 0) {
      show(correctingFailure(problems.length));
      correcting.found(problems.length);
      controls.current.get(problems[0]![0])?.focus();
      return;
    }
    correcting.done();
    const config = toConfigInput(trimmed, draft);
    setBusy(true);
    try {
      await client.call('servers.add', config);
    } catch (error) {
      // What the host says of the id (one added meanwhile, elsewhere) shows on the Id field, and the focus goes there.
      const named = toHostCallError(error).fields.id;
      if (named === undefined) fail(`Could not add ${config.name}.`, error);
      else {
        setErrors({ id: named });
        show({ what: `Could not add ${config.name}.`, next: 'Correct the marked field, then try again.' });
        controls.current.get('id')?.focus();
      }
      setBusy(false);
      return;
    }
    const words = config.autoConnect ? `Added ${config.name}; connecting.` : addedWords(config.name);
    announce(words);
    onAdded(trimmed, words);
    // The connect is the new server's business now: its card shows how it goes (a failed
    // connection by its status and reason; a refused call by the failure put in the store).
    // A screen reader is told how it went too: the card's status is not announced.
    store.dispatch({ type: 'connect-failure-cleared', serverId: trimmed });
    if (config.autoConnect)
      void client.call('servers.connect', { serverId: trimmed }).then(
        (view) => {
          const said =
            view.state.status === 'ready'
              ? addedWords(config.name, { connected: true })
              : view.state.status === 'failed'
                ? addedWords(config.name, {
                    connected: false,
                    ...(view.state.reason !== undefined && { reason: view.state.reason })
                  })
                : undefined;
          if (said === undefined) return;
          announce(said);
          const failed = view.state.status === 'failed';
          onConnected(trimmed, said, failed, failed && isSignInRequest(view.state.reason));
        },
        (error: unknown) => {
          const failure = failureOf(
            `Could not connect ${config.name}.`,
            error,
            connectAgainWords(config.transport.type)
          );
          store.dispatch({ type: 'connect-failed', serverId: trimmed, failure });
          const said = addedWords(config.name, {
            connected: false,
            ...(failure.why !== undefined && { reason: failure.why })
          });
          announce(said);
          onConnected(trimmed, said, true, isSignInRequest(failure.why));
        }
      );
  };

  return (
    <form
      className="add-server"
      noValidate
      aria-labelledby="heading-add-server"
      aria-busy={busy}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {/* Focusable for the Servers screen's "Skip to Add a server": Tab then goes on into Name. */}
      <h3 id="heading-add-server" tabIndex={-1}>
        Add a server
      </h3>
      {/* Seen, not announced again: the live region said it already, once (its words say a failed
          connect too, so an alert as well would say it twice). A failed connect is a warning to
          see, not a success: the adding worked, the connecting did not. A sign-in asked for is no
          failure: the next step, in the usual colours. */}
      <p className={added?.failed && !added.signIn ? 'form-status form-status-failed' : 'form-status'} hidden={!added}>
        {added?.words ?? ''}
      </p>
      <ServerFields
        draft={draft}
        errors={errors}
        onChange={(next) => {
          onEditing();
          setDraft(next);
          if (!idTyped && next.name !== draft.name) setId(suggestedId(next.name, taken));
        }}
        register={register}
        afterName={
          <FieldFrame
            name="id"
            label="Id"
            required
            hint="Filled in from the name; letters, digits, dot, dash and underscore. Taskdesk keeps this server's tasks and settings under it, so it cannot be changed later."
            error={errors.id}
          >
            {(wiring) => (
              <input
                {...wiring}
                name="id"
                ref={(element) => register('id', element)}
                value={id}
                onChange={(event) => {
                  onEditing();
                  setId(event.target.value);
                  // Emptied, it follows the name again from the next change of the name.
                  setIdTyped(event.target.value !== '');
                }}
                type="text"
                required
                aria-required="true"
                autoComplete="off"
                spellCheck={false}
              />
            )}
          </FieldFrame>
        }
        autoConnectLabel="Connect now and when Taskdesk starts"
        nameWarning={clash ? nameTakenWords(clash) : undefined}
      />
      <ActionError failure={failure} onDismiss={clear} />
      <div className="actions">
        <button type="submit" className="primary" {...busyProps(busy)}>
          Add server
        </button>
      </div>
    </form>
  );
}

/** What the form needs corrected before it can be sent, in the order of its fields. */
function formProblems(
  id: string,
  idTyped: boolean,
  draft: ServerDraft,
  servers: ReadonlyArray<{ id: string; name: string }>
): Array<[DraftField | 'id', string]> {
  const idProblems: Array<['id', string]> = [];
  const trimmed = id.trim();
  const taken = servers.find((server) => server.id === trimmed);
  // An empty Id that follows the name is not a problem of its own while the name is empty: the
  // name fills it in. It is once there is a name (one with nothing to make an id of) or when the
  // person typed in it (spaces only).
  if (!trimmed) {
    if (idTyped || draft.name.trim()) idProblems.push(['id', 'Required']);
  } else if (!ID_PATTERN.test(trimmed))
    idProblems.push(['id', 'Use up to 64 letters, digits, dots, dashes and underscores']);
  else if (taken) idProblems.push(['id', idTakenWords(taken)]);
  const found: Array<[DraftField | 'id', string]> = draftProblems(draft);
  // An address in Command is said as it is typed, and refused: no process can be started from it.
  const url = draft.transport === 'stdio' ? commandUrlWords(draft.command) : undefined;
  if (url) found.splice(found.filter(([field]) => field === 'name').length, 0, ['command', url]);
  // A name another server has is refused, not only warned of (it shows as a warning as it is
  // typed): two servers of one name make every message that names one of them ambiguous, and
  // an import numbers such a name ("echo (2)") for that reason.
  const other = nameTakenBy(draft.name, servers);
  if (other) found.unshift(['name', nameTakenWords(other)]);
  // Id comes right after Name in the form.
  const afterName = found.findIndex(([field]) => field !== 'name');
  found.splice(afterName === -1 ? found.length : afterName, 0, ...idProblems);
  return found;
}
