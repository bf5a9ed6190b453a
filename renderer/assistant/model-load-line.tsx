import { useEffect, useId, useLayoutEffect, useRef, type RefObject } from 'react';
import type { Conversation } from '../../app/contract/assistant.js';
import { ActionError } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { useDesk } from '../shell/desk-context.js';
import { loadedPart, loadedWords, loadFailedWords, loadingWords } from './model-load-words.js';
import { useAssistantCall } from './use-assistant-call.js';

/**
 * What the chat's header says of its model file while New chat has it loading (`modelLoad`):
 * "Loading stories260K…" and a bar, filled as far as llama.cpp says (with its percent), else
 * moving without end; a load that failed, why, and Retry, which loads it again. The message box
 * can be used meanwhile: a message sent waits for the load. Screen readers hear it in the Desk's
 * polite live region: "Loading …" as the chat opens loading (or loads again), then that the model
 * is ready (and why the chat offers no tools, when it left them out), or why it did not load.
 */
export function ModelLoadLine({
  conversation,
  afterLoad
}: {
  conversation: Conversation;
  /** Where the focus goes when the line goes (loaded) while it had the focus: the chat's title. */
  afterLoad: RefObject<HTMLElement | null>;
}) {
  const { client, announce } = useDesk();
  const { run, busy, failure, clear } = useAssistantCall();
  const { id, model, modelLoad, toolsOff } = conversation;
  const state = modelLoad?.state;
  const labelId = useId();
  // Retry gives way to the loading line, and that to the failure (with Retry) or to nothing: the
  // focus, when it was on the line, goes with it to what takes its place, not to the page.
  const line = useRef<HTMLElement>(null);
  const retry = useRef<HTMLButtonElement>(null);
  const hadFocus = useRef(false);
  hadFocus.current = !!line.current?.contains(document.activeElement);
  useLayoutEffect(() => {
    if (!hadFocus.current || line.current?.contains(document.activeElement)) return;
    if (state === 'loading') line.current?.focus();
    else if (state === 'failed') retry.current?.focus();
    else afterLoad.current?.focus();
  }, [state, afterLoad]);
  const message = modelLoad?.state === 'failed' ? modelLoad.message : undefined;
  /** The load last seen, of which model (unset before the first look). */
  const seen = useRef<{ model: string; state: string | undefined }>(undefined);
  useEffect(() => {
    const was = seen.current;
    seen.current = { model, state };
    // Another model since: its load is another's (that one was dropped), said only as it starts.
    const before = was?.model === model ? was : undefined;
    if (before && before.state === state) return;
    if (state === 'loading') announce(loadingWords(model));
    else if (before === undefined) return;
    else if (state === 'failed') announce(loadFailedWords(model, message ?? ''));
    else if (before.state === 'loading') announce(loadedWords(model, { toolsOff }));
  }, [model, state, message, toolsOff, announce]);
  if (modelLoad === undefined) return null;
  if (modelLoad.state === 'loading') {
    const { progress } = modelLoad;
    return (
      // Focusable from script only: it takes the focus from Retry (see above).
      <p className="chat-model-load small-text" ref={(element) => void (line.current = element)} tabIndex={-1}>
        <span id={labelId}>{loadingWords(model)}</span>
        {/* Without a value, a bar that moves without end: busy, how long unknown. */}
        <progress max={1} value={progress} aria-labelledby={labelId} />
        {progress === undefined ? null : <span aria-hidden="true">{loadedPart(progress)}</span>}
      </p>
    );
  }
  return (
    <div className="chat-model-load-failed" ref={(element) => void (line.current = element)}>
      <p>{loadFailedWords(model, modelLoad.message)}</p>
      <button
        type="button"
        ref={retry}
        {...busyProps(busy)}
        onClick={() =>
          !busy &&
          void run(() => client.call('assistant.retry', { conversationId: id }), 'The model was not loaded again.')
        }
      >
        Retry
      </button>
      <ActionError failure={failure} onDismiss={clear} />
    </div>
  );
}
