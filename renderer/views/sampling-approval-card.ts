import type { InboxAnswerInput, InboxItem } from '../../app/contract/host-api.js';
import type { AppContext } from '../app-context.js';
import { h, uid } from '../dom.js';
import { toHostCallError } from '../host-client.js';
import type { OnAnswered } from './elicitation-card.js';
import { formErrorElement, inboxCard, setBusy, setFormError } from './inbox-card.js';
import { requestEditor } from './request-editor.js';
import { contentView, conversationView } from './sampling-card.js';

/**
 * A sampling request waiting for the user's approval before a model runs it
 * (`sampling-approval`), or a model's answer waiting for review before it goes back
 * (`sampling-review`). Approve (the request's system prompt and message texts, the provider and
 * the model may be changed; a reviewed answer's text may be edited) or reject.
 */
export function samplingApprovalCard(
  item: InboxItem & { kind: 'sampling-approval' | 'sampling-review' },
  context: AppContext,
  onAnswered: OnAnswered
): HTMLElement {
  const review = item.kind === 'sampling-review';
  const draft = item.draft;
  const formError = formErrorElement();
  const modelId = uid('approval-model');
  const model = h('input', {
    id: modelId,
    type: 'text',
    value: draft?.model ?? '',
    autocomplete: 'off',
    spellcheck: 'false'
  });
  const resultContent = (draft?.result?.content ?? undefined) as { type?: unknown; text?: unknown } | undefined;
  const editable = review && resultContent?.type === 'text' && typeof resultContent.text === 'string';
  const answerId = uid('review-answer');
  const answerText = h('textarea', { id: answerId, rows: 5, value: editable ? String(resultContent.text) : '' });
  const editor = review ? undefined : requestEditor(item.request);
  const providerId = uid('approval-provider');
  const provider = h(
    'select',
    { id: providerId },
    h('option', { value: draft?.providerId ?? '' }, draft?.providerName ?? 'The chosen provider')
  );
  const providerField = h(
    'div',
    { class: 'field field-narrow', hidden: true },
    h('label', { for: providerId }, 'Provider'),
    provider
  );
  const modelsId = uid('approval-models');
  const modelChoices = h('datalist', { id: modelsId });
  model.setAttribute('list', modelsId);
  if (!review && draft) void offerModels(context, draft.providerId, provider, providerField, modelChoices, model);

  const send = async (answer: InboxAnswerInput, done: string) => {
    setFormError(formError, undefined);
    setBusy(form, true);
    try {
      await context.client.call('inbox.answer', { id: item.id, answer });
      context.announce(done);
      onAnswered(item.id);
    } catch (error) {
      setFormError(formError, toHostCallError(error).message);
    } finally {
      setBusy(form, false);
    }
  };

  const approve = () => {
    if (review) {
      const edited = editable && answerText.value !== resultContent.text;
      return send(
        edited && draft?.result
          ? { action: 'approve', result: { ...draft.result, content: { type: 'text', text: answerText.value } } }
          : { action: 'approve' },
        `Answer sent to ${item.serverName}.`
      );
    }
    const chosen = model.value.trim();
    const params = editor?.edited();
    const chosenProvider = provider.value;
    return send(
      {
        action: 'approve',
        ...(params && { params }),
        ...(chosenProvider && chosenProvider !== draft?.providerId && { providerId: chosenProvider }),
        ...(chosen &&
          (chosen !== draft?.model || (chosenProvider && chosenProvider !== draft?.providerId)) && { model: chosen })
      },
      `Approved${params ? ' with your edits' : ''}; ${chosen || draft?.model || 'the model'} is running.`
    );
  };

  const form = h(
    'form',
    { class: 'answer-form', novalidate: true },
    review
      ? editable
        ? h(
            'div',
            { class: 'field' },
            h('label', { for: answerId }, `Answer from ${draft?.model ?? 'the model'} (you may edit it)`),
            answerText
          )
        : h(
            'div',
            { class: 'field' },
            h('p', null, h('strong', null, `Answer from ${draft?.model ?? 'the model'}:`)),
            contentView(draft?.result?.content)
          )
      : [
          editor!.panel,
          h(
            'div',
            { class: 'field-row' },
            providerField,
            h('div', { class: 'field field-narrow' }, h('label', { for: modelId }, 'Model'), model, modelChoices)
          )
        ],
    formError,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', class: 'primary' }, review ? 'Send answer' : 'Approve'),
      editor?.toggle,
      h(
        'button',
        { type: 'button', onclick: () => void send({ action: 'reject' }, `Request from ${item.serverName} rejected.`) },
        'Reject'
      )
    )
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void approve();
  });

  return inboxCard(
    item,
    review ? 'Review' : 'Approval',
    review ? `Review the answer for ${item.serverName}` : `${item.serverName} asks to run a model`,
    draft ? h('p', { class: 'meta' }, `${draft.providerName} · ${draft.model} — ${draft.reason}`) : null,
    conversationView(item.request),
    form
  );
}

/**
 * Fills the provider choice (shown only when there is more than one provider) and the model
 * suggestions of the chosen provider. A failure leaves the free-text model field as it is.
 */
async function offerModels(
  context: AppContext,
  draftProviderId: string,
  provider: HTMLSelectElement,
  providerField: HTMLElement,
  modelChoices: HTMLDataListElement,
  model: HTMLInputElement
): Promise<void> {
  let providers;
  try {
    providers = await context.client.call('providers.list', {});
  } catch {
    return;
  }
  const suggest = () => {
    const chosen = providers.find((p) => p.id === provider.value);
    const names = chosen
      ? [...new Set([...(chosen.defaultModel ? [chosen.defaultModel] : []), ...chosen.models.map((m) => m.name)])]
      : [];
    modelChoices.replaceChildren(...names.map((name) => h('option', { value: name })));
    return chosen;
  };
  if (providers.length > 1 && providers.some((p) => p.id === draftProviderId)) {
    provider.replaceChildren(
      ...providers.map((p) => h('option', { value: p.id, selected: p.id === draftProviderId }, p.name))
    );
    providerField.hidden = false;
    provider.addEventListener('change', () => {
      const chosen = suggest();
      // Another provider rarely has the same model: offer its default.
      if (chosen) model.value = chosen.defaultModel ?? chosen.models[0]?.name ?? '';
    });
  }
  suggest();
}
