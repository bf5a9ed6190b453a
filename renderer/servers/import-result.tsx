import type { RefObject } from 'react';
import { useDeskState } from '../shell/desk-context.js';
import { importedWords, type ResultState } from './import-words.js';
import { showCard, whyNotConnected, type AddedServer } from './import-server-row.js';

/** What one Import did: the servers it added, and why it skipped others (in words). */
export interface ImportDone {
  added: AddedServer[];
  skipped: string[];
}

/**
 * What an import did, kept up to date from the Desk's state: which servers it added and, of
 * those, which are connected, still connecting, did not connect, or are left off because their
 * app has them switched off. Each server's name is a way to its card (the focus goes there),
 * where the reason and what to do about it are.
 */
export function ImportResult({ done, said }: { done: ImportDone; said: RefObject<HTMLParagraphElement | null> }) {
  const states = useDeskState((state) => state.servers);
  const stateOf = (one: AddedServer): ResultState => {
    if (one.offIn !== undefined) return { is: 'off', app: one.offIn };
    if (!one.autoConnect) return { is: 'left' };
    const state = states.find((server) => server.id === one.id)?.state;
    switch (state?.status) {
      case 'ready':
        return { is: 'connected' };
      case 'failed':
        return { is: 'failed', reason: firstWords(state.reason) };
      case 'connecting':
      case 'idle':
        return { is: 'connecting' };
      default:
        return { is: 'left' };
    }
  };
  const parts = importedWords(done.added.map((one) => ({ id: one.id, name: one.name, state: stateOf(one) })));
  return (
    <div className="import-result">
      <p role="status" ref={said} tabIndex={-1}>
        {parts.map((part, index) =>
          typeof part === 'string' ? (
            part
          ) : (
            <button
              key={index}
              type="button"
              className="link-button"
              title={`Show ${part.name}’s card`}
              onClick={() => showCard(part.id)}
            >
              {part.name}
            </button>
          )
        )}
        {done.skipped.map((words) => ` ${words}`).join('')}
      </p>
    </div>
  );
}

/** A failure's reason cut to its first clause, for the summary: the row below has it whole, the card what to do. */
function firstWords(reason: string | undefined): string {
  const first = whyNotConnected(reason)
    .split(/\s\(|[.:;]\s/)[0]!
    .trim();
  if (first.length <= 60) return first;
  const cut = first.slice(0, 60);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 20 ? cut.lastIndexOf(' ') : 60)}…`;
}
