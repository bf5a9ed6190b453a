import { useEffect, useRef } from 'react';
import { useDesk } from '../shell/desk-context.js';
import { failedTaskName, failedTaskWords, failedTogetherWords, saidAsFailed, SpacedSayings } from './failed-words.js';
import type { TaskItem } from './task-items.js';

/** The page's own timers. */
const PAGE_TIMERS = {
  setTimeout: (callback: () => void, ms: number) => window.setTimeout(callback, ms),
  clearTimeout: (handle: unknown) => window.clearTimeout(handle as number)
};

/**
 * Tells a screen reader, politely, of each task that fails while the Tasks screen is shown
 * (`active`): which, and why ("fail-tool on Report Builder failed: disk full."); several that fail
 * close together are said together, a few seconds apart at most (see `SpacedSayings`). What had
 * failed before the screen was shown is no news: only a task that fails (or comes in failed)
 * while it is watched is said.
 */
export function useFailuresSaid(items: readonly TaskItem[], active: boolean): void {
  const { announce } = useDesk();
  const sayings = useRef<SpacedSayings<TaskItem> | undefined>(undefined);
  useEffect(() => {
    const spaced = new SpacedSayings<TaskItem>(
      (parts) =>
        announce(parts.length === 1 ? failedTaskWords(parts[0]!) : failedTogetherWords(parts.map(failedTaskName))),
      PAGE_TIMERS
    );
    sayings.current = spaced;
    return () => spaced.close();
  }, [announce]);
  /** The tasks said as failed (or failed already) when the screen last looked, by key; undefined while it is hidden. */
  const failed = useRef<ReadonlySet<string> | undefined>(undefined);
  useEffect(() => {
    if (!active) {
      failed.current = undefined;
      return;
    }
    const before = failed.current;
    const now = new Set(items.filter(saidAsFailed).map((item) => item.key));
    failed.current = now;
    if (before === undefined) return;
    for (const item of items) if (now.has(item.key) && !before.has(item.key)) sayings.current?.add(item);
  }, [items, active]);
}
