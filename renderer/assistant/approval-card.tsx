import { useEffect, useId, useRef, useState } from 'react';
import type { AssistantToolCall, ToolDecision } from '../../app/contract/assistant.js';
import { ActionError, type Failure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { useDesk } from '../shell/desk-context.js';
import { useAssistantCall } from './use-assistant-call.js';

/**
 * A tool call waiting for the person (policy "ask"): its arguments, editable as JSON (checked
 * against the tool's schema by the host), and Approve, Always allow this tool, or Deny with an
 * optional reason the model reads.
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
  const [text, setText] = useState(original);
  const [editing, setEditing] = useState(false);
  // The call is announced before its arguments are read: show them as they come, until edited.
  useEffect(() => {
    if (!editing) setText(original);
  }, [original, editing]);
  const [reason, setReason] = useState('');
  const [denying, setDenying] = useState(false);
  const [parseError, setParseError] = useState<Failure | undefined>(undefined);
  const { run, busy, failure, clear } = useAssistantCall();
  const name = call.toolName ?? call.functionName;
  const noteId = useId();
  // While edited arguments cannot be sent, a quiet note under the box says why as the person types
  // (not while the alert from Approve says it).
  const note = editing && parseError === undefined ? argumentsNote(text) : undefined;
  const groupRef = useRef<HTMLDivElement>(null);
  const actionsRef = useRef<HTMLDivElement>(null);
  const denyRef = useRef<HTMLButtonElement>(null);
  const editRef = useRef<HTMLButtonElement>(null);
  // Where the focus goes back to once the deny form or the editor closes (their buttons come back).
  const [returnTo, setReturnTo] = useState<'deny' | 'edit' | undefined>(undefined);
  useEffect(() => {
    if (returnTo === 'deny') denyRef.current?.focus();
    if (returnTo === 'edit') editRef.current?.focus();
    if (returnTo) setReturnTo(undefined);
  }, [returnTo]);
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
    setText(original);
    setEditing(false);
    setParseError(undefined);
    clear();
    setReturnTo('edit');
  };

  // Approve, Always allow and Deny all answer this one call: while one is on its way the others wait
  // (aria-disabled, so the focus stays on the button pressed).
  // Once decided, this card (and the button pressed) goes: the focus stays on the call's card, which stays.
  const decide = (decision: ToolDecision, said: string) => {
    if (busy) return;
    const card = groupRef.current?.closest<HTMLElement>('.chat-tool');
    void run(async () => {
      const c = await client.call('assistant.decide', { conversationId, toolCallId: call.id, decision });
      announce(said);
      card?.focus();
      return c;
    }, `Your decision on ${name} was not taken.`);
  };

  const deny = () =>
    decide({ action: 'deny', ...(reason.trim() !== '' && { reason: reason.trim() }) }, `${name} denied.`);

  const approve = () => {
    setParseError(undefined);
    if (text === original) return decide({ action: 'approve' }, `${name} approved.`);
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
        } else if (editing && (e.target as Element).classList.contains('chat-args-editor')) {
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
      {editing ? (
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
        <pre className="json">{text}</pre>
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
              {text === original ? 'Approve' : 'Approve with edits'}
            </button>
            {editing ? (
              <button type="button" onClick={cancelEdit}>
                Cancel edit
              </button>
            ) : (
              <button type="button" ref={editRef} onClick={() => setEditing(true)}>
                Edit arguments
              </button>
            )}
            <button
              type="button"
              disabled={text !== original}
              {...busyProps(busy)}
              title={text !== original ? 'Approve once to send edited arguments' : undefined}
              onClick={() => decide({ action: 'always' }, `${name} is always allowed from now on.`)}
            >
              Always allow {name}
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

function parsedArguments(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return {};
  }
}
