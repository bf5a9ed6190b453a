import { useCallback, useEffect, useRef, useState } from 'react';
import { ActionError, useFailure } from '../components/action-error.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { anyModel } from '../../app/contract/model-names.js';
import { Composer } from './composer.js';
import { ConversationList } from './conversation-list.js';
import { ConversationSettings, type ConversationSettingsHandle } from './conversation-settings.js';
import { MessageList } from './message-list.js';
import { ModelLoadLine } from './model-load-line.js';
import { noToolsWords } from './no-tools-words.js';
import { StartingPane } from './starting-pane.js';
import './assistant.css';

/**
 * The Assistant screen: the conversations on the left, the chosen one as a chat on the right
 * (its settings behind a button), fed by the store's `assistant.*` events. While + New chat
 * waits on the host, the new chat's message box shows at once with the focus (`StartingPane`):
 * what the person types then is not lost to a button.
 *
 * An address that names a conversation (`#assistant/<id>`, the link of a call's origin) opens it,
 * with the focus on its title, as `#tasks/<key>` opens a task's detail: each time it is followed,
 * also again after the person chose another one or went to another screen.
 */
export function AssistantScreen({
  headingRef,
  address
}: {
  headingRef: (element: HTMLHeadingElement | null) => void;
  /** What the address names after `#assistant/`: a conversation, then one of its tool calls (`<id>/<call>`), if any. */
  address: string | undefined;
}) {
  // A conversation's id has no slash (its schema): what follows the first one is the call's id.
  const slash = address?.indexOf('/') ?? -1;
  const openId = slash === -1 ? address : address!.slice(0, slash);
  const openCall = slash === -1 ? undefined : address!.slice(slash + 1) || undefined;
  const summaries = useDeskState((state) => state.assistant.summaries);
  const ready = useDeskState((state) => state.ready);
  const providerCount = useDeskState((state) => state.providers.length);
  const hasModel = useDeskState((state) => anyModel(state.providers));
  const [selected, setSelected] = useState<string | undefined>(openId);
  /** The conversation whose title takes the focus once it shows: the one the address just opened. */
  const [focusTitle, setFocusTitle] = useState<string | undefined>(openId);
  /** The address's conversation as last seen: only a change opens it, so the person's own choice then holds. */
  const [addressed, setAddressed] = useState(address);
  if (address !== addressed) {
    setAddressed(address);
    if (openId !== undefined) {
      setSelected(openId);
      setFocusTitle(openId);
    }
  }
  /**
   * The person moved on from the conversation the address names: the address stops naming it
   * (replaced, not a new history entry), so that a reload shows what they see.
   */
  const leaveAddress = () => {
    if (openId !== undefined) location.replace('#assistant');
  };
  const titleFocused = useCallback(() => setFocusTitle(undefined), []);
  /** A chat just started: its message box takes the focus, and what was typed while it started. */
  const [created, setCreated] = useState<{ id: string; text: string } | undefined>(undefined);
  /** Whether New chat waits on the host: the new chat's message box shows meanwhile. */
  const [starting, setStarting] = useState(false);
  /** What was typed in that box; kept for the next New chat should this one fail. */
  const draft = useRef('');
  /** Counts deletions: after one, the focus goes back to the list. */
  const [deleted, setDeleted] = useState(0);
  // The newest conversation is shown until the person picks one; a deleted one gives way to the next.
  const current = selected && summaries.some((s) => s.id === selected) ? selected : summaries[0]?.id;
  // A conversation the address names that the Desk does not hold (deleted since) is said to be gone, as an unknown task is.
  const gone = ready && selected !== undefined && selected === openId && !summaries.some((s) => s.id === selected);
  const goneLine = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (!gone || focusTitle !== selected) return;
    goneLine.current?.focus();
    setFocusTitle(undefined);
  }, [gone, focusTitle, selected]);
  return (
    <div className="assistant">
      <h2 id="heading-assistant" ref={headingRef} tabIndex={-1} className="sr-only">
        Assistant
      </h2>
      <ConversationList
        selected={gone ? undefined : current}
        onSelect={(id) => {
          if (id !== openId) leaveAddress();
          setSelected(id);
          setFocusTitle(undefined);
          setCreated(undefined);
        }}
        onStarting={setStarting}
        onCreated={(id) => {
          leaveAddress();
          setSelected(id);
          setFocusTitle(undefined);
          setCreated({ id, text: draft.current });
          draft.current = '';
          setStarting(false);
        }}
        focusRequest={deleted}
      />
      {starting ? (
        <StartingPane initialText={draft.current} onChange={(text) => (draft.current = text)} />
      ) : gone ? (
        <div className="chat-pane chat-pane-empty">
          <p className="muted" ref={goneLine} tabIndex={-1}>
            Taskdesk no longer holds this conversation; it may have been deleted. Choose another from the list.
          </p>
        </div>
      ) : current ? (
        <ConversationPane
          key={current}
          conversationId={current}
          focusComposer={current === created?.id}
          focusTitle={current === focusTitle}
          focusCall={current === focusTitle ? openCall : undefined}
          onTitleFocused={titleFocused}
          initialText={current === created?.id ? created.text : undefined}
          onDeleted={() => {
            leaveAddress();
            setSelected(undefined);
            setDeleted((n) => n + 1);
          }}
        />
      ) : (
        <div className="chat-pane chat-pane-empty">
          <p className="lede">Chat with your own model and your servers’ tools.</p>
          {hasModel ? (
            <p className="muted">
              Start with + New chat. A long tool call runs as a task: its result comes back to the model when it is
              ready, even after a restart, and when the server answers early the conversation goes on meanwhile.
            </p>
          ) : providerCount === 0 ? (
            <p className="notice-no-provider">
              A chat needs a model: add one under <a href="#providers">LLM providers</a> (OpenAI with your key, a model
              file on this computer, or a local OpenAI-compatible server such as Ollama or llama.cpp), then start with +
              New chat.
            </p>
          ) : (
            <p className="notice-no-provider">
              A chat needs a model, and none of your providers lists one (its list could not be read when it was saved):
              under <a href="#providers">LLM providers</a>, press Test connection to read it again, or type the name of
              a model the provider runs; then start with + New chat.
            </p>
          )}
        </div>
      )}
    </div>
  );
}

