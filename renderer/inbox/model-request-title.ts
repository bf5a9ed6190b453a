import type { InboxItem } from '../../app/contract/host-api.js';
import { truncate } from '../components/format.js';
import { requestTitle } from '../components/request-title.js';

/** How much of a model request's last message its card's name quotes. */
export const TITLE_PROMPT_CHARS = 60;

/**
 * A model request card's heading (`title`: who asks, and for what) and its name for a screen
 * reader (`name`, heard as the focus comes to the card): the heading, then what the request asks,
 * as Tasks names a model request ("Weather Station asks to run a model: Write a storm warning
 * for…"): the first words of its last message, on one line, cut short. Every card of a server was
 * named the same ("Weather Station asks to run a model" four times), which told none of them
 * apart. The message itself shows in full under the heading, which does not say it twice.
 */
export function modelRequestTitle(item: Pick<InboxItem, 'kind' | 'serverName' | 'request'>): {
  title: string;
  name: string;
} {
  const title =
    item.kind === 'sampling-review'
      ? `Review the answer for ${item.serverName}`
      : item.kind === 'sampling'
        ? `${item.serverName} asks for a model reply`
        : `${item.serverName} asks to run a model`;
  const prompt = requestTitle(item.kind, item.request, Infinity)?.replace(/\s+/g, ' ');
  // Cut short after a word: "with the wind…", not "with the wind …".
  const asks = prompt === undefined ? undefined : truncate(prompt, TITLE_PROMPT_CHARS).replace(/\s+…$/, '…');
  return { title, name: asks === undefined ? title : `${title}: ${asks}` };
}
