import { useCallback, useContext, useRef, useState, useSyncExternalStore } from 'react';
import { DeskContext } from '../shell/desk-context.js';
import { CONNECTION_LOST, INVALID_PARAMS, STALE_TAB, UNREACHABLE, toHostCallError } from '../host-client.js';
import { sentence } from './format.js';

/**
 * An action that did not happen, in words: what failed, why, and what to do next. It is shown
 * where the person acted and stays until they dismiss it or try again.
 */
export interface Failure {
  /** What did not happen, as a sentence: "Could not remove Fake LLM." */
  what: string;
  /** Why, in the host's (or the form's) words. */
  why?: string;
  /** What to do about it. */
  next?: string;
  /**
   * What to do instead once the page is in contact with Taskdesk (again): a call whose connection
   * ended says to wait for Taskdesk while the page cannot reach it, and to check, once it can.
   */
  nextInContact?: string;
}

/** JSON-RPC code the core answers a peer that sends too much with (`JsonRpcCode.TooManyRequests`). */
const TOO_MANY_REQUESTS = -32029;
/**
 * JSON-RPC code of a request cancelled (`JsonRpcCode.RequestCancelled`): by the person, by
 * Taskdesk's closing, or by the server itself (it may answer −32800 of its own).
 */
export const REQUEST_CANCELLED = -32800;

/**
 * Whether a call failed because the person cancelled it: Taskdesk's own cancels say whose they
 * were in their data (`cancelledBy`, see `TaskdeskCancelled`); a server's −32800 does not.
 */
export function cancelledByPerson(error: unknown): boolean {
  const refused = toHostCallError(error);
  const data = refused.data as { cancelledBy?: unknown } | undefined;
  return refused.code === REQUEST_CANCELLED && data?.cancelledBy === 'you';
}

/**
 * JSON-RPC code of a request that can go on only once the person has opened a link (MCP
 * 2025-11-25, URL elicitation required): they declined or dismissed it.
 */
export const URL_ELICITATION_REQUIRED = -32042;

/** The next step a failure's code suggests, when the place it happened has none of its own. */
function nextStepFor(code: number, hasFields: boolean, cancelled: boolean): string | undefined {
  // Nothing went wrong that trying again would change.
  if (cancelled) return undefined;
  if (code === INVALID_PARAMS)
    return hasFields ? 'Correct the marked fields, then try again.' : 'Correct what the reason names, then try again.';
  if (code === TOO_MANY_REQUESTS) return 'Wait a moment, then try again.';
  if (code === URL_ELICITATION_REQUIRED) return 'Try again when you are ready to open the link it asks for.';
  return 'Try again. If it fails the same way, the reason above says what to change.';
}

/**
 * A failure from whatever a host call rejected with: `what` failed, the host's message says why,
 * and `next` (or a step its code suggests) says what to do.
 */
export function failureOf(what: string, error: unknown, next?: string): Failure {
  const refused = toHostCallError(error);
  // A stale tab's one way on, whatever the place would otherwise suggest (Retry, Try again); and an
  // unreachable Taskdesk's: it may be stopped, or running again at an address this tab never heard of.
  const step =
    refused.code === STALE_TAB
      ? 'If you typed anything here, copy it; then open the new address Taskdesk printed.'
      : refused.code === UNREACHABLE
        ? 'Check that Taskdesk is running, then try again. If it was started again, it may be at a new address: copy what you typed here, then open the address it printed.'
        : refused.code === CONNECTION_LOST
          ? 'Once Taskdesk runs again, check whether it was done before you try again: History lists the tool calls and answers it had under way when it stopped.'
          : (next ?? nextStepFor(refused.code, Object.keys(refused.fields).length > 0, cancelledByPerson(refused)));
  // Whether it happened is not known: the place's words ("… was not sent", "… failed") would say more than is known.
  const said = refused.code === CONNECTION_LOST ? 'Taskdesk did not answer.' : what;
  return {
    what: said,
    why: refused.message,
    ...(step !== undefined && { next: step }),
    ...(refused.code === CONNECTION_LOST && {
      nextInContact:
        'Taskdesk answers again: check whether it was done before you try again, on Tasks or in History (the tool calls and answers it had under way).'
    })
  };
}

