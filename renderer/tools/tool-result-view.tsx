import type { ErrorData } from '../../app/contract/host-api.js';
import { asText } from '../components/format.js';
import { JsonView } from '../components/json-view.js';

function Block({ block }: { block: Record<string, unknown> }) {
  switch (block.type) {
    case 'text':
      return <pre className="text-block">{typeof block.text === 'string' ? block.text : ''}</pre>;
    case 'image':
    case 'audio':
      return (
        <p className="muted">
          [{block.type}
          {typeof block.mimeType === 'string' ? `, ${block.mimeType}` : ''}]
        </p>
      );
    case 'resource_link':
      return (
        <p>
          Resource link: <code>{asText(block.uri, '')}</code>
        </p>
      );
    case 'resource': {
      const resource = (block.resource ?? {}) as Record<string, unknown>;
      return (
        <div>
          <p>
            Resource: <code>{asText(resource.uri, '')}</code>
          </p>
          {typeof resource.text === 'string' ? <pre className="text-block">{resource.text}</pre> : null}
        </div>
      );
    }
    default:
      return <p className="muted">[{typeof block.type === 'string' ? block.type : 'unknown'} content]</p>;
  }
}

/**
 * A `CallToolResult` as a person reads it: text blocks as text, other blocks named, the
 * structured content as JSON, and a plain "the tool reported an error" when `isError` is set.
 */
export function ToolResultView({ result }: { result: Record<string, unknown> }) {
  const content = Array.isArray(result.content) ? (result.content as Array<Record<string, unknown>>) : [];
  const structured = result.structuredContent;
  const isError = result.isError === true;
  return (
    <div className={`tool-result${isError ? ' tool-result-error' : ''}`} data-is-error={isError ? 'true' : undefined}>
      {isError ? <p className="result-flag">The tool reported an error:</p> : null}
      {content.length === 0 && structured === undefined ? <p className="muted">No content.</p> : null}
      {content.map((block, index) => (
        <Block key={index} block={block} />
      ))}
      {structured !== undefined ? (
        <>
          <p className="muted small-text">Structured content:</p>
          <JsonView value={structured} />
        </>
      ) : null}
    </div>
  );
}

/** A JSON-RPC error as data: code and message, and its data when there is any. */
export function ErrorView({ error }: { error: ErrorData }) {
  return (
    <div className="tool-result tool-result-error">
      <p>
        <strong>{`Error ${error.code}: `}</strong>
        {error.message}
      </p>
      {error.data !== undefined ? <JsonView value={error.data} /> : null}
    </div>
  );
}
