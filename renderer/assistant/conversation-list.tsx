import { useEffect, useMemo, useRef, useState } from 'react';
import { busyProps } from '../components/busy-props.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { useAssistantCall } from './use-assistant-call.js';
import { ActionError } from '../components/action-error.js';
import { DateTime } from '../components/date-time.js';

const STATUS_WORDS: Record<string, string> = {
  generating: 'Answering…',
  tools: 'Tools running',
  failed: 'Needs attention'
};

/**
 * The conversations, newest first, filtered by title as the person types; New chat starts one
 * on the first configured provider and model (both can be changed in its settings), with the
 * servers of the conversation shown (else every server ready now), and clears the search so the
 * new chat shows. When
 * `focusRequest` changes (a conversation was deleted), New chat takes the focus, at the top of the
 * list (the search box when there is no provider to start one with).
 */
export function ConversationList({
  selected,
  onSelect,
  onCreated,
  focusRequest
}: {
  selected: string | undefined;
  onSelect: (id: string) => void;
  onCreated: (id: string) => void;
  focusRequest: number;
}) {
  const nav = useRef<HTMLElement>(null);
  useEffect(() => {
    if (focusRequest === 0) return;
    nav.current?.querySelector<HTMLElement>('.chat-new:enabled, .chat-search')?.focus();
  }, [focusRequest]);
  const { client, store } = useDesk();
  const summaries = useDeskState((state) => state.assistant.summaries);
  const providers = useDeskState((state) => state.providers);
  const [query, setQuery] = useState('');
  const { run, busy, failure, clear } = useAssistantCall();
  const shown = useMemo(() => {
    const needle = query.trim().toLowerCase();
    return needle === '' ? summaries : summaries.filter((s) => s.title.toLowerCase().includes(needle));
  }, [summaries, query]);
  const provider = providers.find((p) => p.models.length > 0) ?? providers[0];

  const create = () => {
    if (busy) return;
    void run(async () => {
      if (!provider) throw new Error('Add an LLM provider first (LLM providers screen).');
      const model = provider.models[0]?.name;
      if (!model) throw new Error(`The provider ${provider.name} lists no model: add one under LLM providers.`);
      const serverIds = await startingServers();
      const c = await client.call('assistant.create', { providerId: provider.id, model, serverIds });
      // A search that hides the new chat would leave the person in a conversation the list does not show.
      setQuery('');
      onCreated(c.id);
      return c;
    }, 'No chat was started.');
  };

  /**
   * The servers a new chat offers the tools of: those the person chose for the conversation they
   * were in (the one shown, else the newest), still configured; else every server ready now. A
   * choice of none is no choice: it is what every chat began with before chats took servers.
   * Offering tools is safe: each call still goes through its server's policy ("ask" by default).
   */
  const startingServers = async (): Promise<string[]> => {
    const { assistant, servers } = store.getState();
    const lastId = selected ?? assistant.summaries[0]?.id;
    let chosen: string[] = [];
    if (lastId) {
      try {
        chosen = (assistant.conversations[lastId] ?? (await client.call('assistant.get', { conversationId: lastId })))
          .serverIds;
      } catch {
        // Unreadable now: the ready servers will do.
      }
    }
    const known = chosen.filter((id) => servers.some((server) => server.id === id));
    return known.length > 0
      ? known
      : servers.filter((server) => server.state.status === 'ready').map((server) => server.id);
  };

  return (
    <nav className="chat-list" aria-label="Conversations" ref={nav}>
      <button
        type="button"
        className="chat-new"
        onClick={create}
        disabled={!provider}
        {...busyProps(busy)}
        title={provider ? undefined : 'Add an LLM provider first'}
      >
        + New chat
      </button>
      <ActionError failure={failure} onDismiss={clear} />
      <input
        type="search"
        className="chat-search"
        aria-label="Search conversations by title"
        placeholder="Search by title"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      {summaries.length === 0 ? (
        <p className="muted small-text">
          {providers.length === 0 ? (
            <>
              Add an <a href="#providers">LLM provider</a>, then start a chat.
            </>
          ) : (
            'No conversations yet.'
          )}
        </p>
      ) : shown.length === 0 ? (
        <p className="muted small-text">No title matches “{query}”.</p>
      ) : null}
      <ul>
        {shown.map((s) => (
          <li key={s.id} data-conversation-id={s.id}>
            <button
              type="button"
              className="chat-list-item"
              aria-current={s.id === selected ? 'true' : undefined}
              onClick={() => onSelect(s.id)}
            >
              <span className="chat-list-top">
                <span className="chat-list-title">{s.title}</span>
                {s.pendingApprovals > 0 ? (
                  <span className="chat-state chat-state-approval">
                    {s.pendingApprovals === 1 ? 'Approve 1 call' : `Approve ${s.pendingApprovals} calls`}
                  </span>
                ) : STATUS_WORDS[s.status] ? (
                  <span className={`chat-state chat-state-${s.status}`}>{STATUS_WORDS[s.status]}</span>
                ) : null}
              </span>
              <span className="chat-list-meta">
                {s.model} · <DateTime iso={s.updatedAt} />
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
