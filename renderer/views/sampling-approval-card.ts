import type { InboxAnswerInput, InboxItem } from '../../app/contract/host-api.js';
import type { AppContext } from '../app-context.js';
import { h, uid } from '../dom.js';
import { toHostCallError } from '../host-client.js';
import type { OnAnswered } from './elicitation-card.js';
import { formErrorElement, inboxCard, setBusy, setFormError } from './inbox-card.js';
import { contentView, conversationView } from './sampling-card.js';

/**
 * A sampling request waiting for the user's approval before a model runs it
 * (`sampling-approval`), or a model's answer waiting for review before it goes back
 * (`sampling-review`). Approve (the model may be changed, the answer's text edited) or reject.
 */
export function samplingApprovalCard(item: InboxItem & { kind: 'sampling-approval' | 'sampling-review' }, context: AppContext, onAnswered: OnAnswered): HTMLElement {
  const review = item.kind === 'sampling-review';
  const draft = item.draft;
  const formError = formErrorElement();
  const modelId = uid('approval-model');
  const model = h('input', { id: modelId, type: 'text', value: draft?.model ?? '', autocomplete: 'off', spellcheck: 'false' });
  const resultContent = (draft?.result?.content ?? undefined) as { type?: unknown; text?: unknown } | undefined;
  const editable = review && resultContent?.type === 'text' && typeof resultContent.text === 'string';
  const answerId = uid('review-answer');
  const answerText = h('textarea', { id: answerId, rows: 5, value: editable ? String(resultContent.text) : '' });

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
        edited && draft?.result ? { action: 'approve', result: { ...draft.result, content: { type: 'text', text: answerText.value } } } : { action: 'approve' },
        `Answer sent to ${item.serverName}.`
      );
    }
    const chosen = model.value.trim();
    return send(chosen && chosen !== draft?.model ? { action: 'approve', model: chosen } : { action: 'approve' }, `Approved; ${chosen || draft?.model || 'the model'} is running.`);
  };

  const form = h(
    'form',
    { class: 'answer-form', novalidate: true },
    review
      ? editable
        ? h('div', { class: 'field' }, h('label', { for: answerId }, `Answer from ${draft?.model ?? 'the model'} (you may edit it)`), answerText)
        : h('div', { class: 'field' }, h('p', null, h('strong', null, `Answer from ${draft?.model ?? 'the model'}:`)), contentView(draft?.result?.content))
      : h('div', { class: 'field field-narrow' }, h('label', { for: modelId }, 'Model'), model),
    formError,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', class: 'primary' }, review ? 'Send answer' : 'Approve'),
      h('button', { type: 'button', onclick: () => void send({ action: 'reject' }, `Request from ${item.serverName} rejected.`) }, 'Reject')
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
