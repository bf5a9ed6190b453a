import { useRef, useState } from 'react';
import type { SamplingPolicy } from '../../app/contract/host-api.js';
import { anyModel } from '../../app/contract/model-names.js';
import { useDeskState } from '../shell/desk-context.js';

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
 * How a server's sampling requests are treated: ask, auto or refuse, and whether answers are
 * reviewed before they go back. `policy` undefined shows the controls disabled while loading.
 */
export function SamplingPolicyField({
  serverId,
  serverName,
  policy,
  saved = false,
  onChange
}: {
  serverId: string;
  serverName: string;
  policy: SamplingPolicy | undefined;
  /** Shows "Saved." (the last change was saved). */
  saved?: boolean;
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
  const commit = () => {
    if (pending !== undefined && pending !== current.mode)
      onChange({ mode: pending, reviewCompletion: current.reviewCompletion });
    setPending(undefined);
  };
  const shown = pending ?? current.mode;
  // Once the providers are known: with none, no model can take a request the policy lets through.
  // No provider, or none that lists a model: either way no model runs a request.
  const noProvider = useDeskState((state) => state.ready && !anyModel(state.providers));
  const providerCount = useDeskState((state) => state.providers.length);
  return (
    <fieldset className="field policy" aria-busy={policy === undefined || undefined} data-policy-mode={policy?.mode}>
      <legend>
        Sampling requests<span className="sr-only"> from {serverName}</span>
      </legend>
      <div
        className="policy-options"
        onKeyDown={(event) => {
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
                  aria-describedby={`${id}-hint`}
                  onChange={() => {
                    if (arrowed.current) setPending(mode);
                    else {
                      setPending(undefined);
                      onChange({ mode, reviewCompletion: current.reviewCompletion });
                    }
                  }}
                />
                <label htmlFor={id}>{label}</label>
              </div>
              <p className="field-hint" id={`${id}-hint`}>
                {hint}
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
          onChange={(event) => onChange({ mode: current.mode, reviewCompletion: event.target.checked })}
        />
        <label htmlFor={`${group}-review`}>Review answers before they go back</label>
      </div>
      {pending !== undefined && pending !== current.mode ? (
        <p className="muted small-text policy-pending" aria-live="polite">
          Not saved yet: press Space to save this choice, or move on from the choices.
        </p>
      ) : saved ? (
        <p className="muted small-text policy-saved">Saved.</p>
      ) : null}
    </fieldset>
  );
}
