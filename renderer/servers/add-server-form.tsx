import { useEffect, useRef, useState } from 'react';
import { busyProps } from '../components/busy-props.js';
import { ActionError, correctingFailure, failureOf, useFailure } from '../components/action-error.js';
import { FieldFrame } from '../forms/field-frame.js';
import { useDesk } from '../shell/desk-context.js';
import { addedWords } from './added-words.js';
import { ServerFields } from './server-fields.js';
import { useCorrecting } from './use-correcting.js';
import { draftProblems, emptyDraft, toConfigInput, type DraftField, type ServerDraft } from './server-draft.js';

const ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * The "Add a server" form. After a successful add the form is mounted anew (its `key` changes),
 * so every control, the transport choice and "Connect now" among them, is back at its default
 * and shows what the next submit sends; its Id field has the focus, which its Add button, gone
 * with the old form, held.
 */
export function AddServerForm() {
  const [generation, setGeneration] = useState(0);
  return <AddServerFormBody key={generation} focusId={generation > 0} onAdded={() => setGeneration((n) => n + 1)} />;
}

function AddServerFormBody({ focusId, onAdded }: { focusId: boolean; onAdded: () => void }) {
  const { client, store, announce } = useDesk();
  const [id, setId] = useState('');
  const [draft, setDraft] = useState<ServerDraft>(emptyDraft);
  const [errors, setErrors] = useState<Partial<Record<DraftField | 'id', string>>>({});
  const { failure, fail, show, clear } = useFailure();
  const [busy, setBusy] = useState(false);
  const controls = useRef(new Map<DraftField | 'id', HTMLElement>());
  useEffect(() => {
    if (focusId) controls.current.get('id')?.focus();
  }, [focusId]);
  const register = (field: DraftField | 'id', element: HTMLElement | null) => {
    if (element) controls.current.set(field, element);
  };

  const problems = formProblems(id, draft);
  const correcting = useCorrecting(problems, setErrors, { show, clear });

  const submit = async () => {
    if (busy) return;
    clear();
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
      fail(`Could not add ${config.name}.`, error);
      setBusy(false);
      return;
    }
    announce(config.autoConnect ? `Added ${config.name}; connecting.` : addedWords(config.name));
    onAdded();
    // The connect is the new server's business now: its card shows how it goes (a failed
    // connection by its status and reason; a refused call by the failure put in the store).
    // A screen reader is told how it went too: the card's status is not announced.
    store.dispatch({ type: 'connect-failure-cleared', serverId: trimmed });
    if (config.autoConnect)
      void client.call('servers.connect', { serverId: trimmed }).then(
        (view) => {
          if (view.state.status === 'ready') announce(addedWords(config.name, { connected: true }));
          else if (view.state.status === 'failed')
            announce(
              addedWords(config.name, {
                connected: false,
                ...(view.state.reason !== undefined && { reason: view.state.reason })
              })
            );
        },
        (error: unknown) => {
          const failure = failureOf(
            `Could not connect ${config.name}.`,
            error,
            'Check its command or URL with Edit…, then press Connect again.'
          );
          store.dispatch({ type: 'connect-failed', serverId: trimmed, failure });
          announce(
            addedWords(config.name, { connected: false, ...(failure.why !== undefined && { reason: failure.why }) })
          );
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
      <h3 id="heading-add-server">Add a server</h3>
      <FieldFrame
        name="id"
        label="Id"
        required
        hint="Letters, digits, dot, dash and underscore. Tasks are kept per id."
        error={errors.id}
      >
        {(wiring) => (
          <input
            {...wiring}
            name="id"
            ref={(element) => register('id', element)}
            value={id}
            onChange={(event) => setId(event.target.value)}
            type="text"
            required
            aria-required="true"
            autoComplete="off"
            spellCheck={false}
          />
        )}
      </FieldFrame>
      <ServerFields
        draft={draft}
        errors={errors}
        onChange={setDraft}
        register={register}
        autoConnectLabel="Connect now and when Taskdesk starts"
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
function formProblems(id: string, draft: ServerDraft): Array<[DraftField | 'id', string]> {
  const problems: Array<[DraftField | 'id', string]> = [];
  const trimmed = id.trim();
  if (!trimmed) problems.push(['id', 'Required']);
  else if (!ID_PATTERN.test(trimmed))
    problems.push(['id', 'Use up to 64 letters, digits, dots, dashes and underscores']);
  problems.push(...draftProblems(draft));
  return problems;
}
