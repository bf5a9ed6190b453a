import { useRef } from 'react';
import { useScrolls } from './use-scrolls.js';

/**
 * Preformatted text in a box of limited height (`pre.json`): while it holds more than it shows,
 * a named group the keyboard reaches, so that it can be scrolled without a mouse (WCAG 2.1.1);
 * not before, lest every short block add a stop to the Tab order.
 */
export function ScrollingPre({
  text,
  className,
  label,
  labelledBy
}: {
  text: string;
  className?: string;
  /** What the box holds, said when it takes the focus; `labelledBy` names an element that says it instead. */
  label?: string;
  labelledBy?: string;
}) {
  const ref = useRef<HTMLPreElement>(null);
  const scrolls = useScrolls(ref, text);
  return (
    <pre
      ref={ref}
      className={className}
      {...(scrolls && {
        role: 'group',
        tabIndex: 0,
        ...(labelledBy ? { 'aria-labelledby': labelledBy } : { 'aria-label': label ?? 'JSON' })
      })}
    >
      {text}
    </pre>
  );
}
