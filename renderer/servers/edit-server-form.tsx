import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { ServerView } from '../../app/contract/host-api.js';
import { ActionError, correctingFailure, useFailure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { escapeLeavesFieldThenCloses } from '../components/escape-closes.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { ServerFields } from './server-fields.js';
import { commandUrlWords, splitBeforeSubmit } from './command-split.js';
import { useCorrecting } from './use-correcting.js';
import { restartsServer, restartWords, runningWork } from './restart-words.js';
import { restartSaveWords } from './disconnect-words.js';
import {
  draftFromSettings,
  draftProblems,
  nameTakenBy,
  nameTakenWords,
  toEditable,
  type DraftField,
  type ServerDraft
} from './server-draft.js';

/**
 * What the confirmation of a Save that restarts the server says will end, read from the Desk's
 * state while it is open, so that work ending meanwhile (a question answered) is no longer counted.
 */
function RestartConsequences({ serverId }: { serverId: string }) {
  const server = useDeskState((state) => state.servers.find((known) => known.id === serverId));
  const calls = useDeskState((state) => state.calls);
  const outbound = useDeskState((state) => state.outbound);
  const inbox = useDeskState((state) => state.inbox);
  const tasks = useDeskState((state) => state.tasks);
  const { store } = useDesk();
  // Answered, held for their undo window: sent before the restart, not withdrawn by it.
  const held = useSyncExternalStore(store.held.subscribe, store.held.getSnapshot);
  const sentences = server && restartSaveWords(server.name, runningWork(server, calls, outbound, inbox, tasks, held));
  if (!sentences) return <p>{server?.name ?? 'The server'} has nothing under way any more.</p>;
  return (
    <>
      {sentences.map((sentence) => (
        <p key={sentence}>{sentence}</p>
      ))}
    </>
  );
}

/**
 * Edits every field of a saved server (its id stays: tasks are kept per id). Secrets come as
 * names only; a stored one left empty keeps its value. Saving reconnects a server that was up
 * only when it changes how the server is reached; a new name applies to its connection in place.
 */
export function EditServerForm({
  server,
  onDone,
  onCancel,
  onUnsavedChange,
  onSaving,
  closing = false
}: {
  server: ServerView;
  /** Saved: the form closes. */
  onDone: () => void;
  /**
   * Cancel or Escape on the form (twice from a field): the card closes the form, asking first
   * when it holds changes not saved.
   */
  onCancel: () => void;
  /** Whether the form holds changes not saved, as it changes. */
  onUnsavedChange?: (unsaved: boolean) => void;
  /**
   * Called as a Save that restarts the server is sent, so that the card says how the reconnect
   * that follows went; what it returns is called when no reconnect comes (the save failed, or
   * the host kept the connection).
   */
  onSaving?: () => (() => void) | undefined;
  /** The server's Disconnect is on its way: Save waits for it, as the card's other actions do. */
  closing?: boolean;
}) {
  const { client, store, announce, confirm } = useDesk();
  const [draft, setDraft] = useState<ServerDraft | undefined>(undefined);
  /** The draft as the settings were read: a draft that would save the same holds no change. */
  const [initial, setInitial] = useState<ServerDraft | undefined>(undefined);
  const [editable, setEditable] = useState(true);
  /** The name and command as saved: a name kept as it was is not refused, a command kept says where it was found. */
  const [saved, setSaved] = useState<{ name: string; command: string | undefined } | undefined>(undefined);
  const servers = useDeskState((state) => state.servers);
  const calls = useDeskState((state) => state.calls);
  const outbound = useDeskState((state) => state.outbound);
  const inbox = useDeskState((state) => state.inbox);
  const tasks = useDeskState((state) => state.tasks);
  const held = useSyncExternalStore(store.held.subscribe, store.held.getSnapshot);
  const [errors, setErrors] = useState<Partial<Record<DraftField, string>>>({});
  const { failure, fail, show, clear } = useFailure();
  const [busy, setBusy] = useState(false);
  const controls = useRef(new Map<DraftField, HTMLElement>());
  const headingId = `edit-${server.id}-heading`;
  // The form opens above its Edit… button: the focus goes to its heading, so that Tab goes on
  // into its fields rather than on from the button below them.
  const heading = useRef<HTMLHeadingElement>(null);
  const saveButton = useRef<HTMLButtonElement>(null);
  useEffect(() => heading.current?.focus(), []);

  useEffect(() => {
    let live = true;
    client.call('servers.get', { serverId: server.id }).then(
      (settings) => {
        if (!live) return;
        const read = draftFromSettings(settings);
        setDraft(read);
        setInitial(read);
        setEditable(settings.editable);
        setSaved({
          name: settings.name,
          command: settings.transport.type === 'stdio' ? settings.transport.command : undefined
        });
      },
      (error: unknown) =>
        // Not by its name: a rename from elsewhere must not read the settings again over the draft.
        live && fail('Could not read the settings of this server.', error, 'Close this form and press Edit… again.')
    );
    return () => {
      live = false;
    };
  }, [client, server.id, fail]);

  const clash = draft ? nameTakenBy(draft.name, servers, server.id) : undefined;
  const renamed = !!draft && !!saved && draft.name.trim().toLowerCase() !== saved.name.trim().toLowerCase();
  const problems: Array<[DraftField, string]> = draft ? draftProblems(draft) : [];
  // Refused, not only warned of: two servers of one name make every message that names one of
  // them (announcements, the Inbox, notices, History) ambiguous, and an import numbers such a
  // name ("echo (2)") for that reason. A name that clashed already when the form opened (a
  // server of Taskdesk's configuration, an older list) is only warned of, so that the server's
  // other fields can still be saved.
  if (clash && renamed) problems.unshift(['name', nameTakenWords(clash)]);
  // An address typed into Command is refused, as no process can be started from it; one saved
  // so before is only warned of (the field says it), so that the other fields can still be saved.
  const url = draft?.transport === 'stdio' ? commandUrlWords(draft.command) : undefined;
  if (url && draft?.command.trim() !== saved?.command?.trim())
    problems.splice(problems.filter(([field]) => field === 'name').length, 0, ['command', url]);
  const correcting = useCorrecting(problems, setErrors, { show, clear });
  // Compared as Save would send them: a change typed and undone, or spaces around a value, is none.
  const unsaved = !!draft && !!initial && JSON.stringify(toEditable(draft)) !== JSON.stringify(toEditable(initial));
  // Said before Save, not found out after: a restart ends the calls and questions under way.
  const restarts = !!draft && !!initial && unsaved && restartsServer(toEditable(initial), toEditable(draft));
  const live = server.state.status === 'ready' || server.state.status === 'connecting';
  const work = useMemo(
    () => runningWork(server, calls, outbound, inbox, tasks, held),
    [server, calls, outbound, inbox, tasks, held]
  );
  const restartNote = restarts && live ? restartWords(server.name, work) : undefined;
  const restartNoteId = `edit-${server.id}-restart`;
  useEffect(() => onUnsavedChange?.(unsaved), [unsaved, onUnsavedChange]);
  useEffect(() => () => onUnsavedChange?.(false), [onUnsavedChange]);

  /**
   * Asks before a Save that restarts the server when that ends work under way, saying what ends,
   * as Disconnect and Remove ask; asks nothing otherwise. Read from the Desk's state as it is now.
   */
  const agreedToRestart = async () => {
    if (!restarts || !live) return true;
    const { calls, outbound, inbox, tasks } = store.getState();
    const work = runningWork(server, calls, outbound, inbox, tasks, store.held.getSnapshot());
    if (!restartSaveWords(server.name, work)) return true;
    return confirm({
      title: `Save and restart ${server.name}?`,
      body: <RestartConsequences serverId={server.id} />,
      confirmLabel: 'Save and restart',
      // Not "Cancel": the form's own Cancel is what throws the changes away.
      cancelLabel: 'Keep editing',
      danger: true
    });
  };

  const submit = async () => {
    if (!draft || busy || closing) return;
    clear();
    // Enter in Command, a command line still in it: split first, saved on the next Save.
    if (splitBeforeSubmit(draft, { setDraft, announce, focusCommand: () => controls.current.get('command')?.focus() }))
      return;
    setErrors(Object.fromEntries(problems));
    if (problems.length > 0) {
      show(correctingFailure(problems.length));
      correcting.found(problems.length);
      controls.current.get(problems[0]![0])?.focus();
      return;
    }
    correcting.done();
    if (!(await agreedToRestart())) {
      // Kept: the draft stays as it was, and Save is where the person was.
      saveButton.current?.focus();
      return;
    }
    setBusy(true);
    // Before the call: the reconnect's states may arrive before its answer. A save that keeps
    // the connection (a new name) has no reconnect to wait for.
    const stopWaiting = restarts ? onSaving?.() : undefined;
    try {
      // The Inbox's answers to it still in their undo window go before the restart withdraws
      // their questions: the person gave them.
      if (restarts && live) await store.held.flushServer(server.id);
      const { reconnects } = await client.call('servers.update', { serverId: server.id, settings: toEditable(draft) });
      if (!reconnects) stopWaiting?.();
      announce(`Saved ${draft.name.trim()}.`);
      onDone();
    } catch (error) {
      stopWaiting?.();
      fail(`${server.name} was not saved.`, error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="edit-server"
      noValidate
      aria-labelledby={headingId}
      aria-busy={busy || draft === undefined}
      // Escape in a field leaves it for the form (as in a tool's form and an Inbox card), so that
      // a key pressed while typing does not close the form from under what was typed; Escape on
      // the form, its heading or a button then closes it as Cancel does (asking first when it
      // holds changes not saved), as the Assistant's panels and a task's detail close on Escape.
      onKeyDown={escapeLeavesFieldThenCloses(onCancel)}
      // Where Escape in a field puts the focus.
      tabIndex={-1}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h4 id={headingId} ref={heading} tabIndex={-1}>
        Edit {server.name}
      </h4>
      {!editable ? (
        <p className="reason">This server is given by Taskdesk's configuration and cannot be edited here.</p>
      ) : null}
      {draft ? (
        <ServerFields
          draft={draft}
          errors={errors}
          onChange={setDraft}
          register={(field, element) => {
            if (element) controls.current.set(field, element);
          }}
          autoConnectLabel="Connect when Taskdesk starts"
          nameWarning={clash ? nameTakenWords(clash) : undefined}
          commandFound={
            saved?.command !== undefined && server.state.executable
              ? { command: saved.command, executable: server.state.executable }
              : undefined
          }
        />
      ) : null}
      <ActionError failure={failure} onDismiss={clear} />
      {/* Above Save, read before it is pressed (Save asks too when it ends work under way). */}
      {restartNote ? (
        <p className="field-hint" id={restartNoteId}>
          {restartNote}
        </p>
      ) : null}
      <div className="actions">
        <button
          ref={saveButton}
          type="submit"
          className="primary"
          disabled={!draft || !editable}
          aria-describedby={restartNote ? restartNoteId : undefined}
          {...busyProps(busy || closing)}
        >
          Save
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
