import type { InboxItem } from '../../app/contract/host-api.js';
import { ActionError } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { useAnswer } from './use-answer.js';
import { answerSentText, requestRejectedText } from './answer-sent-words.js';

/**
 * The note of a task's question its server will not fetch an answer for (a stdio server started
 * again since it asked: see `startedAnew`), with the way to let it go: Dismiss for a question,
 * Reject for a model request, the answer a withdrawn item gets too.
 */
export function EarlierProcessNote({ item, note }: { item: InboxItem; note: string }) {
  const answering = useAnswer(item);
  const question = item.kind === 'elicitation';
  return (
    <div className="banner banner-warning earlier-process">
      <p className="kept-note">{note}</p>
      <ActionError failure={answering.failure.failure} onDismiss={answering.failure.clear} />
      <button
        type="button"
        {...busyProps(answering.busy)}
        onClick={() =>
          void answering.send(
            question ? { action: 'cancel' } : { action: 'reject' },
            question ? answerSentText(item) : requestRejectedText(item)
          )
        }
      >
        {question ? 'Dismiss this question' : 'Reject this request'}
      </button>
    </div>
  );
}
