import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { ConnectionState, SamplingPolicy, ServerView } from '../../app/contract/host-api.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { StatusBadge } from '../components/status-badge.js';
import { DateTime } from '../components/date-time.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { policyChoiceWords, SamplingPolicyField } from './sampling-policy-field.js';
import { EditServerForm } from './edit-server-form.js';
import { ServerStderr } from './server-stderr.js';
import { ServerSignIn } from './server-sign-in.js';
import { ServerFolders } from './server-folders.js';
import { connectAgainWords, connectionWords } from './added-words.js';
import { disconnectWords, disconnectWork, workEndsSentence, type DisconnectWork } from './disconnect-words.js';

/**
 * What a card's folded settings hold, in one line after "Settings", in the words of its fields:
 * ": model requests ask you first · no folders". What is not read yet is left out.
 */
function settingsSummary(policy: SamplingPolicy | undefined, folders: string[] | undefined) {
  const parts = [
    policy === undefined
      ? undefined
      : policy.mode === 'ask'
        ? 'model requests ask you first'
        : policy.mode === 'auto'
          ? 'model requests run without asking'
          : 'model requests refused',
    folders === undefined
      ? undefined
      : folders.length === 0
        ? 'no folders'
        : `${folders.length} ${folders.length === 1 ? 'folder' : 'folders'}`
  ].filter((part) => part !== undefined);
  return parts.length === 0 ? null : `: ${parts.join(' · ')}`;
}

/** The badge of a server whose sign-in it waits for: asked for, or under way in the browser. */
const SIGN_IN_NEEDED = 'Sign-in needed';
const SIGNING_IN = 'Signing in';

/**
 * The word a server that is not connected shows for its OAuth sign-in, when that is what it
 * waits for: not a failure (the core fails the connect until the person signs in, and a sign-out
 * disconnects). Undefined when the connection's own state says it, as for a connect that failed
 * for anything but the server asking for authorization (it is down): that is a failure, whatever
 * a sign-in it asked for before still waits for.
 */
function signInWord(state: ConnectionState, live: boolean): string | undefined {
  const auth = state.auth;
  if (live || !auth || auth.status === 'signed-in') return undefined;
  if (state.status === 'failed' && state.failedFor !== 'sign-in') return undefined;
  if (auth.waiting) return SIGNING_IN;
  return auth.status === 'signed-out' ? 'Signed out' : SIGN_IN_NEEDED;
}

/**
 * The server and what a close of it would end, read from the Desk's state while a confirmation
 * is open, so that work ending meanwhile (a question answered) is no longer counted.
 */
function useWorkUnderWay(serverId: string): { server: ServerView; work: DisconnectWork } | undefined {
  const server = useDeskState((state) => state.servers.find((known) => known.id === serverId));
  const calls = useDeskState((state) => state.calls);
  const outbound = useDeskState((state) => state.outbound);
  const inbox = useDeskState((state) => state.inbox);
  const tasks = useDeskState((state) => state.tasks);
  const { store } = useDesk();
  // Answered, held for their undo window: sent before the close, not withdrawn by it.
  const held = useSyncExternalStore(store.held.subscribe, store.held.getSnapshot);
  return server && { server, work: disconnectWork(server, calls, outbound, inbox, tasks, held) };
}

/** What the Disconnect confirmation says will end. */
function DisconnectConsequences({ serverId }: { serverId: string }) {
  const underWay = useWorkUnderWay(serverId);
  const sentences = underWay && disconnectWords(underWay.server.name, underWay.work);
  if (!sentences) return <p>{underWay?.server.name ?? 'The server'} has nothing under way any more.</p>;
  return (
    <>
      {sentences.map((sentence) => (
        <p key={sentence}>{sentence}</p>
      ))}
    </>
  );
}

/**
 * What the Remove confirmation says: what ends of the work under way, as Disconnect's says it
 * (nothing when none is), then what Remove does.
 */
