import { useEffect, useRef, useState } from 'react';
import type { Conversation } from '../../app/contract/assistant.js';
import { ActionError } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { useDesk } from '../shell/desk-context.js';
import { SourcePicker, type ChosenSource } from './source-picker.js';
import { useAssistantCall } from './use-assistant-call.js';

/**
 * Where the person writes: Enter sends (Shift+Enter for a new line), prompts and resources can
 * be attached, and Stop ends the answer and every tool call it started while the conversation
 * is busy. The text stays until the host took the message; then the message box has the focus
 * again (also after Send was clicked), as it has in a chat just started (`autoFocus`).
 */
export function Composer({ conversation, autoFocus = false }: { conversation: Conversation; autoFocus?: boolean }) {
  const { client, announce } = useDesk();
  const input = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState('');
  useEffect(() => {
    if (autoFocus) input.current?.focus();
  }, [autoFocus]);
  const [sources, setSources] = useState<ChosenSource[]>([]);
  const [picking, setPicking] = useState(false);
  const send = useAssistantCall();
  const stop = useAssistantCall();
  const busy = conversation.status === 'generating' || conversation.status === 'tools';

  const submit = async () => {
    if (busy || send.busy || text.trim() === '') return;
    const ok = await send.run(
      () =>
        client.call('assistant.send', {
          conversationId: conversation.id,
          text,
          ...(sources.length > 0 && { sources: sources.map((s) => s.source) })
        }),
      'Your message was not sent.',
      'It is still in the box below: press Send to try again.'
    );
    if (ok) {
      setText('');
      setSources([]);
      input.current?.focus();
    }
  };

  return (
    // The picker stays outside the message's form: its prompt-arguments form would otherwise be a
    // form inside a form, whose submit the browser takes for a page submission.
    <div className="chat-composer">
      {picking ? (
        <SourcePicker
          serverIds={conversation.serverIds}
          onClose={() => setPicking(false)}
          onAdd={(chosen) => {
            setSources((old) => [...old, chosen]);
            setPicking(false);
            announce(`${chosen.label} added to the message.`);
          }}
        />
      ) : null}
      <form
        aria-label="Message"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        {sources.length > 0 ? (
          <ul className="chat-chips" aria-label="Attached">
            {sources.map((s, i) => (
              <li key={i}>
                {s.label}{' '}
                <button
                  type="button"
                  className="link-button"
                  aria-label={`Remove ${s.label}`}
                  onClick={() => setSources(sources.filter((_, j) => j !== i))}
                >
                  ✕
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <ActionError
          failure={send.failure ?? stop.failure}
          onDismiss={() => {
            send.clear();
            stop.clear();
          }}
        />
        <div className="chat-input-row">
          <button
            type="button"
            className="chat-attach"
            aria-label="Add a prompt or resource"
            title="Add a prompt or resource"
            onClick={() => setPicking(!picking)}
          >
            Attach…
          </button>
          <textarea
            ref={input}
            aria-label="Your message"
            rows={Math.min(8, Math.max(1, text.split('\n').length))}
            // Short enough for one line of a narrow window; the Shift+Enter hint is in the title.
            placeholder={
              conversation.status === 'tools'
                ? 'Waiting on a tool call: wait, or stop it.'
                : busy
                  ? 'The model is answering: wait, or stop it.'
                  : 'Message the model…'
            }
            title="Enter sends; Shift+Enter starts a new line"
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                void submit();
              }
            }}
          />
          {busy ? (
            <button
              type="button"
              className="chat-stop"
              {...busyProps(stop.busy)}
              onClick={() =>
                !stop.busy &&
                void stop.run(async () => {
                  const c = await client.call('assistant.stop', { conversationId: conversation.id });
                  announce('Stopped.');
                  return c;
                }, 'The answer was not stopped.')
              }
            >
              ■ Stop
            </button>
          ) : (
            <button type="submit" className="primary chat-send" disabled={text.trim() === ''} {...busyProps(send.busy)}>
              Send
            </button>
          )}
        </div>
      </form>
    </div>
  );
}
