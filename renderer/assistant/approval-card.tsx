import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { AssistantToolCall, Conversation, ToolDecision } from '../../app/contract/assistant.js';
import { ActionError, correctingFailure, type Failure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { useScrolls } from '../components/use-scrolls.js';
import { ArgumentFields } from '../forms/argument-fields.js';
import { argumentValues } from '../forms/schema-values.js';
import { useSchemaForm } from '../forms/use-schema-form.js';
import { useFormCorrecting } from '../forms/use-form-correcting.js';
import { INVALID_PARAMS, toHostCallError } from '../host-client.js';
import { useDesk } from '../shell/desk-context.js';
import { placeProblems } from '../tools/argument-problems.js';
import { useAssistantCall } from './use-assistant-call.js';

/** How the arguments are being edited: in the tool's form, or as JSON text. */
type Editor = 'form' | 'json';

/**
 * A tool call waiting for the person (policy "ask"): its arguments, editable in the tool's form
 * (as on the Tools screen) or as JSON, checked against the tool's schema by the host; and Approve,
 * Always allow this tool, or Deny with an optional reason the model reads.
 */
export function ApprovalCard({
  conversationId,
  call,
  serverName
}: {
  conversationId: string;
  call: AssistantToolCall;
  /** The server as the rest of the Desk names it (from the call's card). */
  serverName: string | undefined;
}) {
  const { client, announce } = useDesk();
  const original = JSON.stringify(call.arguments ?? parsedArguments(call.rawArguments), null, 2);
  const args = useMemo(() => objectOf(JSON.parse(original)), [original]);
  const [text, setText] = useState(original);
  const [editor, setEditor] = useState<Editor | undefined>(undefined);
  const editing = editor !== undefined;
  const input = useInputSchema(call);
  const schema = input.schema;
  // Edit arguments pressed while the schema was still on its way: the editor opens once it is here.
  const [editWanted, setEditWanted] = useState(false);
  const form = useSchemaForm(schema, 'arguments');
  const editorRef = useRef<HTMLDivElement>(null);
  // The call is announced before its arguments are read: show them as they come, until edited.
  useEffect(() => {
    if (!editing) setText(original);
  }, [original, editing]);
  const [reason, setReason] = useState('');
  const [denying, setDenying] = useState(false);
  const [parseError, setParseError] = useState<Failure | undefined>(undefined);
  const { run, busy, failure, clear } = useAssistantCall();
  // After Approve (or Edit as JSON) marked fields of the form, the summary follows the marks as
  // they are corrected (the form checks each field as it changes), as the Servers forms' does: its
  // count, and gone once none is marked.
  const clearParseError = useCallback(() => setParseError(undefined), []);
  const correcting = useFormCorrecting(Object.entries(form.errors), { show: setParseError, clear: clearParseError });
  const name = call.toolName ?? call.functionName;
  const noteId = useId();
  // While edited arguments cannot be sent, a quiet note under the box says why as the person types
  // (not while the alert from Approve says it).
  const note = editor === 'json' && parseError === undefined ? argumentsNote(text) : undefined;
  const changed = editor === 'form' ? form.dirty : text !== original;
  const groupRef = useRef<HTMLDivElement>(null);
  const actionsRef = useRef<HTMLDivElement>(null);
  const denyRef = useRef<HTMLButtonElement>(null);
  const editRef = useRef<HTMLButtonElement>(null);
  const shownRef = useRef<HTMLPreElement>(null);
  // Long arguments scroll in their own box, so that the card's buttons stay in sight under them.
  const shownScrolls = useScrolls(shownRef, editing ? undefined : text);
  // Where the focus goes back to once the deny form or the editor closes (their buttons come back).
  const [returnTo, setReturnTo] = useState<'deny' | 'edit' | undefined>(undefined);
  useEffect(() => {
    if (returnTo === 'deny') denyRef.current?.focus();
    if (returnTo === 'edit') editRef.current?.focus();
    if (returnTo) setReturnTo(undefined);
  }, [returnTo]);
  // The form opens with the focus in its first control (the JSON box takes it by autoFocus).
  useEffect(() => {
    if (editor === 'form') editorRef.current?.querySelector<HTMLElement>('input, select, textarea, button')?.focus();
  }, [editor]);
  // The deny form opens under the arguments, perhaps below the window: its buttons are brought into view.
  useEffect(() => {
    if (denying) actionsRef.current?.scrollIntoView({ block: 'nearest' });
  }, [denying]);
  const closeDeny = () => {
    setDenying(false);
    setReturnTo('deny');
  };
  // Back to the arguments as they came: what was said of the edited ones (not JSON, or refused by the
  // host) no longer holds.
  const cancelEdit = () => {
    correcting.done();
    setText(original);
    setEditor(undefined);
    setParseError(undefined);
    clear();
    setReturnTo('edit');
  };

  // Approve, Always allow and Deny all answer this one call: while one is on its way the others wait
  // (aria-disabled, so the focus stays on the button pressed).
  // Once decided, this card (and the button pressed) goes: the focus stays on the call's card, which stays.
  // `refused` may take the host's refusal as its own to show (the form's fields), else it is shown as it came.
  const decide = (decision: ToolDecision, said: string, refused?: (error: unknown) => boolean) => {
    if (busy) return;
    const card = groupRef.current?.closest<HTMLElement>('.chat-tool');
    void run(async () => {
      let c: Conversation;
      try {
        c = await client.call('assistant.decide', { conversationId, toolCallId: call.id, decision });
      } catch (error) {
        if (refused?.(error)) return undefined;
        throw error;
      }
      announce(said);
      card?.focus();
      return c;
    }, `Your decision on ${name} was not taken.`);
  };

  const deny = () =>
    decide({ action: 'deny', ...(reason.trim() !== '' && { reason: reason.trim() }) }, `${name} denied.`);

  // Opens the tool's form filled with the arguments when it can show them as they are, else the JSON box.
  useEffect(() => {
    if (!editWanted || !input.settled) return;
    setEditWanted(false);
    const start = schema === undefined || args === undefined ? undefined : argumentValues(form.fields, args);
    if (start) form.reset(start);
    setEditor(start ? 'form' : 'json');
  }, [editWanted, input.settled, schema, args, form]);

  // From the form to JSON, with what was typed in it; a field that cannot be read says so first, so
  // that nothing typed is lost on the way.
  const formToJson = () => {
    correcting.done();
    setParseError(undefined);
    if (form.dirty) {
      const read = form.read();
      if (!read.ok) {
        const count = Object.keys(read.errors).length;
        form.showErrors(read.errors);
        correcting.found(
          {
            ...correctingFailure(count),
            next: 'Each marked field says what it needs; correct it, then edit as JSON again.'
          },
          count
        );
        return;
      }
      setText(JSON.stringify(read.values, null, 2));
    } else setText(original);
    form.setErrors({});
    clear();
    setEditor('json');
  };

  // The host checks the form's values against the tool's schema as the Tools screen's are: its
  // problems go on the fields they name, in the form's own words.
  const placeRefusal = (error: unknown, sent: Record<string, unknown>): boolean => {
    const refusal = toHostCallError(error);
    if (refusal.code !== INVALID_PARAMS) return false;
    const placed = placeProblems(refusal.data, form.fields, sent);
    const count = Object.keys(placed.errors).length;
    if (count === 0) return false;
    form.showErrors(placed.errors);
    correcting.found(
      {
        ...correctingFailure(count),
        ...(placed.unplaced.length > 0 && { why: placed.unplaced.join('; ') })
      },
      count
    );
    return true;
  };

  const approve = () => {
    correcting.done();
    setParseError(undefined);
    if (!changed) return decide({ action: 'approve' }, `${name} approved.`);
    if (editor === 'form') {
      const read = form.read();
      if (!read.ok) {
        const count = Object.keys(read.errors).length;
        form.showErrors(read.errors);
        return correcting.found(correctingFailure(count), count);
      }
      form.setErrors({});
      return decide({ action: 'approve', arguments: read.values }, `${name} approved with your edits.`, (error) =>
        placeRefusal(error, read.values)
      );
    }
    const problem = argumentsError(text);
    if (problem) return setParseError(problem);
    decide(
      { action: 'approve', arguments: JSON.parse(text) as Record<string, unknown> },
      `${name} approved with your edits.`
    );
  };

  return (
    <div
      ref={groupRef}
      className="chat-approval"
      role="group"
      aria-label={`Approve ${name}?`}
      // Escape backs out of what is open, as Back and Cancel edit do (and only that: not the settings too).
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || e.defaultPrevented) return;
        if (denying) {
          e.preventDefault();
          closeDeny();
        } else if (editing && (e.target as Element).closest('.chat-args-editor, .chat-args-form')) {
          e.preventDefault();
          cancelEdit();
        }
      }}
    >
      <p>
        The model wants to call <strong>{name}</strong>
        {call.serverId ? (
          <>
            {' '}
            on <strong>{serverName ?? call.serverId}</strong>
          </>
        ) : null}{' '}
        with:
      </p>
      {editor === 'form' ? (
        <div
          ref={editorRef}
          className="chat-args-form"
          role="group"
          aria-label="Arguments"
          // Enter in a one-line field approves with the edits, as Enter submits the Desk's other forms
          // (this one is no <form>: the card is not one). Not in a text area, where Enter starts a line.
          onKeyDown={(e) => {
            if (e.key !== 'Enter' || e.defaultPrevented || e.nativeEvent.isComposing) return;
            if (!(e.target instanceof HTMLInputElement) || !SUBMITTING_INPUTS.has(e.target.type)) return;
            e.preventDefault();
            approve();
          }}
        >
          <ArgumentFields form={form} />
        </div>
      ) : editor === 'json' ? (
        <>
          <label className="field">
            <span>Arguments (JSON)</span>
            <textarea
              autoFocus
              className="chat-args-editor"
              rows={Math.min(16, Math.max(4, text.split('\n').length + 1))}
              value={text}
              spellCheck={false}
              aria-describedby={note ? noteId : undefined}
              onChange={(e) => {
                setText(e.target.value);
                // Corrected: what the error said is no longer so.
                if (parseError && argumentsError(e.target.value) === undefined) setParseError(undefined);
              }}
            />
          </label>
          {note ? (
            <p id={noteId} className="field-hint chat-args-note">
              {note}
            </p>
          ) : null}
        </>
      ) : (
        // While it scrolls: a region the keyboard reaches, named so that it says what it holds
        // (not before, lest every card add a landmark of the same name).
        <pre
          ref={shownRef}
          className="json"
          {...(shownScrolls && { role: 'region', 'aria-label': 'Arguments', tabIndex: 0 })}
        >
          {text}
        </pre>
      )}
      {denying ? (
        <label className="field">
          <span>Why not (optional, the model reads it)</span>
          <input
            autoFocus
            type="text"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            // Enter denies, as in a one-field form.
            onKeyDown={(e) => {
              if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
              e.preventDefault();
              deny();
            }}
          />
        </label>
      ) : null}
      <div className="actions" ref={actionsRef}>
        {denying ? (
          <>
            <button type="button" className="danger" {...busyProps(busy)} onClick={deny}>
              Deny the call
            </button>
            <button type="button" onClick={closeDeny}>
              Back
            </button>
          </>
        ) : (
          <>
            <button type="button" className="primary" {...busyProps(busy)} onClick={approve}>
              {changed ? 'Approve with edits' : 'Approve'}
            </button>
            {editing ? (
              <button type="button" onClick={cancelEdit}>
                Cancel edit
              </button>
            ) : (
              <button type="button" ref={editRef} onClick={() => setEditWanted(true)}>
                Edit arguments
              </button>
            )}
            {editor === 'form' ? (
              <button type="button" onClick={formToJson}>
                Edit as JSON
              </button>
            ) : null}
            <button
              type="button"
              disabled={changed}
              {...busyProps(busy)}
              title={changed ? 'Approve once to send edited arguments' : undefined}
              // The tool is named in the line above: on the button it made the row wrap inside it.
              aria-label={`Always allow ${name}`}
              onClick={() => decide({ action: 'always' }, `${name} is always allowed from now on.`)}
            >
              Always allow
            </button>
            <button type="button" ref={denyRef} onClick={() => setDenying(true)}>
              Deny…
            </button>
          </>
        )}
      </div>
      {/* After the buttons: Tab from the arguments reaches Approve first, the error's Dismiss after. */}
      <ActionError
        failure={parseError ?? failure}
        onDismiss={() => {
          setParseError(undefined);
          clear();
        }}
      />
    </div>
  );
}

