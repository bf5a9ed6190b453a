import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import type { Conversation } from '../../app/contract/assistant.js';
import { modelNamesOf } from '../../app/contract/model-names.js';
import { busyProps } from '../components/busy-props.js';
import { ActionError } from '../components/action-error.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { ServerPolicyControl, useServerPolicies } from './server-policies.js';
import { followed, fromConversation, sameDraft, sameSettings, toolsSaved } from './settings-draft.js';
import { ServerToolChoice } from './server-tool-choice.js';
import { useAssistantCall } from './use-assistant-call.js';

/** What the conversation pane asks of open settings. */
export interface ConversationSettingsHandle {
  /**
   * Saves the changes not saved yet (nothing when there are none), answering with the saved
   * conversation; rejects when the host refused them.
   */
  saveChanges(): Promise<Conversation | undefined>;
}

/**
 * A conversation's settings: title (rename), provider and model from the configured providers,
 * system prompt, the servers whose tools the model may use (and each one's tool-call policy),
 * the tool-round limit and image input; Delete after a confirmation.
 *
 * The form is a draft of the conversation's settings. A field the person has not edited follows
 * the conversation as the core changes it (the title a first message gives, another window's
 * save); a field they edited keeps their text until they save or close.
 */
export function ConversationSettings({
  conversation,
  onDeleted,
  onUnsavedChange,
  onSaved,
  hidden = false,
  focusProvider = 0,
  focusTools = 0,
  ref
}: {
  conversation: Conversation;
  onDeleted: () => void;
  /** Save settings saved them: the pane closes them (a save before a message is sent leaves them open). */
  onSaved?: () => void;
  /** Set aside (out of sight, the draft kept) while a call waits for approval. */
  hidden?: boolean;
  /** Told whether the form holds changes not saved (so that closing it can ask first). */
  onUnsavedChange?: (unsaved: boolean) => void;
  /** Each new value (from 1) puts the focus on the provider field. */
  focusProvider?: number;
  /**
   * Each new value (from 1) opens the tool list of the first server chosen, the focus on its first
   * tool; with none chosen, puts it on the first server's box. The servers in sight.
   */
  focusTools?: number;
  ref?: Ref<ConversationSettingsHandle>;
}) {
  const { client, confirm, announce } = useDesk();
  const providers = useDeskState((state) => state.providers);
  const servers = useDeskState((state) => state.servers);
  const { run, busy, failure, clear } = useAssistantCall();
  const current = fromConversation(conversation);
  const [draft, setDraft] = useState(current);
  /** The conversation's settings as the draft last took them in: a field equal to its value here is not edited. */
  const [seen, setSeen] = useState(current);
  if (!sameDraft(seen, current)) {
    // Adjusted while rendering (not in an effect): the form never shows the stale value for a frame.
    setSeen(current);
    setDraft(followed(draft, seen, current));
  }
  /** The draft as last saved: "Saved." shows until the next change. */
  const [savedDraft, setSavedDraft] = useState<typeof draft | undefined>(undefined);
  const policies = useServerPolicies(draft.serverIds);
  const unsaved = !sameSettings(draft, current);
  useEffect(() => onUnsavedChange?.(unsaved), [unsaved, onUnsavedChange]);
  useEffect(() => () => onUnsavedChange?.(false), [onUnsavedChange]);
  const titleField = useRef<HTMLInputElement>(null);
  const providerField = useRef<HTMLSelectElement>(null);
  // Shown (opened, or brought back after being set aside), the settings take the focus on their
  // first field, the title: left on the button that opened them, which says "Close settings" in
  // the same place, a second press closed them again. Before the provider's focus below, which
  // wins when Choose a provider opened them.
  useEffect(() => {
    if (!hidden) titleField.current?.focus();
  }, [hidden]);
  useEffect(() => {
    if (focusProvider > 0) providerField.current?.focus();
  }, [focusProvider]);
  const serversField = useRef<HTMLFieldSetElement>(null);
  /**
   * The server whose tool list Choose tools… opened: the first chosen when it was pressed (its
   * list takes the focus itself), kept while others are ticked.
   */
  const [toolsFocus, setToolsFocus] = useState<{ at: number; serverId?: string; toServers: boolean }>({
    at: 0,
    toServers: false
  });
  if (focusTools !== toolsFocus.at) {
    const first = servers.find((server) => draft.serverIds.includes(server.id));
    setToolsFocus({ at: focusTools, toServers: first === undefined, ...(first && { serverId: first.id }) });
  } else if (toolsFocus.serverId !== undefined && !draft.serverIds.includes(toolsFocus.serverId)) {
    // Its list was opened once: ticked again, the server's list is closed as any other's, and
    // does not take the focus from its box.
    setToolsFocus({ at: toolsFocus.at, toServers: false });
  }
  const { at: toolsAt, toServers } = toolsFocus;
  useEffect(() => {
    if (toolsAt === 0) return;
    const servers = serversField.current;
    if (toServers) servers?.querySelector<HTMLInputElement>('input[type="checkbox"]')?.focus({ preventScroll: true });
    servers?.scrollIntoView({ block: 'nearest' });
  }, [toolsAt, toServers]);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    // Escape on the button that opened the settings (it says "Close settings" now, a Shift+Tab
    // away from the title) closes them as Escape in the form does, by that button, which asks
    // first when changes would be lost and takes the focus back. The pane's own Escape hears
    // only the form.
    const pane = form.current?.closest('.chat-pane');
    if (!pane) return;
    const escape = (event: Event) => {
      const target = event.target as HTMLElement;
      if ((event as KeyboardEvent).key !== 'Escape' || event.defaultPrevented) return;
      if (!target.matches('.chat-header button[aria-expanded="true"]')) return;
      event.preventDefault();
      target.click();
    };
    pane.addEventListener('keydown', escape);
    return () => pane.removeEventListener('keydown', escape);
  }, []);

  /** Saves the draft; answers with the conversation as saved. */
  const persist = async () => {
    const saved = await client.call('assistant.update', {
      conversationId: conversation.id,
      title: draft.title.trim() || conversation.title,
      providerId: draft.providerId,
      model: draft.model,
      systemPrompt: draft.systemPrompt.trim() === '' ? null : draft.systemPrompt,
      serverIds: draft.serverIds,
      toolsOffered: toolsSaved(draft),
      maxToolRounds: draft.maxToolRounds,
      imageInput: draft.imageInput
    });
    announce('Conversation settings saved.');
    setSavedDraft(draft);
    return saved;
  };
  useImperativeHandle(ref, () => ({ saveChanges: () => (unsaved ? persist() : Promise.resolve(undefined)) }));

  const provider = providers.find((p) => p.id === draft.providerId);
  const models = provider ? modelNamesOf(provider) : [];
  if (draft.model && !models.includes(draft.model)) models.unshift(draft.model);

  const save = () => {
    if (busy) return;
    // Saved, the settings have done their part: closed, the chat they hid is back in sight.
    void run(persist, 'The settings were not saved.').then((ok) => ok && onSaved?.());
  };

  const remove = async () => {
    const agreed = await confirm({
      title: 'Delete this conversation?',
      body: <p>“{conversation.title}” and all its messages are deleted. Tool calls still running are stopped.</p>,
      confirmLabel: 'Delete conversation',
      danger: true
    });
    if (!agreed || busy) return;
    const title = conversation.title;
    const ok = await run(async () => {
      await client.call('assistant.delete', { conversationId: conversation.id });
      return undefined;
    }, 'The conversation was not deleted.');
    if (!ok) return;
    announce(`Conversation “${title}” deleted.`);
    onDeleted();
  };

  return (
    <form
      ref={form}
      hidden={hidden}
      className="chat-settings"
      aria-label="Conversation settings"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
      // Enter in a field submits the form (Save settings, which closes them). With nothing changed
      // nothing is saved nor closed: a second Enter on Settings, now in the title, leaves them open.
      onKeyDown={(event) => {
        if (event.key === 'Enter' && !unsaved && event.target instanceof HTMLInputElement) event.preventDefault();
      }}
    >
      {/* The fields scroll in a box of their own above Save and Delete, not under them: a field
          scrolled to (by Tab too) shows whole, never behind the buttons. */}
      <div className="chat-settings-fields">
        <div className="chat-settings-grid">
          <label className="field">
            <span>Title</span>
            <input
              ref={titleField}
              type="text"
              value={draft.title}
              maxLength={200}
              onChange={(e) => setDraft({ ...draft, title: e.target.value })}
            />
          </label>
          <label className="field">
            <span>Provider</span>
            <select
              ref={providerField}
              value={draft.providerId}
              onChange={(e) => {
                const next = providers.find((p) => p.id === e.target.value);
                // Another provider's models are its own: the old model name would name nothing there.
                // Its default model, as a new chat on it would start with.
                const model = next ? (next.defaultModel ?? modelNamesOf(next)[0]) : undefined;
                setDraft({ ...draft, providerId: e.target.value, model: model ?? draft.model });
              }}
            >
              {provider ? null : <option value={draft.providerId}>Provider removed: choose another</option>}
              {providers.map((p) => {
                // A provider that lists no model has nothing to chat with: shown, so that its absence is not a puzzle.
                const empty = modelNamesOf(p).length === 0;
                return (
                  <option key={p.id} value={p.id} disabled={empty && p.id !== draft.providerId}>
                    {empty ? `${p.name} (no models: add one under LLM providers)` : p.name}
                  </option>
                );
              })}
            </select>
          </label>
          <label className="field">
            <span>Model</span>
            <select value={draft.model} onChange={(e) => setDraft({ ...draft, model: e.target.value })}>
              {models.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
          <label className="field chat-settings-prompt">
            <span>System prompt</span>
            <textarea
              rows={2}
              value={draft.systemPrompt}
              placeholder="Optional: how the model should behave in this conversation"
              onChange={(e) => setDraft({ ...draft, systemPrompt: e.target.value })}
              // Focused, a text area is scrolled only as far as its caret's line: at 800×600 its
              // second line stayed cut by the foot of the fields' box. Shown whole, as the other
              // fields are (the least scroll that does it; nothing moves when it is in sight).
              onFocus={(e) => e.currentTarget.scrollIntoView({ block: 'nearest' })}
            />
          </label>
          <label className="field">
            <span>Tool rounds per message</span>
            <input
              type="number"
              min={1}
              max={1000}
              value={draft.maxToolRounds}
              onChange={(e) =>
                setDraft({ ...draft, maxToolRounds: Math.max(1, Math.min(1000, Number(e.target.value) || 1)) })
              }
            />
          </label>
        </div>
        <fieldset className="chat-servers" ref={serversField}>
          <legend>Servers whose tools the model may use</legend>
          {servers.length === 0 ? (
            <p className="muted small-text">No servers are configured.</p>
          ) : (
            <p className="field-hint">
              Beside each chosen server: how its tool calls are handled in every conversation (saved at once).
            </p>
          )}
          {servers.map((server) => {
            const chosen = draft.serverIds.includes(server.id);
            return (
              <div key={server.id} className="chat-server-row">
                <div className="chat-server-main">
                  <label className="checkbox-row">
                    <input
                      type="checkbox"
                      checked={chosen}
                      onChange={(e) =>
                        setDraft({
                          ...draft,
                          serverIds: e.target.checked
                            ? [...draft.serverIds, server.id]
                            : draft.serverIds.filter((id) => id !== server.id)
                        })
                      }
                    />
                    <span>
                      {server.name}
                      {server.state.status === 'ready' ? null : (
                        <span className="muted small-text"> (not connected: its tools are not offered)</span>
                      )}
                    </span>
                  </label>
                  {chosen ? (
                    <ServerToolChoice
                      serverId={server.id}
                      serverName={server.name}
                      only={draft.toolsOffered[server.id]}
                      openWith={server.id === toolsFocus.serverId ? toolsFocus.at : 0}
                      onChange={(only) => {
                        const { [server.id]: _was, ...others } = draft.toolsOffered;
                        setDraft({
                          ...draft,
                          toolsOffered: only === undefined ? others : { ...others, [server.id]: only }
                        });
                      }}
                    />
                  ) : null}
                </div>
                {chosen ? (
                  <ServerPolicyControl
                    name={server.name}
                    policy={policies.policies[server.id]}
                    onChange={(policy) => void policies.set(server.id, policy)}
                  />
                ) : null}
              </div>
            );
          })}
          <ActionError failure={policies.failure} onDismiss={policies.clear} />
        </fieldset>
        <label className="checkbox-row">
          <input
            type="checkbox"
            checked={draft.imageInput}
            onChange={(e) => setDraft({ ...draft, imageInput: e.target.checked })}
          />
          Send tool-result images to the model (turn off for text-only models)
        </label>
      </div>
      {/* Out of the scrolled fields: why Save failed shows by it, in sight. */}
      <ActionError failure={failure} onDismiss={clear} />
      <div className="actions">
        <span className="actions">
          <button type="submit" className="primary" {...busyProps(busy)}>
            Save settings
          </button>
          {savedDraft === draft ? <span className="muted">Saved.</span> : null}
        </span>
        <button type="button" className="danger" onClick={() => void remove()} {...busyProps(busy)}>
          Delete conversation
        </button>
      </div>
    </form>
  );
}
