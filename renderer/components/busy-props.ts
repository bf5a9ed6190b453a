/**
 * The props of a button while what it started waits on the host: `aria-disabled` rather than
 * `disabled`, since a disabled button drops the focus to the page. Its handler ignores a press
 * meanwhile (the style is `button[aria-disabled='true']`'s).
 */
export function busyProps(busy: boolean): { 'aria-disabled'?: true; 'aria-busy'?: true } {
  return busy ? { 'aria-disabled': true, 'aria-busy': true } : {};
}
