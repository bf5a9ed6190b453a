import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { RequestorTool } from '../../app/contract/host-api.js';
import { DEFAULT_TASK_TTL_MS } from '../../app/contract/requestor-defaults.js';
import { busyProps } from '../components/busy-props.js';
import { escapeLeavesFieldThenCloses } from '../components/escape-closes.js';
import {
  ActionError,
  cancelledByPerson,
  URL_ELICITATION_REQUIRED,
  correctingFailure,
  failureOf,
  useFailure
} from '../components/action-error.js';
import { FieldFrame } from '../forms/field-frame.js';
import { ArgumentFields } from '../forms/argument-fields.js';
import { useSchemaForm } from '../forms/use-schema-form.js';
import { useFormCorrecting } from '../forms/use-form-correcting.js';
import { argumentValues } from '../forms/schema-values.js';
import { INVALID_PARAMS, toHostCallError } from '../host-client.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { callResultWords, callRunningWords, callWords } from './last-call-status.js';
import { callsOfForms } from './form-calls.js';
import { placeProblems } from './argument-problems.js';
import { focusFirstField } from './first-field.js';
import { StartedTask } from './started-task.js';
import { ToolResultView } from './tool-result-view.js';

/** The ttl field's minutes as milliseconds: undefined when empty (the host's default), false when not whole minutes of 1 or more. */
export function readTtlMs(text: string): number | undefined | false {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (!/^\d+$/.test(trimmed)) return false;
  const ms = Number(trimmed) * 60_000;
  return ms > 0 && Number.isSafeInteger(ms) ? ms : false;
}

const TTL_PROBLEM = 'Whole minutes, 1 or more';

/** The ttl field's message when what is typed in `input` is not whole minutes of 1 or more. */
function ttlProblem(input: HTMLInputElement): string | undefined {
  return input.validity.badInput || readTtlMs(input.value) === false ? TTL_PROBLEM : undefined;
}

