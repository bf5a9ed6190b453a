import { askedFields } from '../../app/contract/answer-words.js';
import { asText } from '../components/format.js';
import { ConversationView } from '../inbox/conversation-view.js';
import { JsonView } from '../components/json-view.js';
import { MarkdownText } from '../components/markdown-text.js';
import type { TaskItem } from './task-items.js';

/**
 * What a task asked, as a person reads it: the tool and its arguments, the server's question
 * (Markdown) and the fields it asks for, or the messages a model is asked to answer (as the
 * Inbox shows them: each under its role, as Markdown). The request's JSON is in the raw JSON below.
 */
export function RequestView({ kind, request }: { kind: TaskItem['kind']; request: Record<string, unknown> }) {
  if (request.truncated === true)
    return <p className="muted">The request was too large to keep in History; its start is in the raw JSON.</p>;
  if (kind === 'tool-call')
    return (
      <div className="request-view">
        <p>
          Tool <code>{asText(request.name ?? request.toolName, '?')}</code>
        </p>
        {/* A call Taskdesk stopped without closing while it ran, its arguments too large to keep
            then: said so, where `{}` would read as a call without arguments. */}
        {request.arguments === undefined && typeof request.argumentsNotKept === 'string' ? (
          <p className="muted">Its arguments were not kept: {request.argumentsNotKept}.</p>
        ) : (
          <JsonView value={request.arguments ?? {}} />
        )}
      </div>
    );
  if (kind === 'elicitation')
    return (
      <div className="request-view">
        <MarkdownText text={asText(request.message, '')} />
        {typeof request.url === 'string' ? (
          <p>
            Asks you to open <code>{request.url}</code>
          </p>
        ) : null}
        {request.requestedSchema !== undefined ? <AskedFields requestedSchema={request.requestedSchema} /> : null}
      </div>
    );
  return (
    <div className="request-view">
      <ConversationView request={request} />
    </div>
  );
}

/** The fields a form asked for, as a list (title, kind of value, required), its schema's JSON behind a disclosure. */
function AskedFields({ requestedSchema }: { requestedSchema: unknown }) {
  const fields = askedFields(requestedSchema);
  return (
    <>
      {fields.length > 0 ? (
        <dl className="answer-fields asked-fields" aria-label="Fields asked for">
          {fields.map((field) => (
            <div key={field.name} data-field={field.name}>
              <dt>{field.title}</dt>
              <dd>
                {field.kind}
                {field.required ? <span className="muted"> · required</span> : null}
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="muted">It asks for no fields.</p>
      )}
      <JsonView value={requestedSchema} summary="The fields’ schema (JSON)" />
    </>
  );
}
