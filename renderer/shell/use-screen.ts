import { useEffect, useState } from 'react';

export const SCREENS = ['assistant', 'inbox', 'tasks', 'history', 'tools', 'servers', 'providers', 'audit'] as const;
export type Screen = (typeof SCREENS)[number];
export const SCREEN_TITLES: Record<Screen, string> = {
  assistant: 'Assistant',
  inbox: 'Inbox',
  tasks: 'Tasks',
  history: 'History',
  tools: 'Tools',
  servers: 'Servers',
  providers: 'LLM providers',
  audit: 'Audit log'
};

function isScreen(value: string): value is Screen {
  return (SCREENS as readonly string[]).includes(value);
}

/**
 * The screen the URL's fragment names (`#tools`), what follows it after a slash (`#tasks/<key>`:
 * the task whose detail is open), and a counter that moves each time the user goes to another
 * screen (so focus moves to its heading then, and not on the first load nor when only the part
 * after the slash changes). Other fragments (the skip link's `#main`) are not screens: the
 * screen stays.
 */
export function useScreen(): { screen: Screen; moves: number; sub: string | undefined } {
  const read = (current: Screen): { screen: Screen; sub: string | undefined } => {
    const fragment = location.hash.slice(1);
    const slash = fragment.indexOf('/');
    const wanted = slash === -1 ? fragment : fragment.slice(0, slash);
    const sub = slash === -1 ? undefined : decodeURIComponent(fragment.slice(slash + 1)) || undefined;
    if (isScreen(wanted)) return { screen: wanted, sub };
    return { screen: location.hash ? current : 'inbox', sub: undefined };
  };
  const [route, setRoute] = useState<{ screen: Screen; moves: number; sub: string | undefined }>(() => ({
    ...read('inbox'),
    moves: 0
  }));
  useEffect(() => {
    const changed = () =>
      setRoute((old) => {
        const next = read(old.screen);
        return next.screen === old.screen ? { ...old, sub: next.sub } : { ...next, moves: old.moves + 1 };
      });
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return route;
}
