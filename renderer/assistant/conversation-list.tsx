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
 * on the first configured provider and model (both can be changed in its settings). When
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
  const { client } = useDesk();
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
      const c = await client.call('assistant.create', { providerId: provider.id, model });
      onCreated(c.id);
      return c;
    }, 'No chat was started.');
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
