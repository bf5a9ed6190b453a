import { useEffect, useRef, useState } from 'react';
import type { SamplingPolicy } from '../../app/contract/host-api.js';
import { anyModel } from '../../app/contract/model-names.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';

/**
 * A server's model requests waiting in the Inbox, in words ("2 model requests from Everything
 * wait in the Inbox"): what Refuse answers as refused the moment it is saved.
 */
export function waitingRequestsWords(count: number, serverName: string): string {
  return count === 1
    ? `1 model request from ${serverName} waits in the Inbox`
    : `${count} model requests from ${serverName} wait in the Inbox`;
}

/** What Refuse will do to the requests that wait, after {@link waitingRequestsWords}. */
export function refuseWillWords(count: number): string {
  return `Refuse turns ${count === 1 ? 'it' : 'them'} down now.`;
}

/**
 * What the confirmation of Refuse says of the requests that wait now: how many and what Refuse does
 * to them, or, when none waits any more (answered, or withdrawn, while it asked), that Refuse
 * turns down only those still to come.
 */
export function refuseAskWords(count: number, serverName: string): string {
  return count > 0
    ? `${waitingRequestsWords(count, serverName)}: ${refuseWillWords(count)}`
    : `No model request from ${serverName} waits in the Inbox any more: Refuse turns down only those that come from now on.`;
}

/** The agreeing button of the confirmation of Refuse, for the requests that wait now. */
export function refuseAskLabel(count: number): string {
  return count === 0 ? 'Refuse' : count === 1 ? 'Refuse it' : 'Refuse them';
}

/**
 * How many of a server's model requests wait in the Inbox (for approval, a reply or review): the
 * host answers them as refused when Refuse is saved (`sampling.setPolicy`).
 */
function useWaitingRequests(serverId: string): number {
  return useDeskState(
    (state) => state.inbox.filter((item) => item.serverId === serverId && item.kind !== 'elicitation').length
  );
}

// The confirmation's words, rendered by the dialog inside the Desk: they follow requests that come,
// or are answered, while it asks.
function RefuseAskBody({ serverId, serverName }: { serverId: string; serverName: string }) {
  return <p>{refuseAskWords(useWaitingRequests(serverId), serverName)}</p>;
}

function RefuseAskLabel({ serverId }: { serverId: string }) {
  return <>{refuseAskLabel(useWaitingRequests(serverId))}</>;
}

/** What Refuse did to the requests that waited, in words, after "Saved.". */
export function refusedRequestsWords(count: number, serverName: string): string {
  return count === 1
    ? `The model request from ${serverName} that waited in the Inbox was answered as refused.`
    : `The ${count} model requests from ${serverName} that waited in the Inbox were answered as refused.`;
}

/**
 * What the choices say of one the arrow keys checked and that is not saved yet: how to save it, and
 * that leaving the choices saves it as well.
 */
const NOT_SAVED_WORDS = 'Not saved yet: press Space to save this choice. Leaving the choices saves it too.';

/** The modes, the one that lets most through last. */
const MODES: Array<{ mode: SamplingPolicy['mode']; label: string; hint: string }> = [
  { mode: 'ask', label: 'Ask me first', hint: 'Each request waits in the inbox; you may edit it or pick the model.' },
  { mode: 'refuse', label: 'Refuse', hint: 'Every request is answered with an error; no model runs.' },
  {
    mode: 'auto',
    label: 'Run without asking',
    hint: 'Requests go at once to the model of your providers that best fits what the server asks for.'
  }
];

/**
 * A policy in the words its choices show on the card: the mode's label, then whether answers are
 * reviewed ("Run without asking, answers go back without review"); Refuse runs no model, and has
 * no answer to review.
 */
export function policyChoiceWords(policy: SamplingPolicy): string {
  const label = MODES.find((choice) => choice.mode === policy.mode)?.label ?? policy.mode;
  if (policy.mode === 'refuse') return label;
  return `${label}, ${policy.reviewCompletion ? 'review answers before they go back' : 'answers go back without review'}`;
}