/** The kinds of <input> in which Enter submits a form (implicit submission): not a box to tick, nor a button. */
const SUBMITTING_INPUTS = new Set([
  'text',
  'search',
  'url',
  'tel',
  'email',
  'password',
  'number',
  'date',
  'month',
  'week',
  'time',
  'datetime-local'
]);

/** Why edited arguments cannot be sent (not JSON, not an object), or `undefined` when they can. */
function argumentsError(text: string): Failure | undefined {
  let edited: unknown;
  try {
    edited = JSON.parse(text);
  } catch (problem) {
    return {
      what: 'The arguments are not JSON.',
      why: problem instanceof Error ? problem.message : String(problem),
      next: 'Correct them in the box above, then approve again.'
    };
  }
  if (typeof edited !== 'object' || edited === null || Array.isArray(edited))
    return { what: 'The arguments must be a JSON object.', next: 'Put them between { and }.' };
  return undefined;
}

/** What the note under the editor says while the edited arguments cannot be sent, else `undefined`. */
function argumentsNote(text: string): string | undefined {
  const problem = argumentsError(text);
  if (!problem) return undefined;
  return problem.why === undefined
    ? 'Not a JSON object: put the arguments between { and }.'
    : `Not JSON yet: ${problem.why}`;
}

/**
 * The tool's input schema, for its form: from the server's tool list as the host keeps it (the list
 * it checks edited arguments against), so no new field in the contract. `settled` once the list came
 * or could not; `schema` is then `undefined` when the tool has none to give.
 */
function useInputSchema(call: AssistantToolCall): { settled: boolean; schema: unknown } {
  const { client } = useDesk();
  const { serverId, toolName } = call;
  const known = serverId !== undefined && toolName !== undefined;
  const [found, setFound] = useState<{ settled: boolean; schema: unknown }>({ settled: !known, schema: undefined });
  useEffect(() => {
    if (serverId === undefined || toolName === undefined) return;
    let current = true;
    client.call('tools.list', { serverId }).then(
      (tools) => {
        if (current) setFound({ settled: true, schema: tools.find((tool) => tool.name === toolName)?.inputSchema });
      },
      // No list (the server went away, say): the arguments are edited as JSON, as they always could be.
      () => {
        if (current) setFound({ settled: true, schema: undefined });
      }
    );
    return () => {
      current = false;
    };
  }, [client, serverId, toolName]);
  return found;
}

/** The arguments when they are a JSON object, which a form can show; else `undefined`. */
function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function parsedArguments(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return {};
  }
}
