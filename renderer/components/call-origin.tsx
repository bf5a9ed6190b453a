import type { CallOrigin } from '../../app/contract/plain-calls.js';
import { useDeskState } from '../shell/desk-context.js';

/** What a row of a call the assistant made says of it, beside its kind: the detail names the conversation. */
export { BY_THE_ASSISTANT } from '../../app/contract/call-origin-words.js';

/**
 * The fragment that opens a conversation on the Assistant screen (`#assistant/<id>`, as
 * `#tasks/<key>`), and lands on one of its tool calls when one is named (`#assistant/<id>/<call>`).
 */
export function conversationHref(conversationId: string, callId?: string): string {
  const call = callId === undefined ? '' : `/${encodeURIComponent(callId)}`;
  return `#assistant/${encodeURIComponent(conversationId)}${call}`;
}

/**
 * Where a tool call came from, when the assistant made it: its conversation by title, linked.
 * A conversation the Desk does not hold any more (deleted since) is named without a link, since
 * there is nothing to open. Nothing for the person's own calls (no origin).
 */
export function CallOriginLine({ origin }: { origin: CallOrigin | undefined }) {
  const conversationId = origin?.conversationId;
  const title = useDeskState((state) =>
    conversationId === undefined ? undefined : state.assistant.summaries.find((s) => s.id === conversationId)?.title
  );
  if (origin === undefined) return null;
  return (
    <p className="call-origin" data-conversation-id={origin.conversationId}>
      {title === undefined ? (
        'From the Assistant (a conversation since deleted)'
      ) : (
        <>
          From the Assistant, in <a href={conversationHref(origin.conversationId, origin.callId)}>{`“${title}”`}</a>
        </>
      )}
    </p>
  );
}
