import { useEffect, useRef, useState } from 'react';
import { ActionError, useFailure } from './action-error.js';
import { busyProps } from './busy-props.js';
import { ExternalLink } from './external-link.js';
import { ScrollingPre } from './scrolling-pre.js';
import { useDesk } from '../shell/desk-context.js';
import {
  byteWords,
  cutText,
  hiddenWords,
  readWords,
  resourceContents,
  type ResourceContent
} from './resource-contents.js';

/**
 * A text the server read: its first `TEXT_SHOWN_AT_FIRST` characters (resource-contents.ts), and
 * Show all for the rest (after which the focus goes to the box, which then holds all of it).
 */
function TextContent({ text, name }: { text: string; name: string }) {
  const [whole, setWhole] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const { shown, hidden } = whole ? { shown: text, hidden: 0 } : cutText(text);
  useEffect(() => {
    if (whole) box.current?.querySelector<HTMLElement>('pre[tabindex]')?.focus();
  }, [whole]);
  return (
    <div ref={box}>
      <ScrollingPre className="json text-block" text={shown} label={`Text of ${name}`} />
      {hidden > 0 ? (
        <div className="muted">
          {hiddenWords(hidden)}{' '}
          <button type="button" className="small" onClick={() => setWhole(true)}>
            Show all<span className="sr-only"> of {name}</span>
          </button>
        </div>
      ) : null}
    </div>
  );
}

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
        <TextContent text={content.text} name={several ? `${name} (${content.uri})` : name} />
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
 * and shows what came back under the link (a long text cut, see {@link TextContent}), and says
 * so. Pressed again, it reads the resource afresh.
 */
export function ResourceLink({ serverId, uri, name }: { serverId: string; uri: string; name: string }) {
  const { client, announce } = useDesk();
  const [contents, setContents] = useState<ResourceContent[] | undefined>(undefined);
  // Moves with each read: what a read shows starts cut again, however much of the last was shown.
  const [reads, setReads] = useState(0);
  const [busy, setBusy] = useState(false);
  const { failure, fail, clear } = useFailure();

  const read = () => {
    // Pressed again while it reads (aria-disabled keeps the focus on it): one read at a time.
    if (busy) return;
    setBusy(true);
    clear();
    client.call('resources.read', { serverId, uri }).then(
      (result) => {
        const got = resourceContents(result, uri);
        setContents(got);
        setReads((count) => count + 1);
        setBusy(false);
        announce(readWords(name, got));
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
            <ContentItem key={`${reads}-${index}`} content={content} name={name} several={contents.length > 1} />
          ))}
        </div>
      ) : null}
    </div>
  );
}