function RemoveConsequences({ serverId }: { serverId: string }) {
  const underWay = useWorkUnderWay(serverId);
  const ends = underWay && workEndsSentence(underWay.work);
  return (
    <>
      {ends ? <p>{ends}</p> : null}
      <p>Taskdesk disconnects it and forgets its settings. Tasks keeps a record of its tasks until they expire.</p>
    </>
  );
}

/**
 * One server: its connection state and why, connect or disconnect, its settings (sampling policy
 * and folders, folded until opened), its tools, and removing it.
 */
export const ServerCard = memo(function ServerCard({
  server,
  onRemoved
}: {
  server: ServerView;
  /** The server was removed: its card goes, and the screen puts the focus elsewhere. */
  onRemoved?: (serverId: string) => void;
}) {
  const { client, store, announce, confirm, openTools } = useDesk();
  const stored = useDeskState((state) => state.policies[server.id]);
  /** The connect Add server started, refused by the host: said here, as the form is gone. */
  const connectFailure = useDeskState((state) => state.connectFailures[server.id]);
  const clearConnectFailure = () => store.dispatch({ type: 'connect-failure-cleared', serverId: server.id });
  /** A policy being saved: shown at once, until the host's answer (or its event) replaces it. */
  const [saving, setSaving] = useState<SamplingPolicy | undefined>(undefined);
  /**
   * The policy this card last saved: "Saved." shows by the policy while it is still the stored
   * one, not once it was changed elsewhere (another window, the Assistant's server settings).
   */
  const [policySaved, setPolicySaved] = useState<SamplingPolicy | undefined>(undefined);
  const savedShown =
    policySaved !== undefined &&
    stored?.mode === policySaved.mode &&
    stored.reviewCompletion === policySaved.reviewCompletion;
  /** How many waiting model requests that save refused, as the host counted them. */
  const [policyRefused, setPolicyRefused] = useState(0);
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  /** Closes the edit form, Save or Cancel: the focus goes back to Edit…, not to the page with the form. */
  const closeEdit = () => {
    editButton.current?.focus();
    setEditing(false);
  };
  /** Whether the open edit form holds changes not saved. */
  const unsaved = useRef(false);
  const onUnsavedChange = useCallback((now: boolean) => {
    unsaved.current = now;
  }, []);
  /**
   * Closes the edit form without saving (Cancel, Escape, Edit… again), after asking when that
   * would drop changes, as a conversation's settings do. Kept, the form keeps the focus where it was.
   */
  const cancelEdit = async () => {
    const from = document.activeElement;
    if (
      unsaved.current &&
      !(await confirm({
        title: 'Discard your changes?',
        body: <p>The settings of {server.name} have changes that were not saved.</p>,
        confirmLabel: 'Discard changes',
        // Not "Cancel": the form's own Cancel is what throws the changes away.
        cancelLabel: 'Keep editing',
        danger: true
      }))
    ) {
      if (from instanceof HTMLElement && from.isConnected) from.focus();
      return;
    }
    closeEdit();
  };
  /**
   * Connect or Disconnect on its way: that button waits; after a Connect the rest of the card
   * stays usable, while a Disconnect's close makes the actions that start work wait too (`closing`).
   * A Disconnect says so on its button ("Disconnecting…") and its badge ("Disconnecting"): the
   * server is connected until it ends, which for a stdio server waits for its process to stop (a
   * few seconds). A Connect's is said by the badge ("Connecting").
   */
  const [toggling, setToggling] = useState<'connect' | 'disconnect' | undefined>(undefined);
  /**
   * A Remove on its way (confirmed): it disconnects the server first, which for a stdio server
   * waits for its process to stop (a few seconds). Said at once, as a Disconnect is: "Removing…"
   * on its button and "Removing" on the badge, until the card goes or the Remove fails.
   */
  const [removing, setRemoving] = useState(false);
  /**
   * A Disconnect or a Remove on its way: the card's other actions that start work on the server
   * (Tools…, Edit… and its Save, Remove, and Disconnect during a Remove) wait for it, unavailable
   * (aria-disabled, so that the focus stays on the one it is on): pressed meanwhile, they acted on
   * a server on its way out.
   */
  const closing = toggling === 'disconnect' || removing;
  const { failure, fail, clear } = useFailure();
  /**
   * The person's own act whose outcome a screen reader has not heard yet (a Connect that answered
   * while still connecting, a Save that reconnects): the next state after `from` that says how it
   * went is announced, once. Background changes (another window, a server that drops) are not.
   */
  const awaited = useRef<{ from: ConnectionState; connecting: boolean } | undefined>(undefined);
  /** A policy that was not saved is said by the policy's own fieldset, not by the buttons below. */
  const policyFailure = useFailure();
  const { state } = server;
  const shownFailure = failure ?? connectFailure;
  /**
   * The settings are folded until the person opens them, ready or not: open on every card, they
   * pushed Add a server several screens down and put every policy choice and folder field in the
   * Tab order. The summary says what is set; once opened they stay as the person left them.
   */
  const [settingsOpen, setSettingsOpen] = useState(false);
  /** The server's folders, as its folders field read or saved them: said by the folded summary. */
  const [folders, setFolders] = useState<string[] | undefined>(undefined);
  const live = state.status === 'ready' || state.status === 'connecting';
  const headingId = `server-${server.id}-name`;
  const signIn = signInWord(state, live);
  /**
   * The server waits for the sign-in, asked for or under way: Connect is not offered then. It
   * would only meet the same request for authorization (nothing on the card would change), and
   * once signed in Taskdesk connects by itself; Sign in (or Cancel) is the step that moves on.
   */
  const waitsForSignIn = signIn === SIGN_IN_NEEDED || signIn === SIGNING_IN;
  // A connect refused for the sign-in, or the disconnect of a sign-out, is said by the sign-in.
  const reason =
    state.reason && !live && !(signIn && (state.failedFor === 'sign-in' || state.status === 'closed'))
      ? state.reason
      : undefined;
  const cardRef = useRef<HTMLLIElement>(null);
  /** Whether Connect has the focus, so that the focus is not lost with it when it goes. */
  const connectFocused = useRef(false);
  /** Whether Tools… has the focus, so that the focus is not lost with it when the server is no longer ready. */
  const toolsFocused = useRef(false);
  const toggleButton = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    if (state.status === 'ready' || !toolsFocused.current) return;
    toolsFocused.current = false;
    // Tools… is gone with the connection (a Disconnect it waited for ended): Connect is the next step.
    (toggleButton.current ?? cardRef.current)?.focus();
  }, [state.status]);
  useLayoutEffect(() => {
    if (!waitsForSignIn || !connectFocused.current) return;
    connectFocused.current = false;
    // The Connect pressed is gone: the sign-in's own button is the next step.
    const card = cardRef.current;
    (card?.querySelector<HTMLElement>('.sign-in .actions button') ?? card)?.focus();
  }, [waitsForSignIn]);
  /**
   * When the current failure came, and how many tries in a row this card saw fail for the same
   * reason, so that a Connect again that fails the same way visibly happened ("Failed 2 times").
   * The host's state carries no time of a failure (only `readySince`), so this is when the Desk
   * heard of it. A try is counted when the state comes back to failed after another status, or
   * for the outcome of the person's own Connect or Save (its events may reach the Desk folded
   * into one), once. Another reason starts the count again; ready ends it. No time for a failure
   * the card was made with (the Desk opened after it): not known.
   */
  type Failed = { reason: string | undefined; at?: string; tries: number };
  const failures = useRef<Failed | undefined>(
    state.status === 'failed' ? { reason: state.reason, tries: 1 } : undefined
  );
  const [failedAt, setFailedAt] = useState(failures.current);
  /** Whether the state was other than failed since the last failure counted (a try was made). */
  const triedSince = useRef(false);
  /** Whether the outcome of the person's latest Connect or Save is counted already. */
  const actCounted = useRef(true);
  const countFailure = (reason: string | undefined) => {
    const seen = failures.current;
    const next =
      seen && seen.reason === reason
        ? { reason, at: new Date().toISOString(), tries: seen.tries + 1 }
        : { reason, at: new Date().toISOString(), tries: 1 };
    failures.current = next;
    triedSince.current = false;
    actCounted.current = true;
    setFailedAt(next);
  };
  useLayoutEffect(() => {
    if (state.status === 'ready') {
      failures.current = undefined;
      setFailedAt(undefined);
    }
    if (state.status !== 'failed') {
      triedSince.current = true;
      return;
    }
    if (triedSince.current || failures.current?.reason !== state.reason) countFailure(state.reason);
  }, [state]);
  const failedNow = (failed: ConnectionState) => {
    if (failed.status === 'failed' && !actCounted.current) countFailure(failed.reason);
  };

  useEffect(() => {
    const waiting = awaited.current;
    if (!waiting || state === waiting.from) return;
    if (state.status === 'connecting') {
      waiting.connecting = true;
      return;
    }
    // Before the reconnect starts, a Save's close of the old connection is no outcome.
    if (state.status !== 'ready' && state.status !== 'failed' && !waiting.connecting) return;
    awaited.current = undefined;
    failedNow(state);
    const words = connectionWords(server.name, state);
    if (words && state.status !== 'closed' && state.status !== 'idle') announce(words);
  }, [state, server.name, announce]);
  /** Starts waiting for the outcome of a Save that reconnects; what it returns stops that (the save failed). */
  const awaitReconnect = () => {
    if (!live && state.status !== 'failed') return undefined;
    const waiting = { from: state, connecting: false };
    awaited.current = waiting;
    actCounted.current = false;
    return () => {
      if (awaited.current === waiting) awaited.current = undefined;
    };
  };

  const setPolicy = async (policy: SamplingPolicy) => {
    setSaving(policy);
    setPolicySaved(undefined);
    setPolicyRefused(0);
    policyFailure.clear();
    try {
      const { refused = 0, ...saved } = await client.call('sampling.setPolicy', { serverId: server.id, policy });
      store.apply('policies.changed', { serverId: server.id, policy: saved });
      // In the words of the fieldset and its choices: "Model requests from Echo: Refuse."
      announce(`Model requests from ${server.name}: ${policyChoiceWords(saved)}.`);
      setPolicyRefused(refused);
      setPolicySaved(saved);
    } catch (error) {
      policyFailure.fail(
        `The model request setting of ${server.name} was not saved.`,
        error,
        'It is back to what it was; choose again to try once more.'
      );
    } finally {
      setSaving(undefined);
    }
  };

  const toggleConnection = async () => {
    if (toggling || removing) return;
    if (live && !(await agreedToDisconnect())) return;
    setToggling(live ? 'disconnect' : 'connect');
    clear();
    clearConnectFailure();
    awaited.current = undefined;
    actCounted.current = false;
    try {
      // The Inbox's answers to it still in their undo window go first: the person gave them,
      // and the close would withdraw their questions unanswered.
      if (live) await store.held.flushServer(server.id);
      const view = await client.call(live ? 'servers.disconnect' : 'servers.connect', { serverId: server.id });
      store.apply('server.state', { serverId: server.id, state: view.state });
      failedNow(view.state);
      // Said once, from the answer: a connect resolves when ready or failed. One that found the
      // server connecting already is said when that connect ends.
      const words = connectionWords(view.name, view.state);
      if (words) announce(words);
      else awaited.current = { from: view.state, connecting: true };
    } catch (error) {
      fail(
        live ? `Could not disconnect ${server.name}.` : `Could not connect ${server.name}.`,
        error,
        live ? undefined : connectAgainWords(server.transport.type, server.configured)
      );
    } finally {
      setToggling(undefined);
    }
  };

  /**
   * Asks before a Disconnect that ends work under way (questions waiting in the Inbox, running
   * calls, tasks a stdio server's process holds), saying what ends; asks nothing otherwise.
   */
  const agreedToDisconnect = async () => {
    const { calls, outbound, inbox, tasks } = store.getState();
    const work = disconnectWork(server, calls, outbound, inbox, tasks, store.held.getSnapshot());
    if (!disconnectWords(server.name, work)) return true;
    return confirm({
      title: `Disconnect ${server.name}?`,
      body: <DisconnectConsequences serverId={server.id} />,
      confirmLabel: 'Disconnect',
      danger: true
    });
  };

  const remove = async () => {
    if (closing) return;
    const agreed = await confirm({
      title: `Remove ${server.name}?`,
      body: <RemoveConsequences serverId={server.id} />,
      confirmLabel: 'Remove',
      danger: true
    });
    if (!agreed) return;
    setRemoving(true);
    clear();
    clearConnectFailure();
    try {
      // As before a Disconnect: the answers held for its questions go first.
      await store.held.flushServer(server.id);
      await client.call('servers.remove', { serverId: server.id });
      // The card goes with the server: it stays "Removing" until then.
      announce(`Removed ${server.name}.`);
      onRemoved?.(server.id);
    } catch (error) {
      setRemoving(false);
      fail(`Could not remove ${server.name}.`, error);
    }
  };

  return (
    <li
      ref={cardRef}
      className="card server"
      // Focusable from script only: it takes the focus once the Add form added it, or once it takes a removed card's place.
      tabIndex={-1}
      data-server-id={server.id}
      aria-labelledby={headingId}
    >
      <div className="card-header">
        <h3 id={headingId}>{server.name}</h3>
        {removing ? (
          // Still connected until the Remove's close ends, but on its way out, as for a Disconnect.
          <span className="status status-connecting" data-status={state.status}>
            Removing
          </span>
        ) : signIn ? (
          <span className="status status-idle" data-status={state.status} data-sign-in={state.auth?.status}>
            {signIn}
          </span>
        ) : toggling === 'disconnect' && live ? (
          // Still connected until the Disconnect ends (a stdio server's process takes a few
          // seconds to stop), but on its way out: said so, not "Ready".
          <span className="status status-connecting" data-status={state.status}>
            Disconnecting
          </span>
        ) : (
          <StatusBadge status={state.status} />
        )}
      </div>
      {/* A disconnect (by the person, or by Taskdesk closing) is no failure: said, not in red. So
          is the person's Disconnect remembered over a restart, its server idle since. */}
      {reason ? (
        <p className={state.status === 'closed' || state.stayDisconnected ? 'reason reason-closed' : 'reason'}>
          {reason}
        </p>
      ) : null}
      {/* The person's Disconnect holds over a restart, whatever "Connect when Taskdesk starts" says. */}
      {state.stayDisconnected ? (
        <p className="reason-next">It stays disconnected until you press Connect, even after Taskdesk restarts.</p>
      ) : null}
      {/* Plain text in the card, in no live region: a screen reader hears the outcome of the
          person's own Connect once, by the page's live region, and finds this by reading the card. */}
      {reason && state.status === 'failed' && (failedAt?.at || !shownFailure) ? (
        <p className="reason-next">
          {failedAt?.at ? (
            failedAt.tries > 1 ? (
              <>
                Failed {failedAt.tries} times in a row; last at <DateTime iso={failedAt.at} />.{' '}
              </>
            ) : (
              <>
                Failed at <DateTime iso={failedAt.at} />.{' '}
              </>
            )
          ) : null}
          {/* Not twice in sight: a refused Connect's box below says it already. */}
          {shownFailure ? null : connectAgainWords(server.transport.type, server.configured)}
        </p>
      ) : null}
      <dl className="facts">
        <dt>Id</dt>
        <dd>
          <code>{server.id}</code>
        </dd>
        <dt>{server.transport.type === 'stdio' ? 'Command' : 'URL'}</dt>
        <dd>
          <code className="url">{server.transport.target}</code>
        </dd>
        {state.serverInfo ? (
          <>
            <dt>Reports</dt>
            <dd>{`${state.serverInfo.name} ${state.serverInfo.version}`}</dd>
          </>
        ) : null}
        {state.executable ? (
          <>
            <dt>Runs</dt>
            <dd>
              <code className="url">{state.executable}</code>
            </dd>
          </>
        ) : null}
        {server.protocol ? (
          <>
            <dt>Pinned to</dt>
            <dd>MCP {server.protocol} (set in Edit…)</dd>
          </>
        ) : null}
        {state.protocolVersion ? (
          <>
            <dt>Speaks</dt>
            <dd>MCP {state.protocolVersion}</dd>
          </>
        ) : null}
      </dl>
      {server.transport.type === 'stdio' ? <ServerStderr server={server} /> : null}
      <ServerSignIn server={server} closing={closing} />
      {editing ? (
        <EditServerForm
          server={server}
          onDone={closeEdit}
          onCancel={() => void cancelEdit()}
          onUnsavedChange={onUnsavedChange}
          onSaving={awaitReconnect}
          closing={closing}
        />
      ) : null}
      {/* Settings that are not about the connection, folded, so that Tab through a long list
          passes each card's state and actions, not every policy and folder. */}
      <details
        className="server-settings"
        open={settingsOpen}
        onToggle={(event) => setSettingsOpen(event.currentTarget.open)}
      >
        <summary>
          Settings<span className="sr-only"> of {server.name}</span>
          {settingsSummary(saving ?? stored, folders)}
        </summary>
        <SamplingPolicyField
          serverId={server.id}
          serverName={server.name}
          policy={saving ?? stored}
          saved={savedShown}
          refused={policyRefused}
          closing={closing}
          onChange={(policy) => void setPolicy(policy)}
        />
        <ActionError failure={policyFailure.failure} onDismiss={policyFailure.clear} />
        <ServerFolders serverId={server.id} serverName={server.name} closing={closing} onFolders={setFolders} />
      </details>
      <ActionError
        failure={shownFailure}
        onDismiss={() => {
          clear();
          clearConnectFailure();
        }}
      />
      <div className="actions">
        {state.status === 'ready' ? (
          <button
            type="button"
            aria-label={`Tools of ${server.name}`}
            {...busyProps(closing)}
            onClick={() => {
              if (!closing) openTools(server.id);
            }}
            onFocus={() => (toolsFocused.current = true)}
            onBlur={() => (toolsFocused.current = false)}
          >
            Tools…
          </button>
        ) : null}
        {server.configured ? null : (
          <button
            ref={editButton}
            type="button"
            aria-label={`Edit ${server.name}`}
            aria-expanded={editing}
            // An open form can still be closed: only opening one waits for the Disconnect.
            {...busyProps(closing && !editing)}
            onClick={() => {
              if (editing) void cancelEdit();
              else if (!closing) setEditing(true);
            }}
          >
            Edit…
          </button>
        )}
        {/* One button that changes its word: focus stays on it when Connect becomes Disconnect. */}
        {waitsForSignIn ? null : (
          <button
            ref={toggleButton}
            type="button"
            aria-label={
              toggling === 'disconnect'
                ? `Disconnecting ${server.name}`
                : `${live ? 'Disconnect' : 'Connect'} ${server.name}`
            }
            {...busyProps(toggling !== undefined || removing)}
            onClick={() => void toggleConnection()}
            onFocus={() => (connectFocused.current = true)}
            onBlur={() => (connectFocused.current = false)}
          >
            {toggling === 'disconnect' ? 'Disconnecting…' : live ? 'Disconnect' : 'Connect'}
          </button>
        )}
        {server.configured ? (
          // Offering Edit and Remove led to a form that could not save and a remove that failed.
          <span className="muted small-text configured-note">
            Given by Taskdesk’s configuration: change or remove it where Taskdesk is configured.
          </span>
        ) : (
          <button
            type="button"
            className="danger-link"
            aria-label={removing ? `Removing ${server.name}` : `Remove ${server.name}`}
            {...busyProps(closing)}
            onClick={() => void remove()}
          >
            {removing ? 'Removing…' : 'Remove'}
          </button>
        )}
      </div>
    </li>
  );
});
