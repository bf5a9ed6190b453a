import { useEffect, useRef, type RefObject } from 'react';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { importedWords, type ResultState } from './import-words.js';
import { showCard, whyNotConnected, type AddedServer } from './import-server-row.js';

/** What one Import did: the servers it added, and why it skipped others (in words). */
export interface ImportDone {
  /** The file chosen it imported from, said in its words ("Imported notes from claude_desktop_config.json."). */
  from?: string;
  added: AddedServer[];
  skipped: string[];
}

/**
 * What an import did, kept up to date from the Desk's state: which servers it added and, of
 * those, which are connected, still connecting, did not connect, or are left off because their
 * app has them switched off. Each server's name is a way to its card (the focus goes there),
 * where the reason and what to do about it are.
 *
 * It is said once, when no server it added is still connecting: what was imported and which did
 * not connect, in one announcement (the sentence itself is not a live region, to be said twice).
 * A server the list had and has no more was removed since: that is its outcome, not a wait. One
 * left idle (a Disconnect overtook its connect) is not connecting: the core shows a connect on
 * its way as connecting.
 */
export function ImportResult({ done, said }: { done: ImportDone; said: RefObject<HTMLParagraphElement | null> }) {
  const { announce } = useDesk();
  const states = useDeskState((state) => state.servers);
  // The servers of this import the list has had: one it has no more was removed.
  const listedOnce = useRef<{ done: ImportDone; ids: Set<string> }>({ done, ids: new Set() });
  if (listedOnce.current.done !== done) listedOnce.current = { done, ids: new Set() };
  const stateOf = (one: AddedServer): ResultState => {
    const listed = states.find((server) => server.id === one.id);
    if (listed) listedOnce.current.ids.add(one.id);
    else if (listedOnce.current.ids.has(one.id)) return { is: 'removed' };
    if (one.offIn !== undefined) return { is: 'off', app: one.offIn };
    if (!one.autoConnect) return { is: 'left' };
    // Not listed yet (the list follows the import): it is about to connect.
    if (!listed) return { is: 'connecting' };
    const state = listed.state;
    switch (state.status) {
      case 'ready':
        return { is: 'connected' };
      case 'failed':
        return { is: 'failed', reason: firstWords(state.reason) };
      case 'connecting':
        return { is: 'connecting' };
      case 'idle':
      case 'closed':
        return { is: 'left' };
    }
  };
  const added = done.added.map((one) => ({ id: one.id, name: one.name, state: stateOf(one) }));
  const parts = importedWords(added, done.from);
  const words = [parts.map((part) => (typeof part === 'string' ? part : part.name)).join(''), ...done.skipped].join(
    ' '
  );
  const settled = added.every((one) => one.state.is !== 'connecting');
  const told = useRef<ImportDone | undefined>(undefined);
  useEffect(() => {
    if (!settled || told.current === done) return;
    told.current = done;
    announce(words);
  }, [announce, done, settled, words]);
  return (
    <div className="import-result">
      <p ref={said} tabIndex={-1}>
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
