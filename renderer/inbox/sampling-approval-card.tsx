import { useEffect, useId, useRef, useState } from 'react';
import type { InboxAnswerInput, InboxItem } from '../../app/contract/host-api.js';
import { ActionError } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { FieldFrame } from '../forms/field-frame.js';
import { useDeskState } from '../shell/desk-context.js';
import { answerDelivery } from './answer-delivery.js';
import { answerSentText, requestRejectedText } from './answer-sent-words.js';
import { ConversationView } from './conversation-view.js';
import { failedRunText } from './failed-run-words.js';
import { InboxCard } from './inbox-card.js';
import { modelRequestTitle } from './model-request-title.js';
import { modelNamesOf } from '../../app/contract/model-names.js';
import { inboxKindWords } from '../components/kind-words.js';
import { MessageContent } from './message-content.js';
import { modelChoiceText, unlistedModelText } from './model-choice-words.js';
import { reviewCutOffText } from '../components/cut-off-words.js';
import { ProviderFailing, ProviderLink } from './provider-failing.js';
import { RequestEditor } from './request-editor.js';
import { textSlots, useRequestEdits } from './request-edits.js';
import { useAnswer, type RunWords } from './use-answer.js';
import { useHostDraft, useKeptDraft, useStartDraft } from './kept-draft.js';
import {
  approvalDraftValues,
  restoredAnswer,
  restoredApproval,
  reviewDraftValues,
  type ApprovalEdits
} from './restored-draft.js';
import { SamplingReplyForm, type ReplyWriting } from './sampling-reply-form.js';

type Reviewable = InboxItem & { kind: 'sampling-approval' | 'sampling-review' };

/**
 * A sampling request waiting for approval before a model runs it (`sampling-approval`), or a
 * model's answer waiting for review before it goes back (`sampling-review`). Approve (the
 * request's texts, the provider and the model may be changed; a reviewed answer's text may be
 * edited) or reject. A request not run yet may instead be answered with a reply the person writes
 * ("Write the reply yourself…"), as when no provider is set up: the way to answer when the
 * provider cannot be reached.
 */
