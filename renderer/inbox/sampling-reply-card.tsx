import { useRef, useState } from 'react';
import type { InboxItem } from '../../app/contract/host-api.js';
import { ActionError, HIDE_MESSAGE } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { FieldFrame } from '../forms/field-frame.js';
import { ConversationView } from './conversation-view.js';
import { InboxCard } from './inbox-card.js';
import { inboxKindWords } from '../components/kind-words.js';
import { useAnswer } from './use-answer.js';
import { useHostDraft, useKeptDraft } from './kept-draft.js';
import { restoredReply } from './restored-draft.js';

/**
 * A sampling request with no model configured: a person writes the reply, or rejects it. When the
 * server's policy would have run it ("Run without asking"), the card says why a person is asked.
 */
export function SamplingReplyCard({ item }: { item: InboxItem }) {
  const answering = useAnswer(item);
  // What was being written before Taskdesk restarted (a task's request), if anything.
  const [restored] = useState(() => restoredReply(item.keptDraft) ?? null);
  const [reply, setReply] = useState(restored?.reply ?? '');
  const [model, setModel] = useState(restored?.model ?? 'human');
  const [replyError, setReplyError] = useState<string | undefined>(undefined);
  const replyRef = useRef<HTMLTextAreaElement>(null);
  useKeptDraft(item, reply);
  useHostDraft(item, reply.trim() === '' && model === 'human' ? null : { reply, model }, restored);

  const answer = (action: 'reply' | 'reject') => {
    if (answering.busy) return;
    answering.failure.clear();
    if (action === 'reply' && !reply.trim()) {
      setReplyError('Write a reply, or reject the request.');
      replyRef.current?.focus();
      return;
    }
    setReplyError(undefined);
    void answering.send(
      action === 'reply' ? { action: 'reply', text: reply, model: model.trim() || 'human' } : { action: 'reject' },
      action === 'reply' ? `Reply sent to ${item.serverName}.` : `Request from ${item.serverName} rejected.`
    );
  };

  return (
    <InboxCard item={item} kindLabel={inboxKindWords(item)} title={`${item.serverName} asks for a model reply`}>
      {item.fallback === 'no-provider' ? (
        // The policy would have run it on a model: say why it waits for a person instead.
        <p className="banner banner-warning sampling-fallback">
          {item.serverName} is set to run model requests without asking, but no LLM provider is set up: write the reply
          yourself, or <a href="#providers">add a provider</a> for the next ones.
        </p>
      ) : item.fallback === 'no-model' ? (
        <p className="banner banner-warning sampling-fallback">
          No LLM provider lists a model to run this on (its list could not be read when it was saved): write the reply
          yourself, or <a href="#providers">add a model to a provider</a> for the next ones.
        </p>
      ) : null}
      <ConversationView request={item.request} />
      <form
        className="answer-form"
        noValidate
        aria-busy={answering.busy}
        onSubmit={(event) => {
          event.preventDefault();
          answer('reply');
        }}
      >
        <FieldFrame name="reply" label="Your reply" required error={replyError}>
          {(wiring) => (
            <textarea
              {...wiring}
              ref={replyRef}
              name="reply"
              rows={4}
              required
              aria-required="true"
              value={reply}
              onChange={(event) => setReply(event.target.value)}
            />
          )}
        </FieldFrame>
        <FieldFrame name="model" label="Model name" className="field-narrow">
          {(wiring) => (
            <input
              {...wiring}
              name="model"
              type="text"
              autoComplete="off"
              value={model}
              onChange={(event) => setModel(event.target.value)}
            />
          )}
        </FieldFrame>
        <ActionError
          failure={answering.failure.failure}
          onDismiss={answering.failure.clear}
          dismissLabel={HIDE_MESSAGE}
        />
        <div className="actions">
          <button type="submit" className="primary" {...busyProps(answering.busy)}>
            Send reply
          </button>
          <button type="button" {...busyProps(answering.busy)} onClick={() => answer('reject')}>
            Reject
          </button>
        </div>
      </form>
    </InboxCard>
  );
}
