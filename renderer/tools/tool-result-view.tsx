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
