/**
 * Puts the focus on the heading of the screen shown, for a control that goes with what it acted
 * on (a notice's Close): the person reads on from the top of where they are, not from the page.
 */
export function focusScreenHeading(): void {
  (document.querySelector<HTMLElement>('.screen:not([hidden]) h2') ?? document.getElementById('main'))?.focus();
}

/**
 * Puts the focus on the element with `id` (a heading an address leads to: `#servers/add`,
 * `#providers/<id>`) and scrolls it to the top of the view, under the bar (the page's
 * `scroll-padding-top`): the place the link named is where the person reads on, not a spot the
 * browser's own scroll on focus would leave it at.
 */
export function focusInSight(id: string): void {
  const element = document.getElementById(id);
  element?.focus({ preventScroll: true });
  element?.scrollIntoView({ block: 'start' });
}
