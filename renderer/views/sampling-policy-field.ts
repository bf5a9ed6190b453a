import type { SamplingPolicy } from '../../app/contract/host-api.js';
import { h } from '../dom.js';

const MODES: Array<{ mode: SamplingPolicy['mode']; label: string; hint: string }> = [
  { mode: 'ask', label: 'Ask me first', hint: 'Each request waits in the inbox; you may edit it or pick the model.' },
  { mode: 'auto', label: 'Run without asking', hint: 'Requests go to the chosen model at once.' },
  { mode: 'refuse', label: 'Refuse', hint: 'Every request is answered with an error; no model runs.' }
];

/**
 * How a server's sampling requests are treated: ask, auto or refuse, and whether answers are
 * reviewed before they go back. `policy` undefined shows the controls disabled while loading.
 *
 * Controls carry `data-action` so a re-render of the server list keeps focus on them.
 */
export function samplingPolicyField(
  serverId: string,
  serverName: string,
  policy: SamplingPolicy | undefined,
  onChange: (policy: SamplingPolicy) => void
): HTMLElement {
  const group = `policy-${serverId}`;
  const current = policy ?? { mode: 'ask', reviewCompletion: true };
  const radios = MODES.map(({ mode, label, hint }) => {
    const id = `${group}-${mode}`;
    const radio = h('input', {
      id,
      type: 'radio',
      name: group,
      value: mode,
      checked: current.mode === mode,
      disabled: policy === undefined,
      'data-action': `policy-${mode}`,
      'aria-describedby': `${id}-hint`,
      onchange: () => onChange({ mode, reviewCompletion: review.checked })
    });
    return h(
      'div',
      { class: 'policy-option' },
      h('div', { class: 'checkbox-row' }, radio, h('label', { for: id }, label)),
      h('p', { class: 'field-hint', id: `${id}-hint` }, hint)
    );
  });
  const reviewId = `${group}-review`;
  const review = h('input', {
    id: reviewId,
    type: 'checkbox',
    checked: current.reviewCompletion,
    disabled: policy === undefined || current.mode === 'refuse',
    'data-action': 'policy-review',
    onchange: () => onChange({ mode: current.mode, reviewCompletion: review.checked })
  });
  return h(
    'fieldset',
    { class: 'field policy', 'aria-busy': policy === undefined ? 'true' : undefined, 'data-policy-mode': policy?.mode },
    h('legend', null, 'Sampling requests', h('span', { class: 'sr-only' }, ` from ${serverName}`)),
    h('div', { class: 'policy-options' }, radios),
    h('div', { class: 'checkbox-row' }, review, h('label', { for: reviewId }, 'Review answers before they go back'))
  );
}