export function SamplingApprovalCard({ item }: { item: Reviewable }) {
  const review = item.kind === 'sampling-review';
  const draft = item.draft;
  /** The run the person approved, when it failed: the request is back before them. */
  const failed = review ? undefined : draft?.lastFailure;
  const answering = useAnswer(item);
  const providers = useDeskState((state) => state.providers);
  const server = useDeskState((state) => state.servers.find((candidate) => candidate.id === item.serverId));
  const resultContent = draft?.result?.content as { type?: unknown; text?: unknown } | undefined;
  const editable = review && resultContent?.type === 'text' && typeof resultContent.text === 'string';
  const originalAnswer = editable ? String(resultContent.text) : '';
  // What was changed before (in another card of the item, or before Taskdesk restarted), when it
  // still fits the item: the request's edits and a reply being written, or the answer's edits.
  const kept = useStartDraft(item);
  const [restored] = useState(() =>
    review
      ? { answer: restoredAnswer(kept, editable) ?? null, approval: null }
      : {
          answer: null,
          approval:
            restoredApproval(kept, {
              slots: textSlots(item.request).map((slot) => slot.key),
              providers: providers.map((provider) => provider.id)
            }) ?? null
        }
  );
  const startEdits = restored.approval?.edits ?? undefined;
  const edits = useRequestEdits(item.request, startEdits);
  const editorId = useId();
  // Open from the start when the request's texts were being changed.
  const [editing, setEditing] = useState(startEdits?.system !== undefined || startEdits?.texts !== undefined);
  const [model, setModel] = useState(startEdits?.model ?? draft?.model ?? '');
  const [providerId, setProviderId] = useState(startEdits?.providerId ?? draft?.providerId ?? '');
  const [answerText, setAnswerText] = useState(restored.answer ?? originalAnswer);
  const writing = useWriting(restored.approval?.reply ?? null);
  const changed: ApprovalEdits = {
    ...edits.changes,
    ...(model !== (draft?.model ?? '') && { model }),
    ...(providerId !== (draft?.providerId ?? '') && { providerId })
  };
  useHostDraft(
    item,
    kept,
    review
      ? reviewDraftValues(answerText, originalAnswer)
      : approvalDraftValues({
          edits: Object.keys(changed).length === 0 ? null : changed,
          reply:
            writing.reply.trim() === '' && writing.model === 'human'
              ? null
              : { reply: writing.reply, model: writing.model }
        }),
    restored.answer !== null || restored.approval !== null ? (kept ?? null) : null
  );
  // The reply form is open: the person writes the reply instead of running a model (open again
  // after a restart when they had begun one).
  const [replying, setReplying] = useState(() => !review && writing.restored !== null);
  /**
   * Set when the person opens the reply form: only then does the reply take the focus. A form
   * open from the start (a restored draft) leaves the focus where it is, or the page's first key
   * (`j` in the Inbox) would be typed into the reply.
   */
  const [openedReply, setOpenedReply] = useState(false);
  const writeButton = useRef<HTMLButtonElement>(null);
  /** Set when the person closes the reply form: the button that opened it takes the focus back. */
  const closedReply = useRef(false);
  useEffect(() => {
    if (replying || !closedReply.current) return;
    closedReply.current = false;
    writeButton.current?.focus();
  }, [replying]);
  // An answer the person edited, or a reply they wrote, is theirs: kept if the request is withdrawn meanwhile.
  useKeptDraft(item, review ? (answerText !== originalAnswer ? answerText : '') : writing.reply);
  const modelsId = useId();
  /** Why Approve was refused on the card: no model to run on the provider chosen. */
  const [modelError, setModelError] = useState<string | undefined>(undefined);
  const modelField = useRef<HTMLInputElement>(null);

  // The provider the request was drafted for was removed meanwhile (one that failed, replaced by
  // another): it must be chosen again, from those there are.
  const missing = !review && !!draft && providers.length > 0 && !providers.some((p) => p.id === draft.providerId);
  /** Why Approve was refused on the card: the provider chosen is gone. */
  const [providerError, setProviderError] = useState<string | undefined>(undefined);
  const providerField = useRef<HTMLSelectElement>(null);
  // The provider can be chosen only when there is another one to choose.
  const choosable =
    !review && !!draft && (missing || (providers.length > 1 && providers.some((p) => p.id === draft.providerId)));
  const chosen = providers.find((p) => p.id === providerId);
  const suggestions = chosen ? modelNamesOf(chosen) : [];
  // The run that failed made the provider failing (its health holds the same words): said once, in
  // the failed run's box, with the way to the provider's card.
  const failedThere =
    failed !== undefined &&
    chosen !== undefined &&
    failed.providerId === chosen.id &&
    chosen.health?.ok === false &&
    chosen.health.message === failed.message;

  const send = (answer: InboxAnswerInput, done: string | RunWords) => void answering.send(answer, done);

  const approve = () => {
    if (review) {
      const edited = editable && answerText !== originalAnswer;
      send(
        edited && draft?.result
          ? { action: 'approve', result: { ...draft.result, content: { type: 'text', text: answerText } } }
          : { action: 'approve' },
        answerSentText(item)
      );
      return;
    }
    if (missing && !providers.some((p) => p.id === providerId)) {
      setProviderError(`${draft?.providerName ?? 'That provider'} was removed: choose another.`);
      providerField.current?.focus();
      return;
    }
    setProviderError(undefined);
    const chosenModel = model.trim();
    const params = edits.edited();
    const otherProvider = providerId && providerId !== draft?.providerId;
    // Another provider with no model named would run the request's model there, which it likely
    // lacks: the run would fail and the server be told. Refused here, where it can be corrected.
    if (otherProvider && !chosenModel) {
      setModelError(
        suggestions.length === 0
          ? `${chosen?.name ?? 'This provider'} lists no model: type the name of one it runs, or choose another provider.`
          : 'Choose the model to run.'
      );
      modelField.current?.focus();
      return;
    }
    // A name the provider does not list (a typo) would run nothing: the run would fail, and the
    // person learn it from the provider's "does not know model" after the wait. One that lists
    // none is asked what it runs: what is typed is taken as it is.
    if (chosenModel && suggestions.length > 0 && !suggestions.includes(chosenModel)) {
      setModelError(unlistedModelText(chosen?.name ?? 'This provider', chosenModel, suggestions));
      modelField.current?.focus();
      return;
    }
    setModelError(undefined);
    const approved = `${failed ? 'Tried again' : 'Approved'}${params ? ' with your edits' : ''}; ${chosenModel || draft?.model || 'the model'}`;
    send(
      {
        action: 'approve',
        ...(params && { params }),
        ...(otherProvider && { providerId }),
        ...(chosenModel && (chosenModel !== draft?.model || otherProvider) && { model: chosenModel })
      },
      // Said until the run ends: then that the model answered (a failed run brings the request back,
      // said as it comes). A run answered before the reply came is said as it ended.
      {
        running: `${approved} is running.`,
        answered: `${approved} answered ${item.serverName}.`,
        reviewed: `${approved} answered: review its answer.`
      }
    );
  };

  return (
    <InboxCard item={item} kindLabel={inboxKindWords(item)} {...modelRequestTitle(item)}>
      {draft ? (
        <p className="meta model-choice">
          {/* Follows the picker below; a review (or a Desk that has no providers now) shows what ran. */}
          {review || providers.length === 0
            ? `${draft.providerName} · ${draft.model} — ${draft.reason}`
            : modelChoiceText(draft, { providerId, provider: chosen, model })}
        </p>
      ) : null}
      {/* Before approving: the provider it would run on fails now, and another may be chosen. */}
      {review || failedThere ? null : <ProviderFailing provider={chosen} />}
      {failed ? (
        <p className="banner banner-warning run-failed">
          {failedRunText(item, failed, answerDelivery(item, server), new Date())}
          {failedThere && chosen ? (
            <>
              {' '}
              <ProviderLink provider={chosen} />.
            </>
          ) : null}
        </p>
      ) : null}
      <ConversationView request={item.request} />
      {/* Before the approval form, hidden meanwhile (it keeps what was chosen there): the Inbox's
          keys take the first primary and Reject buttons of a card. */}
      {replying ? (
        <SamplingReplyForm item={item} answering={answering} writing={writing} focus={openedReply}>
          <button
            type="button"
            onClick={() => {
              closedReply.current = true;
              setReplying(false);
            }}
          >
            Run a model instead
          </button>
        </SamplingReplyForm>
      ) : null}
      <form
        className="answer-form"
        hidden={replying}
        noValidate
        aria-busy={answering.busy}
        onSubmit={(event) => {
          event.preventDefault();
          approve();
        }}
      >
        {review ? (
          editable ? (
            <FieldFrame name="review-answer" label={`Answer from ${draft?.model ?? 'the model'} (you may edit it)`}>
              {(wiring) => (
                <textarea
                  {...wiring}
                  rows={5}
                  value={answerText}
                  onChange={(event) => setAnswerText(event.target.value)}
                />
              )}
            </FieldFrame>
          ) : (
            <div className="field">
              <p>
                <strong>Answer from {draft?.model ?? 'the model'}:</strong>
              </p>
              <MessageContent content={draft?.result?.content} />
            </div>
          )
        ) : null}
        {/* Of the model's answer: once the person rewrote it, what is sent is theirs, cut off or not. */}
        {review && answerText === originalAnswer ? (
          <ReviewCutOff stopReason={draft?.result?.stopReason} maxTokens={item.request.maxTokens} />
        ) : null}
        {review ? null : (
          <>
            <RequestEditor id={editorId} open={editing} edits={edits} />
            <div className="field-row">
              {choosable ? (
                <FieldFrame name="approval-provider" label="Provider" className="field-narrow" error={providerError}>
                  {(wiring) => (
                    <select
                      {...wiring}
                      ref={providerField}
                      value={providerId}
                      onChange={(event) => {
                        setProviderId(event.target.value);
                        setProviderError(undefined);
                        const next = providers.find((p) => p.id === event.target.value);
                        // Another provider rarely has the same model: offer its default.
                        if (next) setModel(next.defaultModel ?? next.models[0]?.name ?? '');
                        setModelError(undefined);
                      }}
                    >
                      {missing && draft ? (
                        <option value={draft.providerId} disabled>
                          {`${draft.providerName} (removed)`}
                        </option>
                      ) : null}
                      {providers.map((p) => (
                        <option key={p.id} value={p.id}>
                          {p.name}
                        </option>
                      ))}
                    </select>
                  )}
                </FieldFrame>
              ) : null}
              <FieldFrame name="approval-model" label="Model" className="field-narrow" error={modelError}>
                {(wiring) => (
                  <>
                    <input
                      {...wiring}
                      ref={modelField}
                      type="text"
                      autoComplete="off"
                      spellCheck={false}
                      list={modelsId}
                      value={model}
                      onChange={(event) => {
                        setModel(event.target.value);
                        setModelError(undefined);
                      }}
                    />
                    <datalist id={modelsId}>
                      {suggestions.map((name) => (
                        <option key={name} value={name} />
                      ))}
                    </datalist>
                  </>
                )}
              </FieldFrame>
            </div>
          </>
        )}
        <ActionError failure={answering.failure.failure} onDismiss={answering.failure.clear} />
        <div className="actions">
          <button type="submit" className="primary" {...busyProps(answering.busy)}>
            {review ? 'Send answer' : failed ? 'Try again' : 'Approve'}
          </button>
          {review ? null : (
            <button
              type="button"
              aria-expanded={editing}
              aria-controls={editorId}
              onClick={() => setEditing((open) => !open)}
            >
              Edit request…
            </button>
          )}
          {review ? null : (
            <button
              type="button"
              ref={writeButton}
              onClick={() => {
                setOpenedReply(true);
                setReplying(true);
              }}
            >
              Write the reply yourself…
            </button>
          )}
          <button
            type="button"
            {...busyProps(answering.busy)}
            onClick={() => send({ action: 'reject' }, requestRejectedText(item))}
          >
            Reject
          </button>
        </div>
      </form>
    </InboxCard>
  );
}

/**
 * A reply being written on an approval card instead of running a model, started from `restored`.
 * The card keeps it with its other changes in one draft (`reply`, `model`, as the reply card's).
 */
function useWriting(restored: ReplyWriting['restored']): ReplyWriting {
  const [reply, setReply] = useState(restored?.reply ?? '');
  const [model, setModel] = useState(restored?.model ?? 'human');
  return { restored, reply, setReply, model, setModel };
}

/** A warning under an answer to review that was cut off (see {@link reviewCutOffText}). */
function ReviewCutOff({ stopReason, maxTokens }: { stopReason: unknown; maxTokens: unknown }) {
  const text = reviewCutOffText(stopReason, maxTokens);
  return text === undefined ? null : <p className="banner banner-warning review-cut-off">{text}</p>;
}
