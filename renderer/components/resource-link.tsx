import { useState } from 'react';
import { ActionError, useFailure } from './action-error.js';
import { busyProps } from './busy-props.js';
import { ExternalLink } from './external-link.js';
import { ScrollingPre } from './scrolling-pre.js';
import { useDesk } from '../shell/desk-context.js';
import { byteWords, resourceContents, type ResourceContent } from './resource-contents.js';

/** One item the server read: a text as text, a blob as its type and size, with its uri when there are several. */
function ContentItem({ content, name, several }: { content: ResourceContent; name: string; several: boolean }) {
  const type = content.mimeType ?? 'unknown type';
  return (
    <div className="resource-content" data-kind={content.kind}>
      {several ? (
        <div className="muted small-text">
          <code>{content.uri}</code>
        </div>
      ) : null}
      {content.kind === 'text' ? (
        <ScrollingPre className="json text-block" text={content.text} label={`Text of ${name}`} />
      ) : content.kind === 'blob' ? (
        <div className="muted">
          Binary contents: {type}, {byteWords(content.bytes)}
        </div>
      ) : (
        <div className="muted">Contents with neither text nor a blob ({type})</div>
      )}
    </div>
  );
}

/**
 * A tool result's `resource_link` whose server is known: its name (a link out only for http(s),
 * see {@link ExternalLink}), its uri, and Read, which asks that server for it (`resources.read`)
 * and shows what came back under the link. Pressed again, it reads the resource afresh.
 */
export function ResourceLink({ serverId, uri, name }: { serverId: string; uri: string; name: string }) {
  const { client } = useDesk();
  const [contents, setContents] = useState<ResourceContent[] | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const { failure, fail, clear } = useFailure();

  const read = () => {
    // Pressed again while it reads (aria-disabled keeps the focus on it): one read at a time.
    if (busy) return;
    setBusy(true);
    clear();
    client.call('resources.read', { serverId, uri }).then(
      (result) => {
        setContents(resourceContents(result, uri));
        setBusy(false);
      },
      (error: unknown) => {
        setContents(undefined);
        fail(`Could not read ${name}.`, error);
        setBusy(false);
      }
    );
  };

  return (
    <div className="resource-link">
      <div>
        Resource link: <ExternalLink href={uri}>{name}</ExternalLink> <code>{uri}</code>{' '}
        <button type="button" className="small" onClick={read} {...busyProps(busy)}>
          Read<span className="sr-only"> {name}</span>
        </button>
      </div>
      <ActionError failure={failure} onDismiss={clear} />
      {contents !== undefined ? (
        <div className="resource-contents">
          {contents.length === 0 ? <div className="muted">The server sent no contents for it.</div> : null}
          {contents.map((content, index) => (
            <ContentItem key={index} content={content} name={name} several={contents.length > 1} />
          ))}
        </div>
      ) : null}
    </div>
  );
}