/**
 * How a server's model requests (MCP sampling) are treated: ask, auto or refuse, and whether
 * answers are reviewed before they go back. `policy` undefined shows the controls disabled while
 * loading.
 * While the card's Disconnect or Remove is on its way (`closing`), they wait as the card's buttons
 * do (aria-disabled, the focus left where it is): a choice made then changes nothing.
 */
export function SamplingPolicyField({
  serverId,
  serverName,
  policy,
  saved = false,
  refused = 0,
  closing = false,
  onChange
}: {
  serverId: string;
  serverName: string;
  policy: SamplingPolicy | undefined;
  /** Shows "Saved." (the last change was saved). */
  saved?: boolean;
  /**
   * How many of its model requests waiting in the Inbox the last save answered as refused, as
   * the host counted them (`sampling.setPolicy`'s `refused`): said with "Saved.".
   */
  refused?: number;
  /** The server is on its way out (a Disconnect or Remove of its card): nothing is saved meanwhile. */
  closing?: boolean;
  onChange: (policy: SamplingPolicy) => void;
}) {
  const group = `policy-${serverId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const current = policy ?? { mode: 'ask', reviewCompletion: true };
  // The arrow keys check every option they pass (and wrap around), so a choice made by them is
  // saved only when the person settles on it (Space or Enter, or leaving the choices): passing
  // "Run without asking" on the way to another mode must not let a request run meanwhile. A
  // click is saved at once.
  const [pending, setPending] = useState<SamplingPolicy['mode'] | undefined>(undefined);
  const arrowed = useRef(false);
  const options = useRef<HTMLDivElement>(null);
  const { confirm, announce } = useDesk();
  // Its model requests waiting in the Inbox: Refuse answers them as refused, so the person is told first.
  const waiting = useWaitingRequests(serverId);
  /** A confirmation of Refuse is open: the choice is held until it is answered. */
  const [asking, setAsking] = useState(false);
  // The same, read by handlers that run before a render (the blur as the dialog takes the focus).
  const askingNow = useRef(false);
  /**
   * Saves `mode`, asking first when Refuse would answer model requests that wait in the Inbox
   * (a person may be writing a reply to one). Not agreed, the choice goes back to what is saved.
   */
  const choose = async (mode: SamplingPolicy['mode']) => {
    if (askingNow.current || closing) return;
    const count = mode === 'refuse' && current.mode !== 'refuse' ? waiting : 0;
    if (count > 0) {
      setPending(mode);
      askingNow.current = true;
      setAsking(true);
      const agreed = await confirm({
        title: `Refuse model requests from ${serverName}?`,
        body: <RefuseAskBody serverId={serverId} serverName={serverName} />,
        confirmLabel: <RefuseAskLabel serverId={serverId} />,
        danger: true
      });
      askingNow.current = false;
      setAsking(false);
      setPending(undefined);
      // The dialog gives the focus back to what had it when it opened: the page itself when leaving
      // the choices opened it. It goes to the choice as it stands now, saved or kept.
      options.current?.querySelector<HTMLInputElement>(`input[value="${agreed ? mode : current.mode}"]`)?.focus();
      if (!agreed) return;
    } else setPending(undefined);
    onChange({ mode, reviewCompletion: current.reviewCompletion });
  };
  const commit = () => {
    if (askingNow.current) return;
    // A choice left pending when the card began closing is dropped, not saved.
    if (closing) return setPending(undefined);
    if (pending !== undefined && pending !== current.mode) void choose(pending);
    else setPending(undefined);
  };
  // What the host refused, not what waited when the person was asked: one may have come, or been
  // answered, since.
  const refusedNow = saved && current.mode === 'refuse' && refused > 0;
  useEffect(() => {
    if (refusedNow) announce(refusedRequestsWords(refused, serverName));
  }, [refusedNow, refused, serverName, announce]);
  const shown = pending ?? current.mode;
  // A choice the arrow keys checked, not saved yet (nor asked about).
  const unsaved = pending !== undefined && pending !== current.mode && !asking;
  // Once the providers are known: with none, no model can take a request the policy lets through.
  // No provider, or none that lists a model: either way no model runs a request.
  const noProvider = useDeskState((state) => state.ready && !anyModel(state.providers));
  const providerCount = useDeskState((state) => state.providers.length);
  return (
    <fieldset
      className="field policy"
      aria-busy={policy === undefined || closing || undefined}
      data-policy-mode={policy?.mode}
    >
      <legend>
        Model requests<span className="sr-only"> from {serverName}</span>
      </legend>
      <div
        className="policy-options"
        ref={options}
        onKeyDown={(event) => {
          // While the card closes, an arrow key neither checks another choice nor moves to it.
          if (closing && /^Arrow/.test(event.key)) return event.preventDefault();
          arrowed.current = /^Arrow/.test(event.key);
          if ((event.key === ' ' || event.key === 'Enter') && pending !== undefined) {
            event.preventDefault();
            commit();
          }
        }}
        onBlur={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget)) commit();
        }}
      >
        {MODES.map(({ mode, label, hint }) => {
          const id = `${group}-${mode}`;
          return (
            <div className="policy-option" key={mode}>
              <div className="checkbox-row">
                <input
                  id={id}
                  type="radio"
                  name={group}
                  value={mode}
                  checked={shown === mode}
                  disabled={policy === undefined}
                  aria-disabled={closing || undefined}
                  aria-describedby={`${id}-hint`}
                  onChange={() => {
                    if (askingNow.current || closing) return;
                    if (arrowed.current) setPending(mode);
                    else void choose(mode);
                  }}
                />
                <label htmlFor={id}>{label}</label>
              </div>
              <p className="field-hint" id={`${id}-hint`}>
                {hint}
                {mode === 'refuse' && current.mode !== 'refuse' && waiting > 0 ? (
                  <span className="policy-refuse-waiting">
                    {' '}
                    {`${waitingRequestsWords(waiting, serverName)}: ${refuseWillWords(waiting)}`}
                  </span>
                ) : null}
              </p>
            </div>
          );
        })}
      </div>
      {noProvider && shown !== 'refuse' ? (
        <p className="banner banner-warning policy-no-provider">
          {/* Not named as the screen is: the navigation's links keep names no other link shares. */}
          {providerCount === 0 ? 'No LLM provider is set up' : 'None of your LLM providers lists a model'}: model
          requests come to the Inbox for you to answer until you{' '}
          <a href="#providers">{providerCount === 0 ? 'add a provider' : 'add a model to one'}</a>.
        </p>
      ) : null}
      <div className="checkbox-row">
        <input
          id={`${group}-review`}
          type="checkbox"
          checked={current.reviewCompletion}
          disabled={policy === undefined || current.mode === 'refuse'}
          aria-disabled={closing || undefined}
          onChange={(event) => {
            if (!closing) onChange({ mode: current.mode, reviewCompletion: event.target.checked });
          }}
        />
        <label htmlFor={`${group}-review`}>Review answers before they go back</label>
      </div>
      {/* Always there, its words set and cleared: a screen reader says what changes in a live region,
          not the words of one that comes with them. */}
      <p className="muted small-text policy-pending" aria-live="polite">
        {unsaved ? NOT_SAVED_WORDS : null}
      </p>
      {unsaved ? null : refusedNow ? (
        <p className="muted small-text policy-saved">Saved. {refusedRequestsWords(refused, serverName)}</p>
      ) : saved ? (
        <p className="muted small-text policy-saved">Saved.</p>
      ) : null}
    </fieldset>
  );
}
