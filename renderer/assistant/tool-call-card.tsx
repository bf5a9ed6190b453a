import { useLayoutEffect, useRef, useState } from 'react';
import type { AssistantMessage, AssistantToolCall } from '../../app/contract/assistant.js';
import type { PlainCallView } from '../../app/contract/host-api.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { CallElapsed } from '../components/call-elapsed.js';
import { JsonView } from '../components/json-view.js';
import { MarkdownText } from '../components/markdown-text.js';
import { ProgressLine } from '../components/progress-line.js';
import { RawToggle } from '../components/raw-toggle.js';
import { statusLabel } from '../components/status-words.js';
import { ResultView } from '../history/result-view.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { CallSignInWait } from '../tools/sign-in-wait.js';
import { ApprovalCard } from './approval-card.js';
import { TaskCard } from './task-card.js';

type ResultMessage = Extract<AssistantMessage, { role: 'tool' | 'notice' }>;

const STATE_WORDS: Record<AssistantToolCall['state'], string> = {
  'pending-approval': 'Waiting for your approval',
  running: 'Running…',
  task: 'Running as a task',
  // The words of the Tools, Tasks and History screens for a call that has ended.
  completed: statusLabel('completed'),
  failed: statusLabel('failed'),
  denied: 'Not run',
  // The Desk's word for a call the person cancelled, by its card's Cancel or by Stop: the core
  // records both alike (state and words), so they cannot be told apart here.
  cancelled: statusLabel('cancelled')
};

/** A call stopped before it ran (Stop while it waited for approval): nothing was cancelled on a server. */
const STOPPED_BEFORE_RUN = 'Stopped';

/**
 * One tool call the model made: what it calls, with which arguments; the approval card while
 * it waits; the live task card while it runs as one; and its results, rendered, with the raw
 * JSON one click away.
 */
export function ToolCallCard({
  conversationId,
  call,
  results
}: {
  conversationId: string;
  call: AssistantToolCall;
  results: ResultMessage[];
}) {
  const name = call.toolName ?? call.functionName;
  // A call run as a task: its card's badge says how it stands ("Completed", "Lost", "Cancelling…"),
  // more exactly than the call's own word would beside it ("Failed", "Cancelled").
  const taskShown = call.outboundId !== undefined && (call.state === 'task' || results.length > 0);
  // The server as the rest of the Desk names it (its id only once it is gone).
  const serverName = useDeskState((state) => state.servers.find((server) => server.id === call.serverId)?.name);
  // The plain call in flight, as the Tools screen shows it (its elapsed time, progress and Cancel).
  const running = useDeskState((state) =>
    call.state === 'running' && call.callId !== undefined ? state.calls[call.callId] : undefined
  );
  const card = useRef<HTMLDivElement>(null);
  /** Whether the focus is on the running call's Cancel, which goes once the call has ended. */
  const cancelFocused = useRef(false);
  useLayoutEffect(() => {
    if (call.state === 'running' || !cancelFocused.current) return;
    cancelFocused.current = false;
    // Its Cancel is gone and the focus with it: the card keeps it rather than the page.
    const now = document.activeElement;
    if (now === null || now === document.body) card.current?.focus();
  }, [call.state]);
  return (
    <div
      ref={card}
      className={`chat-tool chat-tool-${call.state}`}
      data-tool-call-id={call.id}
      data-call-id={call.callId}
      data-state={call.state}
      // Named to assistive technology as it reads (the model's call, not words of the model's answer).
      role="group"
      aria-label={`Tool call ${name}${call.serverId ? ` on ${serverName ?? call.serverId}` : ''}`}
      // Focused once the person has decided on its approval card, or cancelled it (those buttons are gone).
      tabIndex={-1}
    >
      <p className="chat-tool-head">
        <code>{name}</code>
        {call.serverId ? <span className="muted small-text"> on {serverName ?? call.serverId}</span> : null}
        {taskShown ? null : running ? (
          <span className="chat-tool-state">
            Running for <CallElapsed startedAt={running.startedAt} />
          </span>
        ) : (
          <span className="chat-tool-state">
            {call.state === 'cancelled' && call.callId === undefined ? STOPPED_BEFORE_RUN : STATE_WORDS[call.state]}
          </span>
        )}
        {call.edited ? <span className="muted small-text"> · run with the arguments you changed</span> : null}
      </p>
      {call.state === 'pending-approval' ? (
        <ApprovalCard conversationId={conversationId} call={call} serverName={serverName} />
      ) : (
        <JsonView value={call.arguments ?? safeParse(call.rawArguments)} summary="Arguments" className="chat-args" />
      )}
      {running ? (
        <div
          className="chat-call-running"
          onFocus={() => (cancelFocused.current = true)}
          // Removed with the focus on it, Cancel has no element to hand it to (relatedTarget null).
          onBlur={(e) => {
            if (e.relatedTarget) cancelFocused.current = false;
          }}
        >
          <RunningCallActions call={running} name={name} />
        </div>
      ) : null}
      {taskShown && call.outboundId !== undefined ? (
        <TaskCard
          outboundId={call.outboundId}
          toolName={name}
          stopped={call.state === 'cancelled' && call.cancelFailed !== true}
        />
      ) : null}
      {results.map((message) => (
        <ResultBlock key={message.id} message={message} serverId={call.serverId || undefined} />
      ))}
    </div>
  );
}

/**
 * A running plain call's progress and its Cancel, which ends this call alone (`tools.cancelCall`):
 * the model reads that the person stopped it and goes on, as it does after a task's Cancel task.
 */
function RunningCallActions({ call, name }: { call: PlainCallView; name: string }) {
  const { client, announce } = useDesk();
  const { failure, fail, clear } = useFailure();
  const [cancelling, setCancelling] = useState(false);
  return (
    <>
      <CallSignInWait call={call} />
      {call.progress ? <ProgressLine progress={call.progress} label={`Progress of ${name}`} /> : null}
      <ActionError failure={failure} onDismiss={clear} />
      <button
        type="button"
        aria-label={`Cancel ${name}`}
        {...busyProps(cancelling)}
        onClick={() => {
          if (cancelling) return;
          setCancelling(true);
          clear();
          void client
            .call('tools.cancelCall', { callId: call.callId })
            .then(
              () => announce(`${name} cancelled.`),
              (error: unknown) => fail(`${name} was not cancelled.`, error)
            )
            .finally(() => setCancelling(false));
        }}
      >
        Cancel
      </button>
    </>
  );
}

/** A result of the call's; `serverId`, the server that ran the tool, lets its resource links be read. */
function ResultBlock({ message, serverId }: { message: ResultMessage; serverId: string | undefined }) {
  const [raw, setRaw] = useState(false);
  const label =
    message.role === 'tool' && message.interim
      ? 'Immediate response (the model went on with it)'
      : message.role === 'notice'
        ? 'Result of the task'
        : message.role === 'tool' && message.isError
          ? // A stopped call's words are read by the model at its next turn, not at once.
            'What the model reads'
          : 'Result';
  return (
    <div className="chat-result" data-result-role={message.role}>
      <p className="chat-result-head">
        <span className="small-text muted">{label}</span>
        {message.result ? <RawToggle raw={raw} onToggle={setRaw} /> : null}
      </p>
      {raw && message.result ? (
        <JsonView value={message.result} />
      ) : message.result ? (
        <>
          <ResultView result={message.result} serverId={serverId} />
          {message.result.structuredContent !== undefined ? (
            <JsonView value={message.result.structuredContent} summary="Structured content" />
          ) : null}
        </>
      ) : (
        <MarkdownText text={message.text} />
      )}
    </div>
  );
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
