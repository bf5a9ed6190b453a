import type { ErrorData } from '../../app/contract/host-api.js';
import { JsonView } from '../components/json-view.js';
import { ResultView } from '../history/result-view.js';

/**
 * A `CallToolResult` as a person reads it (see {@link ResultView}: Markdown text, images,
 * resource links, structured content), with "the tool reported an error" when `isError` is set.
 */
export function ToolResultView({ result }: { result: Record<string, unknown> }) {
  return <ResultView result={Array.isArray(result.content) ? result : { content: [], ...result }} />;
}

/**
 * A JSON-RPC error as data: code and message, and its data when there is any. `rejected` for a
 * model request Taskdesk turned down (MCP's −1, "User rejected sampling request": the person's
 * Reject, or the server's sampling policy), which is a decision, not a failure.
 */
export function ErrorView({ error, rejected = false }: { error: ErrorData; rejected?: boolean }) {
  return (
    <div className={`tool-result ${rejected ? 'tool-result-rejected' : 'tool-result-error'}`}>
      <p>
        <strong>{rejected ? 'Rejected: ' : `Error ${error.code}: `}</strong>
        {error.message}
      </p>
      {error.data !== undefined ? <JsonView value={error.data} /> : null}
    </div>
  );
}