/** A new id for a call this form sends: the host names its running line by it, so the form finds its own. */
function newCallId(): string {
  return `form-${Array.from(crypto.getRandomValues(new Uint8Array(12)), (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * A call to make again, from Call again… (its arguments, absent when they were not kept); `nonce`
 * tells a new request from the last.
 */
export interface CallAgain {
  arguments?: Record<string, unknown>;
  nonce: number;
}

/**
 * Brings what the form just showed into sight ('nearest': the page moves no more than it must),
 * unless the person has gone elsewhere meanwhile (the focus left the tool's card for another
 * control): a long call's end must not pull the page away from what they turned to.
 */
function bringIntoView(element: HTMLElement | null | undefined): void {
  if (!element) return;
  const at = document.activeElement;
  if (at !== null && at !== document.body && !element.closest('li.tool')?.contains(at)) return;
  element.scrollIntoView({ block: 'nearest' });
}

/**
 * The form that calls one tool: inputs from its `inputSchema`, "Run as a task" for tools that
 * may run either way and how long the server should keep the task, then `tools.call`. A plain
 * call's result is shown under the form; a task's status too, with a way to its card in the
 * tool call list.
 */
export function ToolCallForm({
  serverId,
  tool,
  modern,
  again,
  onFilled,
  onClose
}: {
  serverId: string;
  tool: RequestorTool;
  modern: boolean;
  /** A call to make again: the form is filled with its arguments (once per `nonce`) and takes the focus. */
  again?: CallAgain;
  /** Told once the form was filled for a call again: the screen does not ask for it again. */
  onFilled?: (nonce: number) => void;
  /** Closes the form's disclosure (Escape on the form, not in a field). */
  onClose: () => void;
}) {
  const { client, store, announce } = useDesk();
  // Named in what the live region says of a call: two servers may have a tool of this name.
  const serverName = useDeskState((state) => state.servers.find((server) => server.id === serverId)?.name ?? serverId);
  const form = useSchemaForm(tool.inputSchema, 'arguments');
  const [asTask, setAsTask] = useState(true);
  const [ttl, setTtl] = useState('');
  const [ttlError, setTtlError] = useState<string | undefined>(undefined);
  const { failure, show, clear } = useFailure();
  const [result, setResult] = useState<ReactNode>(null);
  const [busy, setBusy] = useState(false);
  const ttlRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  /** The call this form sent and waits on; its running line (time, progress, Cancel) shows under the form. */
  const [sentCall, setSentCall] = useState<string | undefined>(undefined);
  /** Whether that call was sent to run as a task: its line shows only until the server answers with one. */
  const sentAsTask = useRef(false);
  /** How that line stands: none, running, or with a progress bar (which makes it taller). */
  const sentLine = useDeskState((state) => {
    const call = sentCall === undefined ? undefined : state.calls[sentCall];
    return call === undefined ? undefined : call.progress ? 'progress' : 'running';
  });
  /** The call again last filled in: filled once, so that what the person changes after stays. */
  const filled = useRef<number | undefined>(undefined);
  /** Said when a call's arguments do not fit the form as they are (the tool's schema changed, an opaque one). */
  const [againNote, setAgainNote] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (!again || filled.current === again.nonce) return;
    filled.current = again.nonce;
    // A fresh form for the call: what the form's last call led to (its result, its task's line,
    // a failure) is not this one's, and nothing of this one has been sent yet.
    setResult(null);
    clear();
    const kept = again.arguments;
    const start = kept === undefined ? undefined : argumentValues(form.fields, kept);
    if (start) form.reset(start);
    setAgainNote(
      start
        ? undefined
        : kept === undefined
          ? 'The arguments of that call were not kept: fill the form in.'
          : 'The arguments of that call do not fit this form as they are (the tool may have changed): fill it in anew; the call’s own arguments are in its History entry.'
    );
    const first = focusFirstField(formRef.current);
    first?.scrollIntoView({ block: 'nearest' });
    announce(
      start
        ? `The form of ${tool.name}, filled with that call’s arguments: check them, then Call tool.`
        : kept === undefined
          ? `The form of ${tool.name}: the arguments of that call were not kept.`
          : `The form of ${tool.name}: the arguments of that call do not fit it as they are.`
    );
    onFilled?.(again.nonce);
  }, [again, form, announce, tool.name, onFilled, clear]);
  const unavailable = tool.callMode === 'unavailable';
  // A 2026-07-28 server sets its tasks' ttl itself: there is nothing to ask for.
  const mayRunAsTask = !modern && (tool.callMode === 'task' || tool.callMode === 'task-or-plain');
  const runsAsTask = mayRunAsTask && (tool.callMode === 'task' || asTask);
  // After a submit that marked fields, the summary follows the marks as they are corrected (the
  // form checks each field as it changes, and the ttl field once marked), as the Servers forms'
  // does: its count, and gone once none is marked.
  const correcting = useFormCorrecting(
    [...Object.entries(form.errors), ...(ttlError === undefined ? [] : [['ttlMinutes', ttlError] as const])],
    { show, clear }
  );

  const submit = async () => {
    if (unavailable || busy) return;
    correcting.done();
    clear();
    setResult(null);
    const read = form.read();
    const ttlMs = runsAsTask ? (ttlRef.current?.validity.badInput ? false : readTtlMs(ttl)) : undefined;
    setTtlError(ttlMs === false ? TTL_PROBLEM : undefined);
    const bad = (read.ok ? 0 : Object.keys(read.errors).length) + (ttlMs === false ? 1 : 0);
    if (!read.ok) form.showErrors(read.errors);
    else form.setErrors({});
    if (bad > 0) {
      correcting.found(correctingFailure(bad), bad);
      if (read.ok) ttlRef.current?.focus();
      return;
    }
    if (!read.ok || ttlMs === false) return;
    setBusy(true);
    const callId = newCallId();
    sentAsTask.current = runsAsTask;
    setSentCall(callId);
    callsOfForms.add(callId);
    try {
      const outcome = await client.call('tools.call', {
        serverId,
        name: tool.name,
        arguments: read.values,
        ...(tool.callMode === 'task-or-plain' && { asTask }),
        ...(ttlMs !== undefined && { ttlMs }),
        // Used only if it runs plainly (a task has its own id).
        callId
      });
      if (outcome.type === 'task') {
        store.apply('outbound.changed', { type: 'changed', task: outcome.task });
        setResult(<StartedTask outboundId={outcome.task.outboundId} taskId={outcome.task.taskId} />);
        announce(`${callWords(tool.name, serverName)} started as a task.`);
      } else {
        setResult(
          <>
            <p className="muted small-text">Result:</p>
            {/* Keyed by the call: a new call's resource links start unread. */}
            <ToolResultView key={callId} result={outcome.result} serverId={serverId} />
          </>
        );
        announce(callResultWords(tool.name, serverName, outcome.result));
      }
    } catch (thrown) {
      const error = toHostCallError(thrown);
      const placed =
        error.code === INVALID_PARAMS
          ? placeProblems(error.data, form.fields, read.values)
          : { errors: {}, unplaced: [] };
      const count = Object.keys(placed.errors).length;
      if (count > 0) {
        // The host checks the arguments against the tool's schema before sending anything: to the
        // person that is one more check of the form, said in the same words as the form's own.
        form.showErrors(placed.errors);
        correcting.found(
          {
            ...correctingFailure(count),
            ...(placed.unplaced.length > 0 && { why: placed.unplaced.join('; ') })
          },
          count
        );
      } else if (cancelledByPerson(error)) {
        // The person's own Cancel of this call (here, in Running calls or in the Inbox): an
        // outcome they asked for, said plainly, not an error. Any other −32800 (the server's own:
        // it ended the call itself) is a failure, said in its message as any other. Whether the
        // server was told is not said: a call waiting in the Inbox had nothing in flight to stop.
        // Or an act of theirs that closed the server's connection while it ran (Disconnect,
        // Remove, a Save that restarted it): said as that act, not as a failure of the call.
        const yourAct = (error.data as { yourAct?: unknown } | undefined)?.yourAct;
        if (typeof yourAct === 'string') {
          setResult(<p className="call-cancelled">{`Stopped: ${yourAct}.`}</p>);
          announce(`The call of ${callWords(tool.name, serverName)} was stopped: ${yourAct}.`);
        } else {
          setResult(<p className="call-cancelled">You cancelled this call of {tool.name}.</p>);
          announce(`The call of ${callWords(tool.name, serverName)} was cancelled.`);
        }
      } else if (error.code === URL_ELICITATION_REQUIRED) {
        // The person turned the link down: the call was never run, which is not a failure of it.
        show(
          failureOf(
            `The call of ${tool.name} did not go on.`,
            error,
            'Call it again when you are ready to open its link.'
          )
        );
      } else show(failureOf(`The call of ${tool.name} failed.`, error));
    } finally {
      callsOfForms.delete(callId);
      setBusy(false);
      setSentCall(undefined);
    }
  };

  // What Call tool led to shows under the form, often below the window's edge (the form of a tool
  // with many fields fills it): the page brings it into sight, the focus staying where it is.
  useEffect(() => {
    if (result !== null) bringIntoView(resultRef.current);
  }, [result]);

  // A long plain call's running line (time, progress, Cancel) is what shows of it until it ends:
  // into sight at once, and again when its progress bar first comes (the line grows under the
  // fold). Said once, as it starts: said later (after a delay that spared a quick call the
  // words), it came after what the call set going, the question it asks in the Inbox and even
  // the person's answer to it.
  useEffect(() => {
    if (sentCall === undefined || sentLine === undefined) return;
    bringIntoView(
      formRef.current
        ?.closest('li.tool')
        ?.querySelector<HTMLElement>(`.tool-running li[data-call-id="${CSS.escape(sentCall)}"]`)
    );
  }, [sentCall, sentLine]);
  const sentRunning = sentLine !== undefined;
  /** The call whose start was said: once each (its line may show again, after a reload of the lists). */
  const saidRunning = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (sentCall === undefined || !sentRunning || saidRunning.current === sentCall) return;
    saidRunning.current = sentCall;
    // A task's start is said as that ("… started as a task."), once the server answers with it.
    if (sentAsTask.current) return;
    announce(callRunningWords(tool.name, serverName));
  }, [sentCall, sentRunning, announce, tool.name, serverName]);

  // Escape in a field leaves it for the form (as Escape in an Inbox card's field goes back to the
  // card); Escape on the form then closes it as its Close form button does, and the focus goes
  // back to that button (as Escape closes a task's or a History entry's detail). Closing loses
  // nothing: the form is kept, hidden, with what was typed in it and what its last call showed.
  // Not a key a dialog or a control took for itself, nor one that ends an IME composition.
  const closeOnEscape = escapeLeavesFieldThenCloses(onClose);

  return (
    <form
      ref={formRef}
      className="answer-form tool-call-form"
      noValidate
      aria-label={`Call ${tool.name}`}
      aria-busy={busy}
      // Where Escape in a field puts the focus (see closeOnEscape).
      tabIndex={-1}
      onKeyDown={closeOnEscape}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {againNote ? <p className="banner banner-warning call-again-note">{againNote}</p> : null}
      <ArgumentFields form={form} />
      {tool.callMode === 'task-or-plain' ? (
        <FieldFrame name="asTask" label="Run as a task" checkbox className="checkbox-field">
          {(wiring) => (
            <input
              {...wiring}
              type="checkbox"
              name="asTask"
              checked={asTask}
              onChange={(event) => {
                setAsTask(event.target.checked);
                if (!event.target.checked) setTtlError(undefined);
              }}
            />
          )}
        </FieldFrame>
      ) : null}
      {mayRunAsTask && runsAsTask ? (
        <FieldFrame
          name="ttlMinutes"
          label="Keep the task for (minutes)"
          // The receiver decides the ttl (MCP tasks): this is what is asked for, not what is granted.
          hint={`How long to ask the server to keep the task and its result; the server may keep it for less. Empty: ask for Taskdesk’s default, ${DEFAULT_TASK_TTL_MS / 60_000}\u00a0minutes.`}
          error={ttlError}
          className="field-narrow"
        >
          {(wiring) => (
            <input
              {...wiring}
              ref={ttlRef}
              name="ttlMinutes"
              type="number"
              min="1"
              step="1"
              autoComplete="off"
              placeholder={String(DEFAULT_TASK_TTL_MS / 60_000)}
              value={ttl}
              onChange={(event) => {
                setTtl(event.target.value);
                // Once marked, checked again as it changes, as the argument fields are.
                if (ttlError !== undefined) setTtlError(ttlProblem(event.target));
              }}
            />
          )}
        </FieldFrame>
      ) : null}
      {unavailable ? (
        <p className="reason">This tool must run as a task, but the server does not accept task calls.</p>
      ) : null}
      <ActionError failure={failure} onDismiss={clear} />
      <div className="actions">
        <button type="submit" className="primary" disabled={unavailable} {...busyProps(busy)}>
          Call tool
        </button>
      </div>
      {/* Not a live region: what shows here is announced once, in a sentence (a region would read
          the whole result again, and the whole line again at each change of a task's status). */}
      <div className="call-result" ref={resultRef}>
        {result}
      </div>
    </form>
  );
}
