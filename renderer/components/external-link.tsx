import type { ReactNode } from 'react';
import { useDesk } from '../shell/desk-context.js';
import { isHttpUrl } from './format.js';

/**
 * A link out of Taskdesk: it opens only through `openExternal`, after the person agreed in the
 * confirmation dialog; a link that is not http(s) is shown as text and goes nowhere.
 */
export function ExternalLink({ href, children }: { href: string | undefined; children: ReactNode }) {
  const { confirm, openExternal } = useDesk();
  if (!href || !isHttpUrl(href)) return <span className="dead-link">{children}</span>;
  const url = new URL(href);
  return (
    <a
      href={url.href}
      rel="noreferrer"
      onClick={(event) => {
        event.preventDefault();
        void confirm({
          title: 'Open this link?',
          body: (
            <p>
              <code className="url">{url.href}</code> opens on <strong>{url.host}</strong>, outside Taskdesk.
            </p>
          ),
          confirmLabel: 'Open link'
        }).then((agreed) => agreed && openExternal(url.href));
      }}
    >
      {children}
    </a>
  );
}
