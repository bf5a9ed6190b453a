import type { InboxItem } from '../../app/contract/host-api.js';
import { ConversationView } from './conversation-view.js';
import { InboxCard } from './inbox-card.js';
import { modelRequestTitle } from './model-request-title.js';
import { inboxKindWords } from '../components/kind-words.js';
import { useAnswer } from './use-answer.js';
import { useKeptDraft } from './kept-draft.js';
import { SamplingReplyForm, useReplyWriting } from './sampling-reply-form.js';

/**
 * A sampling request with no model configured: a person writes the reply, or rejects it. When the
 * server's policy would have run it ("Run without asking"), the card says why a person is asked.
 * Once a provider lists a model, the request goes to it as a new one would (the host hands it over):
 * under "Ask me first" this card gives way to the approval card, under the same id.
 */
export function SamplingReplyCard({ item }: { item: InboxItem }) {
  const answering = useAnswer(item);
  const writing = useReplyWriting(item);
  useKeptDraft(item, writing.reply);

  return (
    <InboxCard item={item} kindLabel={inboxKindWords(item)} {...modelRequestTitle(item)}>
      {item.fallback === 'no-provider' ? (
        // The policy would have run it on a model: say why it waits for a person instead.
        <p className="banner banner-warning sampling-fallback">
          {item.serverName} is set to run model requests without asking, but no LLM provider is set up: write the reply
          yourself, or <a href="#providers">add a provider</a> to run this one and the next ones.
        </p>
      ) : item.fallback === 'no-model' ? (
        <p className="banner banner-warning sampling-fallback">
          No LLM provider lists a model to run this on (its list could not be read when it was saved): write the reply
          yourself, or <a href="#providers">add a model to a provider</a> to run this one and the next ones.
        </p>
      ) : null}
      <ConversationView request={item.request} />
      <SamplingReplyForm item={item} answering={answering} writing={writing} />
    </InboxCard>
  );
}
