import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { InboxItem } from '../../app/contract/host-api.js';
import { ActionError } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { FieldFrame } from '../forms/field-frame.js';
import { useHostDraft, useStartDraft } from './kept-draft.js';
import { restoredReply, type ReplyDraft } from './restored-draft.js';
import type { Answering } from './use-answer.js';
import { replySentText, requestRejectedText } from './answer-sent-words.js';

/** A reply being written, held by the card so that it outlives the form (closed and opened again). */
export interface ReplyWriting {
  /**
   * What the card started from, if anything: the reply last written in another card of the item,
   * or the one kept before Taskdesk restarted (a task's request).
   */
  restored: ReplyDraft | null;
  reply: string;
  setReply: (reply: string) => void;
  model: string;
  setModel: (model: string) => void;
}

/** The reply a person writes to a sampling request, kept with the host as they type (a task's). */
export function useReplyWriting(item: InboxItem): ReplyWriting {
  const kept = useStartDraft(item);
  const [restored] = useState(() => restoredReply(kept) ?? null);
  const [reply, setReply] = useState(restored?.reply ?? '');
  const [model, setModel] = useState(restored?.model ?? 'human');
  useHostDraft(item, kept, reply.trim() === '' && model === 'human' ? null : { reply, model }, restored);
  return { restored, reply, setReply, model, setModel };
}

/**
 * The form a person writes a sampling request's reply in: the reply, the model name it goes back
 * under ("human" unless changed), Send reply and Reject. The same on the card of a request no model
 * can run and on an approval card, where the person writes it instead of running a model.
 * `children`: further buttons; `focus`: the reply takes the focus as the form mounts (only when the
 * person opened it: not a form open from the start, whose focus would take the page's keys).
 */
export function SamplingReplyForm({
  item,
  answering,
  writing,
  focus = false,
  children
}: {
  item: InboxItem;
  answering: Answering;
  writing: ReplyWriting;
  focus?: boolean;
  children?: ReactNode;
}) {
  const { reply, setReply, model, setModel } = writing;
  const [replyError, setReplyError] = useState<string | undefined>(undefined);
  const replyRef = useRef<HTMLTextAreaElement>(null);
  const focused = useRef(focus);
  useEffect(() => {
    if (focused.current) replyRef.current?.focus();
  }, []);

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
      action === 'reply' ? replySentText(item) : requestRejectedText(item)
    );
  };

  return (
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
      <FieldFrame
        name="model"
        label="Model name"
        className="field-narrow"
        hint={`The model name ${item.serverName} is told wrote this reply; “human” says a person wrote it.`}
      >
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
      <ActionError failure={answering.failure.failure} onDismiss={answering.failure.clear} />
      <div className="actions">
        <button type="submit" className="primary" {...busyProps(answering.busy)}>
          Send reply
        </button>
        {children}
        <button type="button" {...busyProps(answering.busy)} onClick={() => answer('reject')}>
          Reject
        </button>
      </div>
    </form>
  );
}
