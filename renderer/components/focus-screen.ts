/**
 * Puts the focus on the heading of the screen shown, for a control that goes with what it acted
 * on (a notice's Close): the person reads on from the top of where they are, not from the page.
 */
export function focusScreenHeading(): void {
  (document.querySelector<HTMLElement>('.screen:not([hidden]) h2') ?? document.getElementById('main'))?.focus();
}
