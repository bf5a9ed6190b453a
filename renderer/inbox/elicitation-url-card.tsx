import type { InboxItem } from '../../app/contract/host-api.js';
import { ActionError } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { useDesk } from '../shell/desk-context.js';
import { messageOf } from './elicitation-form-card.js';
import { InboxCard } from './inbox-card.js';
import { inboxKindWords } from '../components/kind-words.js';
import { useAnswer } from './use-answer.js';
import { DeclineCancelButtons } from './decline-cancel-buttons.js';
import { checkLink, LINK_WARNING_ADVICE } from './link-warnings.js';
import { answerSentText } from './answer-sent-words.js';

function parseUrl(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

/** What may mislead about a link, said before it is opened: each concern, then what to do. */
function LinkWarning({ sentences }: { sentences: string[] }) {
  if (sentences.length === 0) return null;
  return (
    <div className="link-warning" role="note" aria-label="Check this link">
      {sentences.map((sentence) => (
        <p key={sentence}>{sentence}</p>
      ))}
      <p>
        <strong>{LINK_WARNING_ADVICE}</strong>
      </p>
    </div>
  );
}

/** An elicitation in URL mode: the page opens only after the user agrees, and accepting says so to the server. */
export function ElicitationUrlCard({ item }: { item: InboxItem }) {
  const { confirm, openExternal } = useDesk();
  const answering = useAnswer(item);
  const rawUrl = typeof item.request.url === 'string' ? item.request.url : '';
  const url = parseUrl(rawUrl);
  const openable = !!url && (url.protocol === 'https:' || url.protocol === 'http:');
  const done = answerSentText(item);
  // Consent is not an answer the person typed: the line says what happened, and for a request of
  // Taskdesk's (which waits for them to finish in the browser) what comes next.
  const opened = url
    ? item.relatedCall
      ? `Opened the page on ${url.host}. When you have finished there, continue here.`
      : `Told ${item.serverName} you agreed, and opened the page on ${url.host}.`
    : done;
  const warnings = url && openable ? checkLink(rawUrl, url).sentences : [];

  const open = async () => {
    if (!url || !openable) return;
    const agreed = await confirm({
      title: 'Open this link?',
      body: (
        <>
          <p>
            {item.serverName} wants you to open a page on <strong>{url.host}</strong>.
          </p>
          <p>
            <code className="url">{url.href}</code>
          </p>
          <LinkWarning sentences={warnings} />
        </>
      ),
      confirmLabel: 'Open link'
    });
    if (!agreed) return;
    // Accepting tells the server the user agreed; only then is the page opened.
    if (await answering.send({ action: 'accept' }, opened)) openExternal(url.href);
  };

  return (
    <InboxCard
      item={item}
      kindLabel={inboxKindWords(item)}
      markdown
      title={messageOf(item, `${item.serverName} asks you to open a link`)}
    >
      {item.askedAgain ? (
        <p className="banner banner-warning asked-again">
          Asked again: {item.serverName} still needs this page, so the work there is not done yet. Open it, finish
          there, then continue.
        </p>
      ) : null}
      <form className="answer-form" noValidate aria-busy={answering.busy} onSubmit={(event) => event.preventDefault()}>
        {/* The sentence and its link in one block: as two, the form's gap and their margins put 46 px between them. */}
        <p className="url-intro">
          {openable ? (
            <>
              This opens a page on <strong>{url.host}</strong>:
            </>
          ) : (
            'The server sent a link that cannot be opened safely:'
          )}
          <br />
          <code className="url">{rawUrl || '(no URL)'}</code>
        </p>
        <LinkWarning sentences={warnings} />
        <ActionError failure={answering.failure.failure} onDismiss={answering.failure.clear} />
        <div className="actions">
          <button
            type="button"
            className="primary"
            disabled={!openable}
            {...busyProps(answering.busy)}
            onClick={() => void open()}
          >
            Open link…
          </button>
          <DeclineCancelButtons answering={answering} done={done} />
        </div>
      </form>
    </InboxCard>
  );
}
