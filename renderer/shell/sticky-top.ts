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
      // Fractional heights (offsetHeight rounds): a bar 114.06 px high moved up 114 px left a line in sight.
      const bar = element.querySelector<HTMLElement>('.topbar')?.getBoundingClientRect().height ?? 0;
      element.style.setProperty('--topbar-height', `${bar}px`);
      const height = element.getBoundingClientRect().height;
      const inSight = short.matches ? height - bar : height;
      page.style.setProperty('scroll-padding-top', `${inSight + 8}px`);
      // A notice that comes up (or grows) while the person is on something may cover it: the
      // focused element's top goes back below the block, as a focus moved there would be.
      const focused = document.activeElement;
      if (focused instanceof HTMLElement && focused !== document.body && !element.contains(focused)) {
        const { top, bottom } = focused.getBoundingClientRect();
        if (top < inSight && bottom > 0) focused.scrollIntoView({ block: 'start' });
      }
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
