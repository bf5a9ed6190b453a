import { useEffect, useRef, useState, type ReactNode } from 'react';

/** Whether a frame's table overflows it, and whether more of it is to the left or to the right. */
interface Overflow {
  overflows: boolean;
  left: boolean;
  right: boolean;
}

const FITS: Overflow = { overflows: false, left: false, right: false };

/**
 * A table's frame, which scrolls sideways when the table is wider than the window (the Tasks
 * table at 800 px). A shadow on an edge says that more of the table is to that side (CSS, see
 * `.table-wrap[data-more-left]`), and while the table overflows the frame is a named region that
 * takes the focus, so that the keyboard can scroll it (arrow keys) as a touchpad can; a frame
 * that fits is neither, and costs no stop in the tab order.
 */
export function TableWrap({ label, hidden, children }: { label: string; hidden?: boolean; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState<Overflow>(FITS);
  useEffect(() => {
    const frame = ref.current;
    if (!frame) return;
    const measure = () => {
      const overflows = frame.scrollWidth > frame.clientWidth + 1;
      const next = overflows
        ? {
            overflows,
            left: frame.scrollLeft > 1,
            right: frame.scrollLeft + frame.clientWidth < frame.scrollWidth - 1
          }
        : FITS;
      setOverflow((now) =>
        now.overflows === next.overflows && now.left === next.left && now.right === next.right ? now : next
      );
    };
    measure();
    // The frame changes with the window, the table with its rows: either can make it overflow.
    const observer = new ResizeObserver(measure);
    observer.observe(frame);
    if (frame.firstElementChild) observer.observe(frame.firstElementChild);
    frame.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      frame.removeEventListener('scroll', measure);
    };
  }, []);
  return (
    <div
      ref={ref}
      className="table-wrap"
      hidden={hidden}
      {...(overflow.overflows && { role: 'region', 'aria-label': label, tabIndex: 0 })}
      {...(overflow.left && { 'data-more-left': '' })}
      {...(overflow.right && { 'data-more-right': '' })}
    >
      {children}
    </div>
  );
}