/** "One field needs correcting." or "3 fields need correcting." */
export function correctingSummary(count: number, noun: 'field' | 'answer' = 'field'): string {
  return count === 1 ? `One ${noun} needs correcting.` : `${count} ${noun}s need correcting.`;
}

/** A form's fields that need correcting, as a failure: each field says what it needs. */
export function correctingFailure(count: number, noun: 'field' | 'answer' = 'field'): Failure {
  return { what: correctingSummary(count, noun), next: `Each marked ${noun} says what it needs.` };
}

/**
 * The words of an {@link ActionError}'s button that hides it, on every screen: not "Dismiss",
 * which an Inbox card's own button says (it answers the server, undone only for a few seconds),
 * so a message reads the same on the Tools screen and in the Inbox.
 */
export const HIDE_MESSAGE = 'Hide message';

/** A failure held for an {@link ActionError}: `fail` shows one, `clear` (a new attempt, Hide message) hides it. */
export interface FailureState {
  failure: Failure | undefined;
  fail: (what: string, error: unknown, next?: string) => void;
  show: (failure: Failure | undefined) => void;
  clear: () => void;
}

/** The failure of the actions of one place (a form, a card). */
export function useFailure(): FailureState {
  const [failure, show] = useState<Failure | undefined>(undefined);
  const fail = useCallback((what: string, error: unknown, next?: string) => show(failureOf(what, error, next)), []);
  const clear = useCallback(() => show(undefined), []);
  return { failure, fail, show, clear };
}

/**
 * The one way the Desk shows a failed action: a box by the action with what failed, why and what
 * to do, announced as an alert, with Hide message, which hands the focus to the next control of the
 * place (the action to try again), not to the page. A failed read that has no control of its own
 * to try again (a list or an entry that did not load) gets a Retry button here.
 */
export function ActionError({
  failure,
  onDismiss,
  onRetry,
  className
}: {
  failure: Failure | undefined;
  onDismiss?: () => void;
  /** Tries again what failed; the caller clears the failure as it does. */
  onRetry?: () => void;
  className?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const inContact = useInContact();
  const next = failure?.nextInContact !== undefined && inContact ? failure.nextInContact : failure?.next;
  const dismiss = () => {
    const here = box.current;
    const place = here?.closest('form, .card, fieldset, [role="group"], tr, section') ?? here?.parentElement;
    const controls = [
      ...(place?.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href]') ?? [])
    ].filter((element) => !here?.contains(element) && !element.closest('[hidden]') && element.tabIndex >= 0);
    const after = controls.find(
      (element) => here && here.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING
    );
    (after ?? controls.at(-1))?.focus();
    onDismiss?.();
  };
  // Retry goes with the message it stands in: the focus moves to the heading of the place (a
  // detail's title, the screen's), where the read's outcome shows, rather than to the page.
  const retry = () => {
    const place = box.current?.closest('section, .card');
    place?.querySelector<HTMLElement>('h2[tabindex="-1"], h3[tabindex="-1"]')?.focus();
    onRetry?.();
  };
  return (
    // Always in the page: an alert region that is there before its text is announced reliably.
    <div ref={box} className={className ? `action-error ${className}` : 'action-error'} role="alert" hidden={!failure}>
      {failure ? (
        <>
          <p className="action-error-what">
            <strong>{failure.what}</strong>
            {failure.why ? ` ${sentence(failure.why)}` : null}
          </p>
          {next ? <p className="action-error-next">{next}</p> : null}
          {onRetry ? (
            <button type="button" className="small action-error-retry" onClick={retry}>
              Retry
            </button>
          ) : null}
          {onDismiss ? (
            <button type="button" className="link-button action-error-dismiss" onClick={dismiss}>
              {HIDE_MESSAGE}
            </button>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

const noSubscription = () => () => undefined;

/**
 * Whether the page is in contact with Taskdesk (its event stream connected); false outside the
 * Desk (nothing tells there), so that a message says what holds while contact is not known.
 */
function useInContact(): boolean {
  const desk = useContext(DeskContext);
  return useSyncExternalStore(desk ? desk.store.subscribe : noSubscription, () =>
    desk ? !desk.store.getState().offline : false
  );
}
