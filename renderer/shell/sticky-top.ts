import { useCallback, useRef } from 'react';

/**
 * The ref of the block that stays at the top of the window (the bar and its notices): while it is
 * there, the page scrolls what takes the focus (or what a link names) below it, not under it. Its
 * height changes with the window's width (the sections wrap) and with each notice, so it is
 * watched; CSS alone cannot tie `scroll-padding-top` to another element's height.
 */
export function useStickyTop(): (element: HTMLElement | null) => void {
  const observer = useRef<ResizeObserver | undefined>(undefined);
  return useCallback((element: HTMLElement | null) => {
    observer.current?.disconnect();
    observer.current = undefined;
    const page = document.documentElement;
    if (!element) {
      page.style.removeProperty('scroll-padding-top');
      return;
    }
    const measure = () => page.style.setProperty('scroll-padding-top', `${element.offsetHeight + 8}px`);
    observer.current = new ResizeObserver(measure);
    observer.current.observe(element);
    measure();
  }, []);
}
