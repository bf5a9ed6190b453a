import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { AssistantMessage, Conversation } from '../../app/contract/assistant.js';
import { ActionError } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { CopyButton } from '../components/copy-button.js';
import { useDesk } from '../shell/desk-context.js';
import { useAssistantCall } from './use-assistant-call.js';

type UserMessage = Extract<AssistantMessage, { role: 'user' }>;

/**
 * Whether the person's last message can be sent again now (`assistant.resend`): the conversation
 * is neither answering nor waiting on its tools, and no call after that message runs as a task
 * (the host refuses then: its result would come back to nothing).
 */
export function canResend(conversation: Conversation, lastUser: number): boolean {
  if (conversation.status === 'generating' || conversation.status === 'tools' || lastUser < 0) return false;
  return !conversation.messages
    .slice(lastUser + 1)
    .some((m) => m.role === 'assistant' && m.toolCalls.some((call) => call.state === 'task'));
}

/**
 * The message box of the conversation's pane of `element`: where the focus goes once a message
 * went again (the element it was on is gone with the message or answer it belonged to). Found
 * before the call, while `element` is still in the page.
 */
function messageBoxOf(element: HTMLElement | null): HTMLTextAreaElement | null | undefined {
  return element?.closest('.chat-pane')?.querySelector<HTMLTextAreaElement>('textarea[aria-label="Your message"]');
}

/**
 * The person's last message, with Edit: an editor in its place (Enter sends, Shift+Enter starts
 * a new line, Escape gives up), which sends it again changed, in place of all that followed it.
 */
export function EditableUserMessage({
  conversation,
  message,
  editable,
  children
}: {
  conversation: Conversation;
  message: UserMessage;
  editable: boolean;
  /** The message as shown when not edited. */
  children: ReactNode;
}) {
  const { client, announce } = useDesk();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(message.text);
  const edit = useRef<HTMLButtonElement>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const resend = useAssistantCall();
  useLayoutEffect(() => {
    if (!editing) return;
    box.current?.focus();
    box.current?.setSelectionRange(box.current.value.length, box.current.value.length);
  }, [editing]);
  const close = () => {
    setEditing(false);
    resend.clear();
    // Edit is back in place of the editor in this same commit.
    requestAnimationFrame(() => edit.current?.focus());
  };
  const send = async () => {
    if (resend.busy || text.trim() === '') return;
    const messageBox = messageBoxOf(box.current);
    const ok = await resend.run(
      () => client.call('assistant.resend', { conversationId: conversation.id, messageId: message.id, text }),
      'Your message was not sent again.',
      'It is still in the box: press Send to try again, or Cancel.'
    );
    if (!ok) return;
    announce('Sent again; what followed it was replaced.');
    messageBox?.focus();
  };

  if (editing)
    return (
      <form
        className="chat-edit"
        aria-label="Edit your message"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <textarea
          ref={box}
          aria-label="Your message, edited"
          aria-describedby={`edit-note-${message.id}`}
          rows={Math.min(10, Math.max(2, text.split('\n').length))}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault();
              close();
            } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              void send();
            }
          }}
        />
        <p className="muted small-text" id={`edit-note-${message.id}`}>
          Sending it replaces what came after it: the answers and tool calls it led to.
        </p>
        <ActionError failure={resend.failure} onDismiss={resend.clear} />
        <div className="actions">
          <button type="submit" className="primary small" disabled={text.trim() === ''} {...busyProps(resend.busy)}>
            Send
          </button>
          <button type="button" className="small" onClick={close}>
            Cancel
          </button>
        </div>
      </form>
    );
  return (
    <>
      {children}
      {editable ? (
        <div className="chat-message-actions chat-message-actions-user">
          <button
            type="button"
            ref={edit}
            className="small link-button"
            aria-label="Edit your last message"
            onClick={() => {
              setText(message.text);
              setEditing(true);
            }}
          >
            Edit
          </button>
        </div>
      ) : null}
    </>
  );
}

/**
 * Under an answer of the model: Copy (its Markdown as written), and on the last answer of the
 * conversation, Ask again (the person's last message sent again as it was, in place of the answer).
 */
export function AnswerActions({
  conversation,
  text,
  lastUser,
  askAgain
}: {
  conversation: Conversation;
  text: string;
  lastUser: UserMessage | undefined;
  askAgain: boolean;
}) {
  const { client, announce } = useDesk();
  const again = useAssistantCall();
  const row = useRef<HTMLDivElement>(null);
  if (text === '' && !askAgain) return null;
  return (
    <div className="chat-message-actions" ref={row}>
      {text !== '' ? <CopyButton text={text} label="Copy this answer" /> : null}
      {askAgain && lastUser ? (
        <button
          type="button"
          className="small"
          aria-label="Ask again: your last message, sent again for a new answer"
          title="Send your last message again for a new answer (this one is replaced)"
          {...busyProps(again.busy)}
          onClick={() => {
            if (again.busy) return;
            const messageBox = messageBoxOf(row.current);
            void again
              .run(
                () => client.call('assistant.resend', { conversationId: conversation.id, messageId: lastUser.id }),
                'Your message was not sent again.'
              )
              .then((ok) => {
                if (!ok) return;
                announce('Asked again.');
                messageBox?.focus();
              });
          }}
        >
          Ask again
        </button>
      ) : null}
      <ActionError className="compact" failure={again.failure} onDismiss={again.clear} />
    </div>
  );
}
