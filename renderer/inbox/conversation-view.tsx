import { asText } from '../components/format.js';
import { MarkdownText } from '../components/markdown-text.js';
import { MessageContent } from './message-content.js';

type Message = { role?: unknown; content?: unknown };

/** The tools a sampling request offers the model (`tools`, `toolChoice`), or nothing when it offers none. */
function OfferedTools({ request }: { request: Record<string, unknown> }) {
  const tools = Array.isArray(request.tools) ? (request.tools as Array<{ name?: unknown; description?: unknown }>) : [];
  if (tools.length === 0) return null;
  const mode = (request.toolChoice as { mode?: unknown } | undefined)?.mode;
  const choice =
    mode === 'required'
      ? 'The model must call one of them.'
      : mode === 'none'
        ? 'The model may not call them.'
        : 'The model may call them.';
  return (
    <div className="offered-tools">
      <p>
        <strong>Tools offered ({tools.length}): </strong>
        {choice}
      </p>
      <ul aria-label="Tools offered to the model">
        {tools.map((tool, index) => (
          <li key={index}>
            <code>{asText(tool.name, '?')}</code>
            {typeof tool.description === 'string' && tool.description ? (
              <span className="muted"> — {tool.description}</span>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * What a sampling request asks: system prompt, messages (each under its role, its text as
 * Markdown), tools, token limit and model hints. The Inbox, a task's detail and a History entry
 * all show a request this way.
 */
export function ConversationView({ request }: { request: Record<string, unknown> }) {
  const messages = Array.isArray(request.messages) ? (request.messages as Message[]) : [];
  const hints = ((request.modelPreferences as { hints?: Array<{ name?: unknown }> } | undefined)?.hints ?? [])
    .map((hint) => hint.name)
    .filter((name): name is string => typeof name === 'string');
  return (
    <>
      {typeof request.systemPrompt === 'string' && request.systemPrompt ? (
        <div className="system-prompt">
          <strong>System prompt</strong>
          <MarkdownText text={request.systemPrompt} />
        </div>
      ) : null}
      <ol className="messages" aria-label="Conversation">
        {messages.map((message, index) => (
          <li key={index} className={`message role-${asText(message.role, 'unknown')}`}>
            <span className="role">{asText(message.role, 'unknown')}</span>
            <div className="content">
              <MessageContent content={message.content} />
            </div>
          </li>
        ))}
      </ol>
      <OfferedTools request={request} />
      <p className="meta">
        {typeof request.maxTokens === 'number' ? `At most ${request.maxTokens} tokens` : null}
        {hints.length > 0 ? ` · preferred models: ${hints.join(', ')}` : null}
      </p>
    </>
  );
}
