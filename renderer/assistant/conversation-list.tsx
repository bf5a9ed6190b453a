import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { busyProps } from '../components/busy-props.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { useAssistantCall } from './use-assistant-call.js';
import { ActionError } from '../components/action-error.js';
import { DateTime } from '../components/date-time.js';
import { searching, typeahead, type TypeaheadSearch } from './typeahead.js';
import { waitingQuestions } from '../components/waiting-questions.js';
import { modelNamesOf } from '../../app/contract/model-names.js';
import type { ProviderView } from '../../app/contract/providers.js';
import { providerFailing } from '../inbox/provider-failing-words.js';
import { UNTITLED_CONVERSATION } from '../../app/contract/conversation-summary.js';
import { searchFolded } from '../../app/contract/search-words.js';

const STATUS_WORDS: Record<string, string> = {
  generating: 'Answering…',
  tools: 'Tools running',
  failed: 'Needs attention'
};

/**
 * The conversations, newest first, filtered by title as the person types, as one listbox: a
 * single Tab stop (a roving tabindex), the arrow keys, Home and End move in it, typing moves to
 * the next title that starts with what was typed (typeahead), and Enter, Space or a click opens
 * a conversation. New chat starts one on the provider of the conversation shown (else the first
 * configured provider that has a model), on its model when it is on that provider, else the provider's default model
 * (both can be changed in its settings), with the servers of the conversation shown and those
 * added since (`startingServers`), and clears the search so the new chat shows; without a provider it stays focusable but
 * does nothing, and a line under it (its description) says to add one first. When `focusRequest`
 * changes (a conversation was deleted), New chat takes the focus, at the top of the list (the
 * search box when there is no provider to start one with).
 *
 * In a narrow window (assistant.css) the search and the list fold behind a Conversations button
 * that names the conversation shown, beside New chat, so that the chat gets the width: opened,
 * they lie over the chat until a conversation is chosen, Escape is pressed or the person clicks
 * elsewhere, and the focus goes back to that button.
 */
