import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { PlainCallView } from '../../app/contract/host-api.js';
import { CallElapsed } from '../components/call-elapsed.js';
import { ProgressLine } from '../components/progress-line.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { waitingHref, waitingLead } from './waiting-words.js';
import { CallSignInWait } from './sign-in-wait.js';
import { callsOfForms } from './form-calls.js';
import { callWords } from './last-call-status.js';
import { argumentsDescription, CallArguments } from './call-arguments.js';
import { cancelCallLabel } from './call-labels.js';

/** One running plain call: elapsed time, progress, Cancel. */
export function RunningCall({ call, inList }: { call: PlainCallView; inList: boolean }) {
  const { client, announce } = useDesk();
  const { failure, fail, clear } = useFailure();
  const [cancelling, setCancelling] = useState(false);
  const progress = call.progress;
  const inbox = useDeskState((state) => state.inbox);
  const calls = useDeskState((state) => state.calls);
  // The server's other calls: what it asked after a later one started is counted with that one.
  const others = useMemo(() => Object.values(calls), [calls]);
  const waiting = call.waitingOnPerson ? waitingLead(call, inbox, others) : undefined;
  // A call shows twice (under its tool and in Running calls): an id for each place (encoded: an
  // id list is split at spaces).
  const argumentsId = `running-call-${encodeURIComponent(call.callId)}-${inList ? 'listed' : 'under-tool'}-arguments`;
  return (
    <li className="card running-call" data-call-id={call.callId}>
      <p className="running-call-line">
        <code>{call.toolName}</code> <span className="muted">on {call.serverName}</span> · running for{' '}
        <CallElapsed startedAt={call.startedAt} />
        {/* Of the server since this call started (and before its next call did), not surely of this
            call: a stdio question does not say which call it belongs to. What the server asked
            before the call is not said here. */}
        {waiting !== undefined ? (
          <>
            {` · ${waiting} `}
            {/* To the first card of this call's (its oldest), else to the Inbox itself. */}
            <a href={waitingHref(call, inbox, others)}>in the Inbox</a>
          </>
        ) : null}
      </p>
      {/* Its arguments in a line, as a task's card says them: calls of one tool read alike otherwise. */}
      <CallArguments preview={call.argumentsPreview} id={argumentsId} />
      <CallSignInWait call={call} />
      {progress ? <ProgressLine progress={progress} label={`Progress of ${call.toolName}`} /> : null}
      <ActionError failure={failure} onDismiss={clear} />
      <button
        type="button"
        aria-label={cancelCallLabel(call, inList)}
        {...argumentsDescription(call.argumentsPreview, argumentsId)}
        {...busyProps(cancelling)}
        onClick={() => {
          if (cancelling) return;
          cancelledHere.add(call.callId);
          // Read now: the form's call may end (and leave the set) before the cancel's answer.
          const formSays = callsOfForms.has(call.callId);
          setCancelling(true);
          clear();
          void client
            .call('tools.cancelCall', { callId: call.callId })
            .then(
              // Its form, if this page started it from one, says so itself; named with its
              // server, as the form's words are: two servers may have a tool of one name.
              () => {
                if (!formSays) announce(`${callWords(call.toolName, call.serverName)} cancelled.`);
              },
              (error: unknown) => {
                cancelledHere.delete(call.callId);
                fail(`${call.toolName} was not cancelled.`, error);
              }
            )
            .finally(() => setCancelling(false));
        }}
      >
        Cancel
      </button>
    </li>
  );
}

/** Calls whose Cancel was pressed on this page (see {@link useFocusAfterEnd}). */
const cancelledHere = new Set<string>();

/**
 * A call that ends takes its card and Cancel with it: when the person had pressed that Cancel and
 * the focus fell to the page, the focus goes to its tool's Call button. Only then: a call that
 * ends on its own moves no focus (nor scrolls the page to its tool).
 */
function useFocusAfterEnd(list: readonly PlainCallView[]): void {
  const before = useRef(list);
  useLayoutEffect(() => {
    const ended = before.current.filter((call) => !list.some((now) => now.callId === call.callId));
    before.current = list;
    const call = ended.findLast((gone) => cancelledHere.has(gone.callId));
    for (const gone of ended) cancelledHere.delete(gone.callId);
    if (!call || (document.activeElement !== null && document.activeElement !== document.body)) return;
    document
      .querySelector<HTMLElement>(
        `li.tool[data-tool-server="${CSS.escape(call.serverId)}"][data-tool="${CSS.escape(call.toolName)}"] .tool-call-form button[type="submit"]`
      )
      ?.focus();
  }, [list]);
}

/** Plain (not task) tool calls running now: how long, how far, and a Cancel. */
export function RunningCalls() {
  const calls = useDeskState((state) => state.calls);
  const list = useMemo(() => Object.values(calls).sort((a, b) => a.startedAt.localeCompare(b.startedAt)), [calls]);
  useFocusAfterEnd(list);
  if (list.length === 0) return null;
  return (
    <section className="running-calls" aria-labelledby="heading-running-calls">
      {/* Focusable for the Tasks screen's link to it (`#tools/running`), not a stop of Tab. */}
      <h3 id="heading-running-calls" tabIndex={-1}>
        Running calls
      </h3>
      <ul className="cards">
        {list.map((call) => (
          <RunningCall key={call.callId} call={call} inList />
        ))}
      </ul>
    </section>
  );
}

/**
 * The running calls of one tool, shown on its card under its form, where the person clicked:
 * the Running calls list at the bottom of the screen can be a long scroll away.
 */
export function ToolRunningCalls({ serverId, toolName }: { serverId: string; toolName: string }) {
  const calls = useDeskState((state) => state.calls);
  const list = useMemo(
    () =>
      Object.values(calls)
        .filter((call) => call.serverId === serverId && call.toolName === toolName)
        .sort((a, b) => a.startedAt.localeCompare(b.startedAt)),
    [calls, serverId, toolName]
  );
  useFocusAfterEnd(list);
  if (list.length === 0) return null;
  return (
    <ul className="cards tool-running" aria-label={`Running calls of ${toolName}`}>
      {list.map((call) => (
        <RunningCall key={call.callId} call={call} inList={false} />
      ))}
    </ul>
  );
}
