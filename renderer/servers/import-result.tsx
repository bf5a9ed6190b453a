import type { RefObject } from 'react';
import { listInWords } from '../../app/contract/list-words.js';
import { useDeskState } from '../shell/desk-context.js';
import { showCard, whyNotConnected, type AddedServer } from './import-server-row.js';

/** What one Import did: the servers it added, and why it skipped others (in words). */
export interface ImportDone {
  added: AddedServer[];
  skipped: string[];
}

/**
 * What an import did, kept up to date from the Desk's state: which servers it added, and, of
 * those it was to connect, which are connected, still connecting, or did not connect (each with
 * a way to its card, where the reason and what to do about it are).
 */
export function ImportResult({ done, said }: { done: ImportDone; said: RefObject<HTMLParagraphElement | null> }) {
  const states = useDeskState((state) => state.servers);
  const connecting = done.added.filter((one) => one.autoConnect);
  const statusOf = (one: AddedServer) => states.find((server) => server.id === one.id)?.state;
  const failed = connecting.filter((one) => statusOf(one)?.status === 'failed');
  const pending = connecting.filter((one) => {
    const status = statusOf(one)?.status;
    return status === 'connecting' || status === 'idle';
  });
  const ready = connecting.filter((one) => statusOf(one)?.status === 'ready');
  const names = (list: readonly AddedServer[]) => listInWords(list.map((one) => one.name));
  // Quoted where a sentence starts with them: a name may start in lower case ("filesystem").
  const quoted = (list: readonly AddedServer[]) => listInWords(list.map((one) => `“${one.name}”`));
  const words = [
    done.added.length > 0 ? `Imported ${names(done.added)}.` : 'Nothing was imported.',
    ...(ready.length > 0 ? [`${quoted(ready)} ${ready.length === 1 ? 'is' : 'are'} connected.`] : []),
    ...(pending.length > 0 ? [`${quoted(pending)} ${pending.length === 1 ? 'is' : 'are'} still connecting.`] : []),
    ...(failed.length > 0
      ? [`Did not connect: ${failed.map((one) => `“${one.name}” (${firstWords(statusOf(one)?.reason)})`).join('; ')}.`]
      : []),
    ...done.skipped
  ].join(' ');
  return (
    <div className="import-result">
      <p role="status" ref={said} tabIndex={-1}>
        {words}
      </p>
      {failed.length > 0 ? (
        <p className="small-text">
          {failed.map((one) => (
            <button
              key={one.id}
              type="button"
              className="link-button"
              aria-label={`Show ${one.name}’s card`}
              onClick={() => showCard(one.id)}
            >
              Show {one.name}
            </button>
          ))}
        </p>
      ) : null}
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