export function ConversationList({
  selected,
  onSelect,
  onStarting,
  onCreated,
  focusRequest
}: {
  selected: string | undefined;
  onSelect: (id: string) => void;
  /** New chat was pressed (`true`: the chat's message box can show at once), or it failed (`false`). */
  onStarting: (starting: boolean) => void;
  /** The chat started, and the store holds it. */
  onCreated: (id: string) => void;
  focusRequest: number;
}) {
  const nav = useRef<HTMLElement>(null);
  useEffect(() => {
    if (focusRequest === 0) return;
    // The first of them shown: in a narrow window the search is folded away, the Conversations button shows.
    [
      ...(nav.current?.querySelectorAll<HTMLElement>(
        '.chat-new:not([aria-disabled="true"]), .chat-list-toggle, .chat-search'
      ) ?? [])
    ]
      .find((element) => element.getClientRects().length > 0)
      ?.focus();
  }, [focusRequest]);
  /** Whether the folded list is open (only a narrow window folds it; wide, the list always shows). */
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  /** Closes the folded list; the focus goes back to its button when it was in the list (now hidden). */
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) toggle.current?.focus();
  };
  const { client, store } = useDesk();
  const summaries = useDeskState((state) => state.assistant.summaries);
  const providers = useDeskState((state) => state.providers);
  const outbound = useDeskState((state) => state.outbound);
  const inbox = useDeskState((state) => state.inbox);
  /** By conversation: the questions its running tasks wait on. */
  const asking = useMemo(
    () => new Map(summaries.map((s) => [s.id, waitingQuestions(s.runningTasks, outbound, inbox)])),
    [summaries, outbound, inbox]
  );
  const [query, setQuery] = useState('');
  const { run, busy, failure, clear } = useAssistantCall();
  const shown = useMemo(() => {
    const needle = searchFolded(query.trim());
    return needle === '' ? summaries : summaries.filter((s) => searchFolded(s.title).includes(needle));
  }, [summaries, query]);
  // Only a provider that lists a model can start a chat: with none, New chat says what to do first.
  const provider = providers.find((p) => modelNamesOf(p).length > 0);
  const listbox = useRef<HTMLUListElement>(null);
  /**
   * The conversation the arrow keys last moved to (or the person clicked), with the conversation
   * open and the search as they were then: once either changes (New chat, a delete, another
   * conversation opened, a search typed), it no longer holds the Tab stop.
   */
  const [moved, setMoved] = useState<{ id: string; selected: string | undefined; query: string } | undefined>(
    undefined
  );
  const active = moved && moved.selected === selected && moved.query === query ? moved.id : undefined;
  const setActive = (id: string) => setMoved({ id, selected, query });
  /** The typeahead search under way in the list, if any. */
  const search = useRef<TypeaheadSearch | undefined>(undefined);
  /**
   * The one option Tab reaches (a roving tabindex): the one last moved to since the open one
   * was opened (and the list last searched), else the open one, else the first shown.
   */
  const tabStop = [active, selected].find((id) => shown.some((s) => s.id === id)) ?? shown[0]?.id;
  const current = summaries.find((s) => s.id === selected);
  /** Other conversations that wait on the person: folded away, their own lines do not show it. */
  const waiting = summaries.filter(
    (s) => s.id !== selected && (s.pendingApprovals > 0 || (asking.get(s.id) ?? 0) > 0)
  ).length;
  // Opened, the list takes the focus where its Tab stop is (the search when there is no conversation).
  useEffect(() => {
    if (!open) return;
    (
      listbox.current?.querySelector<HTMLElement>('[role="option"][tabindex="0"]') ??
      nav.current?.querySelector<HTMLElement>('.chat-search')
    )?.focus();
    // Only on opening: the focus is the person's once the list is open.
  }, [open]);
  // A press outside the opened list closes it, as a menu does.
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!nav.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);
  /** Opens a conversation; the opened list folds away again. */
  const choose = (id: string) => {
    onSelect(id);
    if (open) close(true);
  };

  /**
   * The conversation shown when it is a new chat as it was made (untitled, nothing sent, no
   * setting changed since): New chat replaces it (deleted, then made anew) rather than listing a
   * second "New chat", and the new one takes today's settings: the untouched one may be on a
   * provider removed since, without a server added since, or on a default model changed since.
   */
  const untouchedChat = (): string | undefined => {
    const c = selected === undefined ? undefined : store.getState().assistant.conversations[selected];
    return c && c.messages.length === 0 && c.title === UNTITLED_CONVERSATION && c.updatedAt === c.createdAt
      ? c.id
      : undefined;
  };

  const create = () => {
    // Without a provider that lists a model the button only says why (its hint); with one, a press while busy is ignored.
    if (busy || !provider) return;
    setOpen(false);
    const replaced = untouchedChat();
    onStarting(true);
    void run(async () => {
      if (replaced !== undefined) {
        try {
          await client.call('assistant.delete', { conversationId: replaced });
          store.apply('assistant.changed', { conversationId: replaced });
        } catch {
          // Kept: the new chat is made all the same, and the untouched one stays listed.
        }
      }
      const chosen = startingProvider(replaced);
      if (!chosen) throw new Error('Add an LLM provider first (LLM providers screen).');
      const model = startingModel(chosen, replaced);
      if (!model) throw new Error(`The provider ${chosen.name} lists no model: add one under LLM providers.`);
      const { serverIds, toolsOffered } = await startingServers(replaced);
      const c = await client.call('assistant.create', {
        providerId: chosen.id,
        model,
        serverIds,
        toolsOffered,
        fitTools: true
      });
      // In the store before it is shown: its pane opens on its message box, not on "Loading…".
      store.apply('assistant.changed', { conversationId: c.id, conversation: c });
      // A search that hides the new chat would leave the person in a conversation the list does not show.
      setQuery('');
      onCreated(c.id);
      return c;
    }, 'No chat was started.').then((ok) => {
      if (ok) return;
      onStarting(false);
      // The starting chat's box is gone: the focus goes where the failure is said.
      nav.current?.querySelector<HTMLElement>('.chat-new')?.focus();
    });
  };

  /**
   * The id of the conversation the person was in: the one shown, else the newest; the untouched
   * chat a new one `replaces` counts as never there (its settings were taken from this one).
   */
  const lastId = (replaces: string | undefined): string | undefined => {
    const { assistant } = store.getState();
    if (selected !== undefined && selected !== replaces) return selected;
    return assistant.summaries.find((s) => s.id !== replaces)?.id;
  };

  /** The conversation the person was in (see {@link lastId}). */
  const lastSummary = (replaces: string | undefined) => {
    const id = lastId(replaces);
    return store.getState().assistant.summaries.find((s) => s.id === id);
  };

  /**
   * The provider a new chat starts on: that of the conversation the person was in while it offers
   * a model, else the first that does; one whose last call failed gives way to the first in the
   * person's order that is not failing (as an approval card's draft does), since a chat begun on
   * it would fail at its first message. When every one fails, as before.
   */
  const startingProvider = (replaces: string | undefined): ProviderView | undefined => {
    const last = providers.find((p) => p.id === lastSummary(replaces)?.providerId);
    const offering = providers.filter((p) => modelNamesOf(p).length > 0);
    const candidates = last && modelNamesOf(last).length > 0 ? [last, ...offering] : offering;
    return candidates.find((p) => !providerFailing(p)) ?? candidates[0];
  };

  /**
   * The model a new chat on `chosen` starts with: that of the conversation the person was in (the
   * one shown, else the newest) when it is on the same provider and the provider still offers it;
   * else the provider's default model (set under LLM providers); else the first it lists.
   */
  const startingModel = (chosen: ProviderView, replaces: string | undefined): string | undefined => {
    const last = lastSummary(replaces);
    const offered = modelNamesOf(chosen);
    if (last?.providerId === chosen.id && offered.includes(last.model)) return last.model;
    return chosen.defaultModel ?? offered[0];
  };

  /**
   * The servers a new chat offers the tools of (and of which, `toolsOffered`): those the person chose for the conversation they
   * were in (the one shown, else the newest), still configured, plus every server added (or
   * imported) after that conversation was made (`addedAt`): the person never had it to choose
   * when they set that chat up, and leaving it out would leave a new server unticked in every chat
   * from then on. A server with no date (from an older build, or Taskdesk's start options) counts
   * as there before. No conversation, or a choice of none (what every chat began with before
   * chats took servers, and what "Turn off tools and retry" leaves): every server ready now.
   * Offering tools is safe: each call still goes through its server's policy ("ask" by default);
   * a model whose context cannot hold their descriptions starts without them (`fitTools`).
   */
  const startingServers = async (
    replaces: string | undefined
  ): Promise<{ serverIds: string[]; toolsOffered: Record<string, string[]> }> => {
    const { assistant, servers } = store.getState();
    const id = lastId(replaces);
    let last: { serverIds: string[]; createdAt: string; toolsOffered?: Record<string, string[]> } | undefined;
    if (id) {
      try {
        last = assistant.conversations[id] ?? (await client.call('assistant.get', { conversationId: id }));
      } catch {
        // Unreadable now: the ready servers will do.
      }
    }
    const known = (last?.serverIds ?? []).filter((id) => servers.some((server) => server.id === id));
    // Its servers all removed since, or none chosen: the ready ones, as at first. Tools turned off
    // in one chat (as "Turn off tools and retry" does for a small model) are that chat's fix, not a
    // choice for the next; a model too small for them starts it without them, saying why (`fitTools`).
    if (!last || known.length === 0)
      return {
        serverIds: servers.filter((server) => server.state.status === 'ready').map((server) => server.id),
        toolsOffered: {}
      };
    const since = Date.parse(last.createdAt);
    const later = servers.filter(
      (server) => server.addedAt !== undefined && Date.parse(server.addedAt) > since && !known.includes(server.id)
    );
    // The tools chosen of its servers too (a small model's few): a server added since offers all.
    const toolsOffered: Record<string, string[]> = {};
    for (const serverId of known) {
      const only = last.toolsOffered?.[serverId];
      if (only !== undefined) toolsOffered[serverId] = only;
    }
    return { serverIds: [...known, ...later.map((server) => server.id)], toolsOffered };
  };

  return (
    <nav
      className={open ? 'chat-list chat-list-open' : 'chat-list'}
      aria-label="Conversations"
      ref={nav}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open || event.defaultPrevented) return;
        event.preventDefault();
        close(true);
      }}
    >
      {/* Without a provider still focusable (aria-disabled, not disabled): on it, a keyboard or
          screen-reader user hears why it does nothing, from the line below it. */}
      <button
        type="button"
        className="chat-new"
        onClick={create}
        {...(provider ? busyProps(busy) : { 'aria-disabled': true, 'aria-describedby': 'chat-new-hint' })}
      >
        + New chat
      </button>
      {provider ? null : (
        <p id="chat-new-hint" className="chat-new-hint muted small-text">
          {providers.length === 0 ? (
            <>
              Add an <a href="#providers">LLM provider</a>, then start a chat.
            </>
          ) : (
            <>
              None of your providers lists a model: <a href="#providers">add a model</a> to one, then start a chat.
            </>
          )}
        </p>
      )}
      <ActionError failure={failure} onDismiss={clear} />
      {/* Shown in a narrow window only (assistant.css): the list folded behind it. */}
      <button
        type="button"
        ref={toggle}
        className="chat-list-toggle"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        <span>Conversations</span>
        {current ? <span className="chat-list-toggle-current">: {current.title}</span> : null}
        {waiting > 0 ? <span className="chat-state chat-state-approval">{waiting} waiting</span> : null}
      </button>
      <div id={panelId} className="chat-list-panel">
        <input
          type="search"
          className="chat-search"
          aria-label="Search conversations by title"
          placeholder="Search by title"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        {summaries.length === 0 ? (
          // Without a provider, the line under New chat says what to do first.
          provider ? (
            <p className="muted small-text">No conversations yet.</p>
          ) : null
        ) : shown.length === 0 ? (
          <p className="muted small-text">No title matches “{query}”.</p>
        ) : null}
        {shown.length > 0 ? (
          <ul
            role="listbox"
            aria-label="Conversations"
            ref={listbox}
            onKeyDown={(event) => {
              const at =
                (event.target as HTMLElement).closest<HTMLElement>('[role="option"]')?.dataset.conversationId ??
                tabStop;
              const index = shown.findIndex((s) => s.id === at);
              // A key other than a character ends the search: what is typed after it starts a new one.
              if (['ArrowDown', 'ArrowUp', 'Home', 'End', 'Enter'].includes(event.key)) search.current = undefined;
              const to = (next: number) => {
                event.preventDefault();
                const id = shown[Math.max(0, Math.min(shown.length - 1, next))]!.id;
                setActive(id);
                listbox.current?.querySelector<HTMLElement>(`[data-conversation-id="${CSS.escape(id)}"]`)?.focus();
              };
              switch (event.key) {
                case 'ArrowDown':
                  return to(index + 1);
                case 'ArrowUp':
                  return to(index - 1);
                case 'Home':
                  return to(0);
                case 'End':
                  return to(shown.length - 1);
                case 'Enter':
                case ' ':
                  // Within a search a space is part of it: titles have spaces.
                  if (event.key === ' ' && searching(search.current, event.timeStamp)) break;
                  event.preventDefault();
                  if (at) choose(at);
                  return;
              }
              if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey) return;
              const found = typeahead(
                shown.map((s) => s.title),
                index,
                event.key,
                event.timeStamp,
                search.current
              );
              search.current = found.search;
              if (found.index === undefined) event.preventDefault();
              else to(found.index);
            }}
          >
            {shown.map((s) => (
              <li
                key={s.id}
                role="option"
                className="chat-list-item"
                data-conversation-id={s.id}
                aria-selected={s.id === selected}
                tabIndex={s.id === tabStop ? 0 : -1}
                onFocus={() => setActive(s.id)}
                onClick={() => choose(s.id)}
              >
                <span className="chat-list-top">
                  {/* The whole title as a tooltip, for when the line cuts it; the option's name still has it once. */}
                  <span className="chat-list-title" title={s.title}>
                    {s.title}
                  </span>
                  {s.pendingApprovals > 0 ? (
                    <span className="chat-state chat-state-approval">
                      {s.pendingApprovals === 1 ? 'Approve 1 call' : `Approve ${s.pendingApprovals} calls`}
                    </span>
                  ) : (asking.get(s.id) ?? 0) > 0 ? (
                    <span className="chat-state chat-state-approval">Answer a question</span>
                  ) : STATUS_WORDS[s.status] ? (
                    <span className={`chat-state chat-state-${s.status}`}>{STATUS_WORDS[s.status]}</span>
                  ) : null}
                </span>
                <span className="chat-list-meta">
                  {providers.some((p) => p.id === s.providerId) ? s.model : 'Provider removed'} ·{' '}
                  <DateTime iso={s.activeAt} short />
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </nav>
  );
}
