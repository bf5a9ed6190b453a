import { useMemo } from 'react';
import { answerActionWords, answerFields, type AnswerField } from '../../app/contract/answer-words.js';
import { TOOL_REPORTED_AN_ERROR } from '../../app/contract/tool-error-words.js';
import { ExternalLink } from '../components/external-link.js';
import { asText } from '../components/format.js';
import { JsonView } from '../components/json-view.js';
import { MarkdownText } from '../components/markdown-text.js';
import { ResourceLink } from '../components/resource-link.js';
import { ScrollingPre } from '../components/scrolling-pre.js';
import { trailingJson } from '../components/trailing-json.js';

type Block = Record<string, unknown>;

/** Image types a data: URL may carry into an `<img>` (the page's CSP allows `img-src data:`). */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** A text block as Markdown; JSON it ends in as written (Markdown trims a paragraph's lines, and its indentation with them). */
function TextBlock({ text, headingLevel }: { text: string; headingLevel: number }) {
  // Looked for once per text, not at every render of a list of results.
  const split = useMemo(() => trailingJson(text), [text]);
  if (!split) return <MarkdownText text={text} className="text-block" headingLevel={headingLevel} />;
  return (
    <>
      {split.prose.trim() !== '' ? (
        <MarkdownText text={split.prose} className="text-block" headingLevel={headingLevel} />
      ) : null}
      <ScrollingPre className="json text-block" text={split.json} />
    </>
  );
}

function ContentBlock({ block, headingLevel, serverId }: { block: Block; headingLevel: number; serverId?: string }) {
  switch (block.type) {
    case 'text':
      return <TextBlock text={asText(block.text, '')} headingLevel={headingLevel} />;
    case 'image': {
      const mime = asText(block.mimeType, '');
      // Base64 only: anything else in a data: URL is not an image we show.
      if (IMAGE_TYPES.has(mime) && typeof block.data === 'string' && /^[A-Za-z0-9+/=]+$/.test(block.data))
        return <img className="result-image" alt="Image from the server" src={`data:${mime};base64,${block.data}`} />;
      return <p className="muted">[image, {mime || 'unknown type'}]</p>;
    }
    case 'resource_link': {
      const uri = asText(block.uri, '');
      const name = asText(block.name, uri);
      // Keyed: another link in its place starts unread.
      if (serverId !== undefined)
        return <ResourceLink key={`${serverId} ${uri}`} serverId={serverId} uri={uri} name={name} />;
      return (
        <div className="resource-link">
          Resource link: <ExternalLink href={uri}>{name}</ExternalLink> <code>{uri}</code>
        </div>
      );
    }
    case 'resource': {
      const resource = (block.resource ?? {}) as Block;
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
      return <p className="muted">[{asText(block.type, 'unknown')} content]</p>;
  }
}

/**
 * A result as a person reads it: a tool's content blocks (text as Markdown, images inline,
 * resource links guarded) and structured content, or a model's message, or a form's answer as
 * its fields (titled as `requestedSchema`, the form asked for, titles them); anything else, and a
 * result too large to keep, as JSON. The Tools screen, the Tasks detail and History all show
 * results with it. Headings in its Markdown rank below `headingLevel`, the level of the heading
 * the result sits under: the Tasks detail's and History's "Result" (h4) unless told otherwise.
 * `serverId` is the server whose result it is, when that is known: its resource links can then
 * be read from it (see {@link ResourceLink}); without it they show as links only.
 */
export function ResultView({
  result,
  requestedSchema,
  headingLevel = 4,
  serverId
}: {
  result: Record<string, unknown>;
  requestedSchema?: unknown;
  headingLevel?: number;
  serverId?: string;
}) {
  if (result.truncated === true)
    return (
      <p className="muted">
        The result was too large to keep ({asText(result.bytes, '?')} bytes); its start is in the JSON below.
      </p>
    );
  const content = result.content;
  const structured = result.structuredContent;
  if (Array.isArray(content) || structured !== undefined) {
    const blocks = Array.isArray(content) ? (content as Block[]) : [];
    const isError = result.isError === true;
    return (
      <div className={`tool-result${isError ? ' tool-result-error' : ''}`} data-is-error={isError ? 'true' : undefined}>
        {isError ? <p className="result-flag">{TOOL_REPORTED_AN_ERROR}</p> : null}
        {blocks.length === 0 && structured === undefined ? <p className="muted">No content.</p> : null}
        {blocks.map((block, index) => (
          <ContentBlock key={index} block={block} headingLevel={headingLevel} serverId={serverId} />
        ))}
        {structured !== undefined ? (
          <div className="structured-content">
            <p className="muted small-text">Structured content:</p>
            <JsonView value={structured} />
          </div>
        ) : null}
      </div>
    );
  }
  if (content && typeof content === 'object' && typeof result.action !== 'string')
    return (
      <div className="tool-result">
        <ContentBlock block={content as Block} headingLevel={headingLevel} serverId={serverId} />
      </div>
    );
  if (typeof result.action === 'string') {
    const fields = answerFields(content, requestedSchema);
    return (
      <div className="tool-result">
        <p>
          Answer: <strong>{answerActionWords(result.action)}</strong>
        </p>
        {fields.length > 0 ? <AnswerList fields={fields} /> : null}
      </div>
    );
  }
  return <JsonView value={result} />;
}

/**
 * The server whose result a task's or History entry's is, when it is a tool's: the server
 * Taskdesk called (a tool call requested of it), whose resource links are its own to read.
 * Undefined for what a server asked of Taskdesk (its answer is the model's or the person's).
 */
export function toolResultServer(entry: { kind: string; direction: string; serverId: string }): string | undefined {
  return entry.kind === 'tool-call' && entry.direction === 'requested' ? entry.serverId : undefined;
}

/** A form's answered fields: each field's title, then what was answered. */
export function AnswerList({ fields, className }: { fields: AnswerField[]; className?: string }) {
  return (
    <dl className={className ? `answer-fields ${className}` : 'answer-fields'}>
      {fields.map((field) => (
        <div key={field.name} data-field={field.name}>
          <dt>{field.title}</dt>
          <dd>{field.value}</dd>
        </div>
      ))}
    </dl>
  );
}
