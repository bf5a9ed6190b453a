import { useId, useLayoutEffect, useRef, useState } from 'react';
import type { InputExchangeView } from '../../app/contract/input-exchanges.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { DateTime } from '../components/date-time.js';
import { ExternalLink } from '../components/external-link.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { askAgainWords, askedAgainWords } from '../components/exchange-words.js';
import { CardKeyHint } from './inbox-keys.js';

/** The request of an exchange in words: `tool x`, `prompt x`, `resource <uri>`. */
function requestWords(exchange: InputExchangeView): string {
  const { name, uri } = exchange.params as { name?: unknown; uri?: unknown };
  if (exchange.method === 'resources/read') return `resource ${String(uri)}`;
  return `${exchange.method === 'tools/call' ? 'tool' : 'prompt'} ${String(name)}`;
}

/** The link the person agreed to open in this round (the first, if several). */
function openedLink(exchange: InputExchangeView): URL | undefined {
  for (const [key, request] of Object.entries(exchange.inputRequests)) {
    if (request.method !== 'elicitation/create' || request.params?.mode !== 'url') continue;
    if (exchange.answers[key]?.action !== 'accept' || typeof request.params.url !== 'string') continue;
    try {
      return new URL(request.params.url);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * A multi round-trip request waiting for the person (`waiting-for-you`): they agreed to open a
 * link, and the server gets the request again only once they say they have finished in the
 * browser (or, for a 2025-11-25 server, once it says so itself). Sent at once, it would be asked the same link again (MCP 2026-07-28 asks clients for
 * manual controls to retry or cancel the original request).
 */
function ExchangeWaitingCard({
  exchange,
  onFocusLeaving
}: {
  exchange: InputExchangeView;
  onFocusLeaving: () => void;
}) {
  const { client, announce, store } = useDesk();
  const failure = useFailure();
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const what = requestWords(exchange);
  const link = openedLink(exchange);
  const site = link?.host;
  const card = useRef<HTMLElement>(null);
  // The card goes once the request is sent again (the person's Continue, or the server's word):
  // the focus it held goes where an answered card's goes (the Inbox's), not to the page.
  const leaving = useRef(onFocusLeaving);
  leaving.current = onFocusLeaving;
  useLayoutEffect(() => {
    const element = card.current;
    return () => {
      if (element?.contains(document.activeElement)) leaving.current();
    };
  }, []);

  const act = async (method: 'exchanges.continue' | 'exchanges.cancel') => {
    if (busy) return;
    setBusy(true);
    failure.clear();
    try {
      await client.call(method, { exchangeId: exchange.exchangeId });
      const said =
        method === 'exchanges.continue'
          ? `Taskdesk ${askedAgainWords(exchange)}.`
          : `Cancelled the ${what} on ${exchange.serverName}.`;
      announce(said);
      store.dispatch({ type: 'inbox-answered', text: said });
    } catch (error) {
      failure.fail(
        method === 'exchanges.continue' ? `Could not continue the ${what}.` : `Could not cancel the ${what}.`,
        error
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <article
      ref={card}
      className="card exchange-waiting"
      aria-labelledby={titleId}
      data-exchange-id={exchange.exchangeId}
      tabIndex={-1}
    >
      <header className="card-header">
        <span className="kind-tag">Link</span>
        <h3 id={titleId}>Finish in your browser, then continue</h3>
        <p className="meta">
          From <strong>{exchange.serverName}</strong> · for {what} · since <DateTime iso={exchange.updatedAt} />
        </p>
        <CardKeyHint cardId={exchange.exchangeId} />
      </header>
      <p>
        You agreed to open a page
        {site ? (
          <>
            {' '}
            on <strong>{site}</strong>
          </>
        ) : null}
        . When you have finished there, continue: Taskdesk then {askAgainWords(exchange)}.
        {exchange.protocol === '2025-11-25'
          ? ` If ${exchange.serverName} tells Taskdesk you are done, it continues by itself.`
          : null}
      </p>
      {link ? (
        <p className="muted small-text">
          {/* A page closed before the work there was done: opened again the way it was, after the same question. */}
          Closed the page too soon? <ExternalLink href={link.href}>Open it again</ExternalLink>
        </p>
      ) : null}
      <ActionError failure={failure.failure} onDismiss={failure.clear} />
      <div className="actions">
        <button type="button" className="primary" {...busyProps(busy)} onClick={() => void act('exchanges.continue')}>
          I’ve finished in the browser — continue
        </button>
        <button type="button" {...busyProps(busy)} onClick={() => void act('exchanges.cancel')}>
          {exchange.method === 'tools/call' ? 'Cancel the call' : 'Cancel the request'}
        </button>
      </div>
    </article>
  );
}

/**
 * Every multi round-trip request waiting for the person to finish in the browser, oldest first.
 * `onFocusLeaving`: a card holding the focus goes, and the Inbox places it.
 */
export function ExchangesWaiting({ onFocusLeaving }: { onFocusLeaving: () => void }) {
  const waiting = useDeskState((state) => state.waitingExchanges);
  const exchanges = Object.values(waiting).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  if (exchanges.length === 0) return null;
  return (
    <div className="cards exchanges-waiting">
      {exchanges.map((exchange) => (
        <ExchangeWaitingCard key={exchange.exchangeId} exchange={exchange} onFocusLeaving={onFocusLeaving} />
      ))}
    </div>
  );
}