function ConversationPane({
  conversationId,
  focusComposer,
  focusTitle,
  focusCall,
  onTitleFocused,
  initialText,
  onDeleted
}: {
  conversationId: string;
  focusComposer: boolean;
  /** Whether its title takes the focus once it shows (the address opened it). */
  focusTitle: boolean;
  /** The tool call the address names: it takes the focus instead, brought into view. */
  focusCall: string | undefined;
  onTitleFocused: () => void;
  /** What was typed while the chat started: its message box begins with it. */
  initialText: string | undefined;
  onDeleted: () => void;
}) {
  const { client, store, confirm, announce } = useDesk();
  const conversation = useDeskState((state) => state.assistant.conversations[conversationId]);
  const provider = useDeskState((state) => state.providers.find((p) => p.id === conversation?.providerId));
  // Another provider to choose in the settings: one that lists a model (the settings offer no other).
  const anyProvider = useDeskState((state) => anyModel(state.providers));
  const servers = useDeskState((state) => state.servers);
  const { failure, fail, clear } = useFailure();
  const [settings, setSettings] = useState(false);
  /**
   * The open settings were set aside by a call that came to wait for approval: hidden, with what
   * was typed in them kept, until Settings shows them again.
   */
  const [setAside, setSetAside] = useState(false);
  /** Whether the settings show (open, and not set aside). */
  const settingsShown = settings && !setAside;
  /** Bumped by a failure's Choose a provider: the settings open with the focus on the provider. */
  const [providerFocus, setProviderFocus] = useState(0);
  /** Bumped by a failure's Choose tools…: the settings open with the focus on the servers. */
  const [toolsFocus, setToolsFocus] = useState(0);
  const settingsButton = useRef<HTMLButtonElement>(null);
  const settingsForm = useRef<ConversationSettingsHandle>(null);
  /** Whether the open settings hold changes not saved. */
  const unsaved = useRef(false);
  const onUnsavedChange = useCallback((now: boolean) => {
    unsaved.current = now;
  }, []);
  /** Closes the settings, after asking when that would drop changes; the focus goes back to their button. */
  const closeSettings = async () => {
    if (
      unsaved.current &&
      !(await confirm({
        title: 'Discard your changes?',
        body: <p>The settings of this conversation have changes that were not saved.</p>,
        confirmLabel: 'Discard changes',
        // Not "Cancel": the form's own Cancel is what throws the changes away.
        cancelLabel: 'Keep editing',
        danger: true
      }))
    )
      return;
    setSettings(false);
    setSetAside(false);
    // Opened again by their button, the settings put the focus on their title, not the provider.
    setProviderFocus(0);
    setToolsFocus(0);
    settingsButton.current?.focus();
  };
  /** Saved by Save settings: closed (nothing is left to lose), the focus back on their button. */
  const settingsSaved = useCallback(() => {
    setSettings(false);
    setSetAside(false);
    setProviderFocus(0);
    setToolsFocus(0);
    settingsButton.current?.focus();
  }, []);
  // A call that comes to wait for approval while the settings show sets them aside, so that the
  // call is in sight: the chat cannot go on until the person decides, and open settings leave the
  // messages only a few lines on a short window. Set aside, not closed: closing would drop changes
  // not saved, and asking first would put a dialog between the person and the call. Settings
  // brings them back as they were.
  const pending = (conversation?.messages ?? [])
    .flatMap((m) => (m.role === 'assistant' ? m.toolCalls : []))
    .filter((call) => call.state === 'pending-approval')
    .map((call) => call.id)
    .join(' ');
  const seenPending = useRef(pending);
  useEffect(() => {
    const seen = new Set(seenPending.current.split(' '));
    seenPending.current = pending;
    if (!settingsShown || !pending.split(' ').some((id) => id !== '' && !seen.has(id))) return;
    // The focus in the settings would fall to the page as they hide: their button takes it, as on close.
    const inSettings = document.activeElement?.closest('.chat-settings') != null;
    setSetAside(true);
    if (inSettings) settingsButton.current?.focus();
    announce('A tool call waits for your approval: the settings are set aside, Settings shows them again.');
  }, [pending, settingsShown, announce]);
  // A failed conversation that goes on (Retry, Turn off tools and retry) needs its messages in
  // sight: settings opened to fix it (Choose tools…) close if they hold nothing unsaved, else they
  // are set aside as for a call waiting for approval, their changes kept.
  const status = conversation?.status;
  const lastStatus = useRef(status);
  useEffect(() => {
    const was = lastStatus.current;
    lastStatus.current = status;
    if (was !== 'failed' || status === 'failed' || status === undefined || !settingsShown) return;
    const inSettings = document.activeElement?.closest('.chat-settings') != null;
    if (unsaved.current) {
      setSetAside(true);
      announce('The chat goes on: the settings are set aside with your changes, Settings shows them again.');
    } else {
      setSettings(false);
      setProviderFocus(0);
      setToolsFocus(0);
    }
    if (inSettings) settingsButton.current?.focus();
  }, [status, settingsShown, announce]);
  /** Bumped by Retry after the conversation failed to open: reads it again. */
  const [attempt, setAttempt] = useState(0);
  const title = useRef<HTMLHeadingElement>(null);
  const loaded = conversation !== undefined;
  useEffect(() => {
    // Once it is read: "Loading…" has no title to focus yet.
    if (!focusTitle || !loaded) return;
    // A call no longer in the conversation (or never in it): its title, as without one.
    const call =
      focusCall === undefined
        ? null
        : document.querySelector<HTMLElement>(`.chat-pane [data-call-id="${CSS.escape(focusCall)}"]`);
    if (call) {
      call.focus({ preventScroll: true });
      call.scrollIntoView({ block: 'center' });
    } else title.current?.focus();
    onTitleFocused();
  }, [focusTitle, focusCall, loaded, onTitleFocused]);
  useEffect(() => {
    let live = true;
    client.call('assistant.get', { conversationId }).then(
      (c) => live && store.apply('assistant.changed', { conversationId, conversation: c }),
      (problem: unknown) =>
        live && fail('Could not open this conversation.', problem, 'Press Retry to open it again, or start a new chat.')
    );
    return () => {
      live = false;
    };
  }, [client, store, conversationId, fail, attempt]);
  if (!conversation)
    return (
      <div className="chat-pane">
        {/* No Dismiss: nothing of the conversation is shown, and without the message it would read as loading. */}
        {failure ? (
          <ActionError
            failure={failure}
            onRetry={() => {
              clear();
              setAttempt((n) => n + 1);
            }}
          />
        ) : (
          <p className="muted">Loading…</p>
        )}
      </div>
    );
  return (
    <section
      className="chat-pane"
      aria-label={`Conversation ${conversation.title}`}
      data-conversation-id={conversation.id}
      data-status={conversation.status}
      // Escape in the settings closes them as their button does, and the focus goes back to it.
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || e.defaultPrevented || !settings) return;
        if (!(e.target as Element).closest('.chat-settings')) return;
        e.preventDefault();
        void closeSettings();
      }}
    >
      <header className="chat-header">
        <div>
          <h3 className="chat-title" ref={title} tabIndex={-1}>
            {conversation.title}
          </h3>
          <p className="muted small-text">
            {/* A removed provider's id and model name nothing the chat can use any more. */}
            {provider ? (
              `${provider.name} · ${conversation.model}`
            ) : (
              <span className="chat-provider-gone">
                Provider removed:{' '}
                {anyProvider ? (
                  'choose another in the settings'
                ) : (
                  <>
                    add one under <a href="#providers">LLM providers</a>
                  </>
                )}
              </span>
            )}
            {/* Which tools it offers is known once its model has loaded (the line under this one). */}
            {conversation.modelLoad?.state === 'loading'
              ? null
              : conversation.serverIds.length > 0
                ? ` · tools of ${conversation.serverIds
                    // A server removed since: its id is all that is left of it, said as gone. One not
                    // connected offers no tools: said so, as the settings say it.
                    .map((id) => {
                      const server = servers.find((s) => s.id === id);
                      if (!server) return `${id} (removed)`;
                      if (server.state.status !== 'ready') return `${server.name} (not connected)`;
                      // Some of its tools only (the settings' choice): how many.
                      const only = conversation.toolsOffered?.[id];
                      if (only === undefined) return server.name;
                      return `${server.name} (${only.length === 0 ? 'none' : only.length} chosen)`;
                    })
                    .join(', ')}`
                : noToolsWords(conversation)}
          </p>
          <ModelLoadLine conversation={conversation} afterLoad={title} />
        </div>
        <button
          type="button"
          ref={settingsButton}
          aria-expanded={settingsShown}
          onClick={() => {
            if (settingsShown) return void closeSettings();
            setSettings(true);
            setSetAside(false);
          }}
        >
          {settingsShown ? 'Close settings' : 'Settings'}
        </button>
      </header>
      {settings ? (
        <ConversationSettings
          ref={settingsForm}
          conversation={conversation}
          onDeleted={onDeleted}
          onUnsavedChange={onUnsavedChange}
          onSaved={settingsSaved}
          hidden={setAside}
          focusProvider={providerFocus}
          focusTools={toolsFocus}
        />
      ) : null}
      <MessageList
        conversation={conversation}
        onChooseProvider={() => {
          setSettings(true);
          setSetAside(false);
          setProviderFocus((n) => n + 1);
        }}
        onChooseTools={() => {
          setSettings(true);
          setSetAside(false);
          setToolsFocus((n) => n + 1);
        }}
      />
      <Composer
        conversation={conversation}
        autoFocus={focusComposer}
        initialText={initialText}
        // Set aside, the settings are out of sight: what was typed in them waits there, not sent with the message.
        beforeSend={() =>
          (settingsShown ? settingsForm.current?.saveChanges() : undefined) ?? Promise.resolve(undefined)
        }
      />
    </section>
  );
}
