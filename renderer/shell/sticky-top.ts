import { useCallback, useRef } from 'react';

/**
 * A window this short (a small one, or a laptop's at 200% zoom) keeps only the notices at the
 * top: the bar scrolls away with the page rather than holding a third of its height. Must match
 * the media query of `.top-area` in styles.css.
 */
export const SHORT_WINDOW = '(max-height: 500px)';

/**
 * The ref of the block that stays at the top of the window (the bar and its notices): while it is
 * there, the page scrolls what takes the focus (or what a link names) below it, not under it. Its
 * height changes with the window's width (the sections wrap) and with each notice, so it is
 * watched; CSS alone cannot tie `scroll-padding-top` to another element's height. In a short
 * window ({@link SHORT_WINDOW}) the block sticks with its bar above the window's edge
 * (`--topbar-height`, set here), so that only its notices stay in sight.
 */
export function useStickyTop(): (element: HTMLElement | null) => void {
  const stop = useRef<(() => void) | undefined>(undefined);
  return useCallback((element: HTMLElement | null) => {
    stop.current?.();
    stop.current = undefined;
    const page = document.documentElement;
    if (!element) {
      page.style.removeProperty('scroll-padding-top');
      return;
    }
    const short = window.matchMedia(SHORT_WINDOW);
    const measure = () => {
      const bar = element.querySelector<HTMLElement>('.topbar')?.offsetHeight ?? 0;
      element.style.setProperty('--topbar-height', `${bar}px`);
      const inSight = short.matches ? element.offsetHeight - bar : element.offsetHeight;
      page.style.setProperty('scroll-padding-top', `${inSight + 8}px`);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    short.addEventListener('change', measure);
    stop.current = () => {
      observer.disconnect();
      short.removeEventListener('change', measure);
    };
    measure();
  }, []);
}
