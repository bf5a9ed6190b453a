import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Conversation } from '../../app/contract/assistant.js';
import { ActionError } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { SourcePicker, type ChosenSource } from './source-picker.js';
import { useAssistantCall } from './use-assistant-call.js';
import { waitingQuestions } from '../components/waiting-questions.js';
import { runningTaskCalls } from '../../app/contract/conversation-summary.js';
import { lastUserMessageId, stopOutcome } from './stop-outcome.js';

/**
 * Where the person writes: Enter sends (Shift+Enter for a new line), prompts and resources can
 * be attached, and Stop ends the answer and every tool call it started while the conversation
 * is busy. Stop takes Send's place as soon as Send is pressed: pressed before the host has taken
 * the message, it is kept and sent once the host has (the answer it starts is stopped). "Stopped."
 * is said once the answer shows stopped: not for a stop that came after the answer ended. The text
 * stays until the host took the message; then the message box has the focus
 * again (also after Send was clicked), as it has in a chat just started (`autoFocus`, with what
 * was typed while it started), and after Stop (whose button gives way to Send).
 */
export function Composer({
  conversation,
  autoFocus = false,
  initialText = '',
  beforeSend
}: {
  conversation: Conversation;
  autoFocus?: boolean;
  /** What was typed before the box was there (while the chat was starting). */
  initialText?: string;
  /** Runs before a message is sent (the open settings' changes are saved); a rejection keeps the message. */
  beforeSend?: () => Promise<Conversation | undefined>;
}) {
  const { client, announce } = useDesk();
  const input = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState(initialText);
  // A layout effect, the caret after what was typed: the focus comes from the starting chat's
  // box, gone in this same commit, and a key pressed before an effect ran would be lost.
  useLayoutEffect(() => {
    const box = input.current;
    if (!autoFocus || !box) return;
    box.focus();
    box.setSelectionRange(box.value.length, box.value.length);
  }, [autoFocus]);
  const [sources, setSources] = useState<ChosenSource[]>([]);
  const [picking, setPicking] = useState(false);
  const attach = useRef<HTMLButtonElement>(null);
  const send = useAssistantCall();
  const stop = useAssistantCall();
  const busy = conversation.status === 'generating' || conversation.status === 'tools';
  /** The message waits for the model New chat is loading (its header says how far). */
  const loadingModel = conversation.modelLoad?.state === 'loading';
  /** The message is on its way to the host (`assistant.send` not yet answered): Stop is offered already. */
  const [sending, setSending] = useState(false);
  /**
   * Stop was pressed while the message was on its way: the host may not have started the answer
   * yet, so the stop is sent once it has. A ref for the send that awaits, a state for the button.
   */
  const stopWanted = useRef(false);
  const [stopWaits, setStopWaits] = useState(false);
  const stopShown = busy || sending;
  /**
   * A stop the host has answered, until the conversation shows what it stopped: "Stopped." is
   * said then, and only then. A stop can stop nothing: a fast model's answer may have ended
   * before it came (pressed while the message was on its way, or just as the answer ended).
   * `after` is the person's message whose answer it stops; a message after it ends the wait.
   */
  const [stopSent, setStopSent] = useState<{ after: string | undefined }>();
  useEffect(() => {
    if (!stopSent) return;
    const outcome = stopOutcome(conversation, stopSent.after);
    if (outcome === 'waits') return;
    setStopSent(undefined);
    if (outcome === 'stopped') announce('Stopped.');
  }, [conversation, stopSent, announce]);
  const waitsForApproval = conversation.messages.some(
    (m) => m.role === 'assistant' && m.toolCalls.some((call) => call.state === 'pending-approval')
  );
  const runningTasks = useMemo(() => runningTaskCalls(conversation), [conversation]);
  const questions = useDeskState((state) => waitingQuestions(runningTasks, state.outbound, state.inbox));

  /**
   * Why Enter sent nothing, said by the box while the conversation is busy (a call waits for
   * approval, or runs, or the model answers); the text stays in the box for when it is free.
   */
  const [held, setHeld] = useState(false);
  // Free again: Enter sends once more, and the note has nothing left to say.
  if (held && !busy) setHeld(false);
  const heldId = useId();
  const whyHeld = (): string =>
    waitsForApproval
      ? 'Approve or deny the call above first, or Stop.'
      : questions > 0
        ? 'Answer the task’s question above first, or Stop.'
        : conversation.status === 'tools'
          ? 'A tool call is running: wait for it, or Stop.'
          : loadingModel
            ? 'The model is loading, then answers: wait for it, or Stop.'
            : 'The model is answering: wait for it, or Stop.';
  const heldNote = held && busy ? whyHeld() : undefined;

  const action = useRef<HTMLButtonElement>(null);
  /** Whether Stop has the focus: when it gives way to Send, the focus would otherwise fall to the page. */
  const stopFocused = useRef(false);
  useLayoutEffect(() => {
    if (stopShown || !stopFocused.current) return;
    stopFocused.current = false;
    // Send may be the very button Stop was (React keeps the element), about to be disabled.
    const now = document.activeElement;
    if (now === null || now === document.body || now === action.current) input.current?.focus();
  }, [stopShown]);

  // The turn is over (the model has answered, nothing waits on the person): a tool call's card the
  // focus was left on, once its approval or Cancel went, hands it to the message box, where the
  // person goes on. Focus the person put anywhere else stays where it is.
  const wasBusy = useRef(busy);
  useLayoutEffect(() => {
    const ended = wasBusy.current && !busy;
    wasBusy.current = busy;
    if (!ended || conversation.status !== 'idle') return;
    const now = document.activeElement;
    const pane = input.current?.closest('.chat-pane');
    if (now instanceof HTMLElement && now.matches('.chat-tool') && pane?.contains(now)) input.current?.focus();
  }, [busy, conversation.status]);

  const stopNow = () =>
    void stop.run(async () => {
      const c = await client.call('assistant.stop', { conversationId: conversation.id });
      // Said once the answer shows stopped (the host marks a stopped answer once its request closed).
      setStopSent({ after: lastUserMessageId(c) });
      return c;
    }, 'The answer was not stopped.');

  const submit = async () => {
    if (busy || sending || send.busy || text.trim() === '') return;
    stopWanted.current = false;
    setSending(true);
    // Settings open with changes not saved: the person sees them as this conversation's settings
    // (a server just ticked, a model just chosen) and expects the message to go with them, so
    // they are saved first. Should that fail, nothing is sent and the box below says why.
    const ok =
      (!beforeSend ||
        (await send.run(
          beforeSend,
          'Your message was not sent: the changes to the settings were not saved.',
          'Correct the settings above (or close them to drop the changes), then press Send again.'
        ))) &&
      (await send.run(
        () =>
          client.call('assistant.send', {
            conversationId: conversation.id,
            text,
            ...(sources.length > 0 && { sources: sources.map((s) => s.source) })
          }),
        'Your message was not sent.',
        'It is still in the box below: press Send to try again.'
      ));
    setSending(false);
    if (ok) {
      setText('');
      setSources([]);
      input.current?.focus();
    }
    if (stopWanted.current) {
      stopWanted.current = false;
      setStopWaits(false);
      // Not sent, nothing to stop; sent, the host has started the answer and can stop it now.
      if (ok) stopNow();
    }
  };

  return (
    // The picker stays outside the message's form: its prompt-arguments form would otherwise be a
    // form inside a form, whose submit the browser takes for a page submission.
    <div className="chat-composer">
      {picking ? (
        <SourcePicker
          serverIds={conversation.serverIds}
          onClose={() => {
            setPicking(false);
            attach.current?.focus();
          }}
          onAdd={(chosen) => {
            setSources((old) => [...old, chosen]);
            setPicking(false);
            announce(`${chosen.label} added to the message.`);
            // The picker (and the button chosen in it) goes: the message the source goes with is next.
            input.current?.focus();
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
            ref={attach}
            className="chat-attach"
            // The visible word first, so that "click Attach" (voice control) finds it.
            aria-label="Attach a prompt or resource"
            title="Attach a prompt or resource"
            onClick={() => setPicking(!picking)}
          >
            Attach…
          </button>
          <textarea
            ref={input}
            aria-label="Your message"
            rows={Math.min(8, Math.max(1, text.split('\n').length))}
            // The box grows to show the placeholder whole (field-sizing in assistant.css, two lines in a
            // narrow box beside Stop); `rows` is for browsers without it. The Shift+Enter hint is in the title.
            placeholder={
              waitsForApproval
                ? 'Approve or deny the call above, or stop.'
                : questions > 0
                  ? 'A task asks a question above and waits for your answer.'
                  : conversation.status === 'tools'
                    ? 'Waiting on a tool call: wait, or stop it.'
                    : busy
                      ? loadingModel
                        ? 'The model is loading, then answers: wait, or stop it.'
                        : 'The model is answering: wait, or stop it.'
                      : 'Message the model…'
            }
            title="Enter sends; Shift+Enter starts a new line"
            aria-describedby={heldNote ? heldId : undefined}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                if (busy && text.trim() !== '') {
                  // Said by the box, and announced (the note is not live: the announcement says it
                  // each time Enter is pressed, the same words again too).
                  setHeld(true);
                  announce(`Not sent. ${whyHeld()}`);
                  return;
                }
                void submit();
              }
            }}
          />
          {stopShown ? (
            <button
              type="button"
              ref={action}
              className="chat-stop"
              onFocus={() => (stopFocused.current = true)}
              // Removed with the focus on it, a button has no element to hand it to (relatedTarget null).
              onBlur={(e) => {
                if (e.relatedTarget) stopFocused.current = false;
              }}
              {...busyProps(stop.busy || stopWaits)}
              onClick={() => {
                if (stop.busy || stopWanted.current) return;
                if (busy) return stopNow();
                stopWanted.current = true;
                setStopWaits(true);
              }}
            >
              ■ Stop
            </button>
          ) : (
            <button
              type="submit"
              ref={action}
              className="primary chat-send"
              disabled={text.trim() === ''}
              {...busyProps(send.busy)}
            >
              Send
            </button>
          )}
        </div>
        {heldNote ? (
          <p id={heldId} className="field-hint chat-held-note">
            {heldNote}
          </p>
        ) : null}
      </form>
    </div>
  );
}
