import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * Whether the element holds more than it shows (it scrolls): checked when `content` changes (it
 * comes with the element, `undefined` while there is none) and when the element changes size
 * (the window made shorter or taller).
 */
export function useScrolls(ref: RefObject<HTMLElement | null>, content: string | undefined): boolean {
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const check = () => setScrolls(element.scrollHeight > element.clientHeight);
    check();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(check);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, content]);
  return scrolls;
}
