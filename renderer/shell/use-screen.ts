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
 * The screen the URL's fragment names (`#tools`), and a counter that moves each time the user
 * goes to another screen (so focus moves to its heading then, and not on the first load).
 * Other fragments (the skip link's `#main`) are not screens: the screen stays.
 */
export function useScreen(): { screen: Screen; moves: number } {
  const read = (current: Screen): Screen => {
    const wanted = location.hash.slice(1);
    if (isScreen(wanted)) return wanted;
    return location.hash ? current : 'inbox';
  };
  const [route, setRoute] = useState<{ screen: Screen; moves: number }>(() => ({ screen: read('inbox'), moves: 0 }));
  useEffect(() => {
    const changed = () => setRoute((old) => ({ screen: read(old.screen), moves: old.moves + 1 }));
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return route;
}
