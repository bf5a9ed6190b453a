import type { InboxItem } from '../../app/contract/host-api.js';
import { formatWhen, sentence, truncate } from '../components/format.js';
import type { AnswerDelivery } from './answer-delivery.js';

type RunFailure = NonNullable<NonNullable<InboxItem['draft']>['lastFailure']>;

/**
 * What a model request's card says when the run the person approved failed (or they stopped it):
 * what happened, and what may be done now. "…waits meanwhile" only when the server does: a
 * request of an earlier connection, or of a stdio server's process that has stopped (see
 * {@link answerDelivery}), is waited on by no one now, as the card's kept note says.
 */
export function failedRunText(item: InboxItem, failed: RunFailure, delivery: AnswerDelivery, now: Date): string {
  // Stopped by the person: no failure of the provider's to quote, and the server got none of the text.
  const what = failed.stopped
    ? `You stopped ${failed.model} (${failed.providerName}) ${formatWhen(new Date(failed.at), now)}, before it finished; what it had written was not sent.`
    : `The run you approved on ${failed.model} (${failed.providerName}) failed ${formatWhen(new Date(failed.at), now)}: ${sentence(truncate(failed.message, 300))}`;
  const choices = 'Try it again, on another model or with the request changed, write the reply yourself, or reject it';
  const waits =
    delivery.kind === 'kept' && (delivery.why === 'earlier-connection' || delivery.processStopped)
      ? '.'
      : `; ${item.serverName} waits meanwhile.`;
  return `${what} ${choices}${waits}`;
}
