import type { SamplingPolicy } from '../../app/contract/host-api.js';

/**
 * The modes, the one that lets most through last: a choice is saved as it is made, and the arrow
 * keys make every option they pass the choice, so going from "Ask me first" to "Refuse" by
 * keyboard must not pass "Run without asking" (a request arriving then would have run).
 */
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
  return (
    <fieldset className="field policy" aria-busy={policy === undefined || undefined} data-policy-mode={policy?.mode}>
      <legend>
        Sampling requests<span className="sr-only"> from {serverName}</span>
      </legend>
      <div className="policy-options">
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
                  checked={current.mode === mode}
                  disabled={policy === undefined}
                  aria-describedby={`${id}-hint`}
                  onChange={() => onChange({ mode, reviewCompletion: current.reviewCompletion })}
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
      {saved ? <p className="muted small-text policy-saved">Saved.</p> : null}
    </fieldset>
  );
}
