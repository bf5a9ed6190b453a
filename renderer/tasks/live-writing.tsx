import { useId, useRef } from 'react';
import { useScrolls } from '../components/use-scrolls.js';

/**
 * What a model has written so far for a running task, under the line that says which model,
 * in a box of limited height: while it holds more than it shows, a group named by that line
 * that the keyboard reaches, so that it can be scrolled without a mouse (WCAG 2.1.1).
 */
export function LiveWriting({ model, text }: { model: string; text: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  const scrolls = useScrolls(ref, text);
  const captionId = useId();
  return (
    <div className="live">
      <div id={captionId} className="muted small-text">{`Written by ${model} so far:`}</div>
      <p ref={ref} className="live-text" {...(scrolls && { role: 'group', tabIndex: 0, 'aria-labelledby': captionId })}>
        {text}
      </p>
    </div>
  );
}
