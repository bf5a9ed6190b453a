/**
 * Focuses an Inbox card and scrolls the page so that it is read from its heading.
 *
 * The browser's own scroll on focus (what `j` does) leaves a card that is partly in sight where
 * it is: a card taller than the window, reached by a link or after the card above it was answered,
 * stayed with only its buttons in sight, its question and first fields above the window. Here a
 * card not wholly in sight is brought in: whole when it fits (the least scroll), otherwise with
 * its top at the top of the view, under the bar (the page's `scroll-padding-top`, see
 * sticky-top.ts). `above` is a line over the card that belongs with it (what the last answer did):
 * shown too when it and the card's header fit in the view together.
 */
export function focusCard(card: HTMLElement, above?: HTMLElement | null): void {
  card.focus({ preventScroll: true });
  const top = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
  const room = window.innerHeight - top;
  const box = card.getBoundingClientRect();
  const line = above?.getBoundingClientRect();
  const header = card.querySelector('header')?.getBoundingClientRect() ?? box;
  const lineShows = line === undefined || line.height === 0 || (line.top >= top && line.bottom <= window.innerHeight);
  if (box.top >= top && box.bottom <= window.innerHeight && lineShows) return;
  if (above && line && line.height > 0 && line.top <= box.top && header.bottom - line.top <= room)
    above.scrollIntoView({ block: 'start' });
  else card.scrollIntoView({ block: box.height <= room ? 'nearest' : 'start' });
}
