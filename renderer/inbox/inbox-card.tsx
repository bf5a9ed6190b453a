import { Fragment, useId, type ReactNode } from 'react';
import type { InboxItem } from '../../app/contract/host-api.js';
import { DateTime } from '../components/date-time.js';
import { MarkdownLine } from '../components/markdown-line.js';
import { useDeskState } from '../shell/desk-context.js';
import { callOfWords, taskIdTitle, waitParts } from '../components/related-task-words.js';
import { TaskKept } from '../components/task-kept.js';
import { WaitingSince, WaitNote } from '../components/waiting-since.js';
import { answerDelivery, keptNote } from './answer-delivery.js';
import { EarlierProcessNote } from './earlier-process-note.js';
import { serverMayGiveUp } from '../../app/contract/server-gives-up.js';
import { relatedTaskOf } from './server-gives-up.js';
import { CardKeyHint } from './inbox-keys.js';
import { keepsTypedText } from './typed-text.js';

/** The frame every inbox item shares: what kind, who asks, when, and for which task. */
export function InboxCard({
  item,
  kindLabel,
  title,
  name,
  markdown = false,
  children
}: {
  item: InboxItem;
  kindLabel: string;
  title: string;
  /**
   * The card's name for a screen reader, heard as the focus comes to it, when it says more than
   * `title`: what a model request asks, which tells its card from the server's others. Not the
   * heading's: the words it adds show in full just under it.
   */
  name?: string | undefined;
  /** The title is the server's message, Markdown: its words in a line (bold and code kept, no HTML). */
  markdown?: boolean;
  children: ReactNode;
}) {
  const titleId = useId();
  const warned = useDeskState((state) => state.expiring[item.id] === true);
  const server = useDeskState((state) => state.servers.find((candidate) => candidate.id === item.serverId));
  const delivery = answerDelivery(item, server);
  const note = keptNote(item, delivery);
  const apart = delivery.kind === 'kept' && delivery.startedAnew === true;
  // The tool-call task of Taskdesk's it was asked for, when the Desk knows it: a lookup in an
  // index built once for each state (`relatedTaskOf`), not a scan of every task for each card.
  // Selected as what the card says of it (whether its server may give up; "your call of
  // lookup"), so that the task's progress does not render the card.
  const mayGiveUp = useDeskState((state) => serverMayGiveUp(item, relatedTaskOf(item, state.outbound)));
  const call = useDeskState((state) => {
    const task = relatedTaskOf(item, state.outbound);
    return task && callOfWords(task);
  });
  return (
    <article
      className={`card inbox-item kind-${item.kind}${apart ? ' earlier-process-item' : ''}`}
      // Named by its heading, or by more than it shows (as the focus comes to it, by the keys).
      {...(name !== undefined && name !== title ? { 'aria-label': name } : { 'aria-labelledby': titleId })}
      data-inbox-id={item.id}
      tabIndex={-1}
    >
      <header className="card-header">
        <span className="kind-tag">{kindLabel}</span>
        <h3 id={titleId}>{markdown ? <MarkdownLine text={title} /> : title}</h3>
        <p className="meta">
          From <strong>{item.serverName}</strong> · asked <DateTime iso={item.createdAt} />
          {/* What waits on the answer and what it is for, in words: a task's id only in its tooltip. */}
          {waitParts(item, call).map((part) => (
            <Fragment key={part.words}>
              {' · '}
              {part.taskId === undefined ? part.words : <span title={taskIdTitle(part.taskId)}>{part.words}</span>}
            </Fragment>
          ))}
          {item.taskId !== undefined || item.expiresAt !== undefined ? (
            // What expires is the question's task, which Taskdesk keeps (the server asked it as one):
            // said as Tasks says it; the question leaves the Inbox unanswered when its time has passed.
            <>
              {' · '}
              <TaskKept
                direction="received"
                expiresAt={item.expiresAt}
                warnAt={item.warnAt}
                warned={warned}
                until={false}
              />
            </>
          ) : (
            <>
              {' · '}
              <WaitingSince since={item.createdAt} />
            </>
          )}
        </p>
        <CardKeyHint cardId={item.id} />
      </header>
      {note && apart ? (
        <EarlierProcessNote item={item} note={note} />
      ) : note ? (
        <p className="banner banner-warning kept-note">{note}</p>
      ) : null}
      {/* Wherever the server waits on a request with a timeout, a question for its own task too. */}
      {mayGiveUp ? (
        <WaitNote
          since={item.createdAt}
          serverName={item.serverName}
          waits={server?.waits}
          keepsTyped={
            item.kind === 'sampling' ||
            item.kind === 'sampling-review' ||
            (item.kind === 'elicitation' && item.request.mode !== 'url' && keepsTypedText(item.request.requestedSchema))
          }
        />
      ) : null}
      {children}
    </article>
  );
}
