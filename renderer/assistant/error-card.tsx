import { useState } from 'react';
import type { AssistantMessage, Conversation } from '../../app/contract/assistant.js';
import { ActionError } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { useAssistantCall } from './use-assistant-call.js';

type ErrorMessage = Extract<AssistantMessage, { role: 'error' }>;

const TITLES: Record<string, string> = {
  auth: 'The provider refused the key',
  'rate-limited': 'The provider is rate limiting',
  unreachable: 'The provider cannot be reached',
  timeout: 'The provider did not answer in time',
  'bad-request': 'The provider refused the request',
  'model-not-found': 'The model is not available',
  interrupted: 'The answer was cut off',
  'tool-limit': 'The model kept calling tools',
  setup: 'The model could not be asked'
};

/**
 * For a model file on this computer: nothing remote refused or failed to answer, the model
 * itself could not (the others read alike for a file and a server).
 */
const MODEL_FILE_TITLES: Record<string, string> = {
  'bad-request': 'The model could not take the request'
};

/** Failures whose fix is in the provider's settings (its base URL, its key). */
const PROVIDER_FIXES: ReadonlySet<string> = new Set(['unreachable', 'auth']);

/**
 * A failure of the model call, with what to do; Retry on the last one when the conversation
 * failed, and a link to LLM providers when the fix is there (an unreachable base URL, a refused
 * key). Past the tool-round limit, the limit can be raised here before retrying. While the
 * conversation's provider is no longer configured a retry cannot work: Choose a provider opens
 * the settings instead, and Retry comes back once one is saved. When the model's context could
 * not hold the descriptions of the tools offered (`reason: 'tools-too-long'`), Retry without
 * tools saves the conversation with no servers' tools and retries, and Choose tools… opens the
 * settings on the tool list of the first server. A failure after a retry says how many tries in
 * a row failed this way: a retry that fails as before shows it ran (one that failed otherwise
 * before it is not counted).
 */
export function ErrorCard({
  conversation,
  message,
  last,
  onChooseProvider,
  onChooseTools
}: {
  conversation: Conversation;
  message: ErrorMessage;
  last: boolean;
  /** Opens the conversation's settings on its provider. */
  onChooseProvider: () => void;
  /** Opens the conversation's settings on the servers whose tools it offers. */
  onChooseTools: () => void;
}) {
  const { client } = useDesk();
  const provider = useDeskState((state) => state.providers.find((p) => p.id === conversation.providerId));
  const providerGone = provider === undefined;
  const { run, busy, failure, clear } = useAssistantCall();
  const [limit, setLimit] = useState(Math.min(1000, conversation.maxToolRounds * 2));
  const retryable = last && message.retryable && conversation.status === 'failed';
  // The fix is in the provider's settings (its base URL, its key): a way there beside Retry.
  const providerFix = PROVIDER_FIXES.has(message.kind) && !providerGone;
  // Tools were what did not fit, and the conversation still offers some: a retry can go without them.
  const toolsFix = message.reason === 'tools-too-long' && conversation.serverIds.length > 0;
  const title =
    (provider?.modelFile !== undefined ? MODEL_FILE_TITLES[message.kind] : undefined) ??
    TITLES[message.kind] ??
    'The model call failed';
  const retry = () =>
    !busy &&
    void run(() => client.call('assistant.retry', { conversationId: conversation.id }), 'The retry did not start.');
  /** Saves one change to the conversation's settings, then retries with it (`failed`: said if either does not go). */
  const changeAndRetry = (change: { maxToolRounds: number } | { serverIds: string[] }, failed: string) =>
    !busy &&
    void run(async () => {
      await client.call('assistant.update', { conversationId: conversation.id, ...change });
      return client.call('assistant.retry', { conversationId: conversation.id });
    }, failed);
  return (
    <div className="chat-error" role="alert" data-error-kind={message.kind}>
      <p className="chat-error-title">{title}</p>
      <p>{message.message}</p>
      {message.tries === undefined ? null : <p className="small-text">Tried {message.tries} times.</p>}
      {retryable && providerGone ? (
        <div className="actions">
          <button type="button" className="primary" onClick={onChooseProvider}>
            Choose a provider
          </button>
        </div>
      ) : retryable || providerFix ? (
        <div className="actions">
          {message.kind === 'tool-limit' ? (
            <>
              <label>
                Rounds per message{' '}
                <input
                  type="number"
                  className="field-narrow"
                  min={1}
                  max={1000}
                  value={limit}
                  onChange={(e) => setLimit(Math.max(1, Math.min(1000, Number(e.target.value) || 1)))}
                />
              </label>
              <button
                type="button"
                className="primary"
                {...busyProps(busy)}
                onClick={() => changeAndRetry({ maxToolRounds: limit }, 'The conversation did not go on.')}
              >
                Raise the limit and go on
              </button>
            </>
          ) : retryable && toolsFix ? (
            <>
              <button
                type="button"
                className="primary"
                {...busyProps(busy)}
                onClick={() => changeAndRetry({ serverIds: [] }, 'The retry did not start.')}
              >
                Turn off tools and retry
              </button>
              <button type="button" onClick={onChooseTools}>
                Choose tools…
              </button>
              {/* Once fewer tools are chosen and saved. */}
              <button type="button" {...busyProps(busy)} onClick={retry}>
                Retry
              </button>
            </>
          ) : retryable ? (
            <button type="button" className="primary" {...busyProps(busy)} onClick={retry}>
              Retry
            </button>
          ) : null}
          {/* To the provider's own card (its key, its address). */}
          {providerFix ? (
            <a href={`#providers/${encodeURIComponent(conversation.providerId)}`}>Open LLM providers</a>
          ) : null}
        </div>
      ) : null}
      <ActionError failure={failure} onDismiss={clear} />
    </div>
  );
}
