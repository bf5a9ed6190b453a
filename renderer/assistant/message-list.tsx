import { useLayoutEffect, useMemo, useRef } from 'react';
import type { AssistantMessage, Conversation } from '../../app/contract/assistant.js';
import { cutOffWords } from '../components/cut-off-words.js';
import { MarkdownText } from '../components/markdown-text.js';
import { useDeskState } from '../shell/desk-context.js';
import { ErrorCard } from './error-card.js';
import { ProviderFailing } from '../inbox/provider-failing.js';
import { AnswerActions, canResend, EditableUserMessage } from './message-actions.js';
import { ToolCallCard } from './tool-call-card.js';
import { waitingQuestions } from '../components/waiting-questions.js';
import { runningTaskCalls } from '../../app/contract/conversation-summary.js';

type ResultMessage = Extract<AssistantMessage, { role: 'tool' | 'notice' }>;

/** How close to the end (px) the reader counts as at the end, following what comes in. */
const AT_END = 48;

/**
 * The conversation as a chat: the person's messages on the right, the model's answers as
 * Markdown (streaming in while it writes), each tool call with its approval, task and results
 * in the answer that made it, failures with what to do. What comes in brings the view along
 * only while the reader is at the end.
 */
export function MessageList({
  conversation,
  onChooseProvider,
  onChooseTools
}: {
  conversation: Conversation;
  /** Opens the settings on the provider (a failure's way on when the provider is gone). */
  onChooseProvider: () => void;
  /** Opens the settings on the servers (a failure's way on when the tools' descriptions did not fit). */
  onChooseTools: () => void;
}) {
  const stream = useDeskState((state) => state.assistant.streams[conversation.id]);
  const provider = useDeskState((state) => state.providers.find((p) => p.id === conversation.providerId));
  const log = useRef<HTMLDivElement>(null);
  /**
   * Whether the reader is at (or near) the end: only then does what comes in (the answer as it
   * streams, tool results) bring the view along. Scrolled up to read, they stay where they are.
   */
  const following = useRef(true);
  /** The box's height at the last scroll: a scroll that comes with a new height is the box's, not the reader's. */
  const height = useRef(0);
  const seenMessages = useRef(conversation.messages.length);
  // A question a running task asks waits in its call's card, perhaps above later messages.
  const runningTasks = useMemo(() => runningTaskCalls(conversation), [conversation]);
  const questions = useDeskState((state) => waitingQuestions(runningTasks, state.outbound, state.inbox));
  const seenQuestions = useRef(questions);
  /** How many calls wait for approval: a new one is brought into view, its header too. */
  const approvals = useMemo(
    () =>
      conversation.messages.reduce(
        (n, m) => n + (m.role === 'assistant' ? m.toolCalls.filter((c) => c.state === 'pending-approval').length : 0),
        0
      ),
    [conversation.messages]
  );
  const seenApprovals = useRef(approvals);
  /** The view was held at a waiting call's header (not at the end) until that call is decided. */
  const held = useRef(false);
  // Results go under the call they answer, not where they arrived in the list.
  const byCall = useMemo(() => {
    const map = new Map<string, ResultMessage[]>();
    for (const m of conversation.messages)
      if ((m.role === 'tool' || m.role === 'notice') && m.toolCallId)
        map.set(m.toolCallId, [...(map.get(m.toolCallId) ?? []), m]);
    return map;
  }, [conversation.messages]);
  const lastIndex = conversation.messages.length - 1;
  const lastUser = conversation.messages.findLastIndex((m) => m.role === 'user');
  const resendable = canResend(conversation, lastUser);
  const lastUserMessage = conversation.messages[lastUser];
  useLayoutEffect(() => {
    const added = conversation.messages.length > seenMessages.current;
    seenMessages.current = conversation.messages.length;
    // The person's own message just sent: they expect to see it, and the answer under it.
    if (added && conversation.messages.at(-1)?.role === 'user') following.current = true;
    const asked = approvals > seenApprovals.current;
    // Decided: what comes of it (its result, the answer) is followed again.
    if (approvals < seenApprovals.current && held.current) following.current = true;
    seenApprovals.current = approvals;
    if (following.current) held.current = false;
    if (following.current) toEnd(log.current);
    // A call asking for approval: at the end, its card's header (what is called, on which server)
    // was scrolled out of a short box, only its buttons in sight. Its top is shown instead.
    const element = log.current;
    const cards = element?.querySelectorAll('.chat-tool-pending-approval');
    if (asked && following.current && element && cards?.length && headInView(element, cards[cards.length - 1]!)) {
      following.current = false;
      held.current = true;
      // Not read as the box's own move when the box changed size too (the message box's new words).
      height.current = element.clientHeight;
    }
  }, [conversation.messages, stream?.text, approvals]);
  // A new question is brought into view as what streams in is: only for a reader at the end.
  useLayoutEffect(() => {
    const asked = questions > seenQuestions.current;
    seenQuestions.current = questions;
    const element = log.current;
    if (!asked || !following.current || !element) return;
    const last = [...element.querySelectorAll('.chat-questions')].at(-1);
    if (last) intoView(element, last);
  }, [questions]);
  /** Whether the focus is in a failure's card (on its Retry): the card goes as the conversation goes on. */
  const errorFocused = useRef(false);
  /**
   * The message box the focus went to as a failure's card went with it, and what it held then: a
   * call that comes to wait for approval before the person moved or typed takes the focus on.
   */
  const handedTo = useRef<{ box: HTMLTextAreaElement; text: string } | undefined>(undefined);
  // Retry (or Raise the limit and go on) pressed, the card goes with the button, and the focus
  // would fall to the page: it goes on in the conversation, as after Approve, to the Approve of
  // the call the model makes now, else to the message box (until such a call comes).
  useLayoutEffect(() => {
    const element = log.current;
    if (!element) return;
    const now = document.activeElement;
    if (errorFocused.current && !element.contains(now)) {
      errorFocused.current = false;
      if (now === null || now === document.body) {
        const box = messageBoxOf(element);
        box?.focus();
        if (box) handedTo.current = { box, text: box.value };
      }
    }
    const handed = handedTo.current;
    if (!handed) return;
    // The person went on from there: where they are stays theirs.
    if (document.activeElement !== handed.box || handed.box.value !== handed.text) handedTo.current = undefined;
    else {
      const approve = [...element.querySelectorAll<HTMLElement>('.chat-approval > .actions > button.primary')].at(-1);
      if (approve) approve.focus();
      // The turn is over without a call to approve: the message box it is.
      const busy = conversation.status === 'generating' || conversation.status === 'tools';
      if (approve || !busy) handedTo.current = undefined;
    }
  }, [conversation.messages, conversation.status]);
  // The box shrinking (the settings opened, the window made shorter) keeps a reader at the end there.
  useLayoutEffect(() => {
    const element = log.current;
    if (!element) return;
    height.current = element.clientHeight;
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (following.current) toEnd(element);
      height.current = element.clientHeight;
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  return (
    <div
      ref={log}
      className="chat-messages"
      aria-label="Messages"
      role="log"
      aria-live="off"
      onFocus={(e) => (errorFocused.current = (e.target as Element).closest('.chat-error') !== null)}
      // Removed with the focus on it, a button has no element to hand it to (relatedTarget null).
      onBlur={(e) => {
        if (e.relatedTarget) errorFocused.current = false;
      }}
      onScroll={(e) => {
        const element = e.currentTarget;
        const resized = element.clientHeight !== height.current;
        height.current = element.clientHeight;
        // The browser moved the view as the box changed size (scroll anchoring): a reader at the end stays there.
        if (resized && following.current) return toEnd(element);
        following.current = element.scrollHeight - element.scrollTop - element.clientHeight <= AT_END;
      }}
    >
      {conversation.messages.length === 0 && !stream ? (
        <div className="chat-empty">
          <p>Ask anything. The model may use the tools of the servers chosen in the settings.</p>
          {/* Before the first message: a chat on a provider whose last call failed would fail with it. */}
          <ProviderFailing provider={provider} />
        </div>
      ) : null}
      {conversation.messages.map((m, index) => {
        switch (m.role) {
          case 'user':
            return (
              <div key={m.id} className="chat-row chat-row-user" data-role="user">
                <EditableUserMessage
                  conversation={conversation}
                  message={m}
                  editable={index === lastUser && resendable}
                >
                  <div className="chat-bubble chat-bubble-user">
                    <p className="chat-user-text">
                      <span className="sr-only">You said: </span>
                      {m.text}
                    </p>
                    {m.sources?.map((s, i) => (
                      <details key={i} className="chat-source">
                        <summary>Attached: {s.label}</summary>
                        <pre className="text-block">{s.text}</pre>
                      </details>
                    ))}
                  </div>
                </EditableUserMessage>
              </div>
            );
          case 'assistant':
            return (
              <div key={m.id} className="chat-row chat-row-assistant" data-role="assistant">
                <div className="chat-bubble chat-bubble-assistant">
                  {m.text !== '' ? (
                    <>
                      <p className="sr-only">{speaker(m.model)} said:</p>
                      <MarkdownText text={m.text} />
                    </>
                  ) : null}
                  {m.stopped ? <p className="muted small-text">(stopped)</p> : null}
                  {m.cutOff ? <p className="muted small-text">{cutOffWords(m.cutOff)}</p> : null}
                  {m.toolCalls.map((call) => (
                    <ToolCallCard
                      key={call.id}
                      conversationId={conversation.id}
                      call={call}
                      results={byCall.get(call.id) ?? []}
                    />
                  ))}
                  <AnswerActions
                    conversation={conversation}
                    text={m.text}
                    lastUser={lastUserMessage?.role === 'user' ? lastUserMessage : undefined}
                    askAgain={index === lastIndex && index > lastUser && resendable}
                  />
                </div>
              </div>
            );
          case 'tool':
            return null;
          case 'notice':
            return m.toolCallId ? null : (
              <p key={m.id} className="chat-notice muted small-text">
                <span className="sr-only">Taskdesk told the model: </span>
                {m.text}
              </p>
            );
          case 'error':
            return (
              <ErrorCard
                key={m.id}
                conversation={conversation}
                message={m}
                last={index === lastIndex}
                onChooseProvider={onChooseProvider}
                onChooseTools={onChooseTools}
              />
            );
        }
      })}
      {stream ? (
        <div className="chat-row chat-row-assistant" data-role="assistant" data-streaming="true">
          <div className="chat-bubble chat-bubble-assistant" aria-busy="true">
            <p className="sr-only">{speaker(conversation.model)} is answering:</p>
            <MarkdownText text={stream.text} />
            <span className="chat-cursor" aria-hidden="true" />
          </div>
        </div>
      ) : conversation.status === 'generating' ? (
        <div className="chat-row chat-row-assistant">
          <div
            className="chat-bubble chat-bubble-assistant chat-thinking"
            role="img"
            aria-label={`${speaker(conversation.model)} is answering`}
          >
            <span />
            <span />
            <span />
          </div>
        </div>
      ) : null}
    </div>
  );
}

/**
 * Who wrote an answer, for assistive technology (the bubbles differ only by side and colour):
 * the model it was asked of, or "The model" in conversations kept before answers named theirs.
 */
function speaker(model: string | undefined): string {
  return model ?? 'The model';
}

/** Scrolls the message box (only it) so that `target` shows: its end, or its top when it is taller than the box. */
function intoView(element: HTMLElement, target: Element): void {
  const box = element.getBoundingClientRect();
  const shown = target.getBoundingClientRect();
  const by = Math.min(shown.bottom - box.bottom, shown.top - box.top);
  if (by > 0) element.scrollTop += by;
}

/**
 * Scrolls the message box (only it) so that `target` shows, as `scrollIntoView({ block: 'nearest' })`
 * would, but its top when it is taller than the box (`nearest` keeps the end of a tall card, which
 * was the trouble). Says whether it scrolled.
 */
function headInView(element: HTMLElement, target: Element): boolean {
  const box = element.getBoundingClientRect();
  const shown = target.getBoundingClientRect();
  // Clear of the box's edge by its padding, as the first message is.
  const top = box.top + parseFloat(getComputedStyle(element).paddingTop);
  const by = shown.top < top ? shown.top - top : Math.max(0, Math.min(shown.bottom - box.bottom, shown.top - top));
  element.scrollTop += by;
  return by !== 0;
}

/** The message box of the conversation's pane the message list `element` is in. */
function messageBoxOf(element: HTMLElement): HTMLTextAreaElement | null | undefined {
  return element.closest('.chat-pane')?.querySelector<HTMLTextAreaElement>('textarea[aria-label="Your message"]');
}

/** Scrolls the message box (only it, not the page around it) to its end. */
function toEnd(element: HTMLElement | null): void {
  if (element) element.scrollTop = element.scrollHeight;
}
