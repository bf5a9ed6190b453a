/**
 * What may mislead a person about the site a link opens, for a URL elicitation's card and its
 * "Open this link?" dialog (MCP 2025-11-25 elicitation, "Safe URL Handling": clients SHOULD warn
 * of ambiguous or suspicious URLs, such as those containing Punycode).
 *
 * Pure: the raw URL the server sent and its parsed form in, sentences out. Only for http and
 * https links; any other the card already refuses to open.
 */

/** Why a link may not be what it seems. */
export type LinkConcern = 'lookalike' | 'credentials' | 'ip-address' | 'not-https';

/** What {@link checkLink} found: each concern, and the sentence that says it. */
export interface LinkCheck {
  concerns: LinkConcern[];
  /** One sentence a concern, in the order of `concerns`; empty when nothing was found. */
  sentences: string[];
}

/** The line after the warnings: what the person can do about them. */
export const LINK_WARNING_ADVICE = 'Open it only if you expected this site.';

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * The part of a raw URL between `//` and the path, as the server wrote it: a host in Unicode
 * (`аpple.com` with a Cyrillic а) is Punycode once parsed, and some letters (fullwidth ones) are
 * turned into others, so the parsed form alone does not say what the person was shown.
 */
function rawAuthority(raw: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(raw.trim())?.[1] ?? '';
}

/** Checks an http(s) link; `url` is `raw` parsed. */
export function checkLink(raw: string, url: URL): LinkCheck {
  const found: Array<[LinkConcern, string]> = [];
  const host = url.hostname;
  const punycode = host.split('.').some((label) => label.toLowerCase().startsWith('xn--'));
  // eslint-disable-next-line no-control-regex -- anything past ASCII is what is looked for
  const unicode = /[^\u0000-\u007f]/.test(rawAuthority(raw));
  if (punycode || unicode)
    found.push(['lookalike', `This address uses characters that can imitate another site’s name (${host}).`]);
  if (url.username !== '' || url.password !== '')
    found.push([
      'credentials',
      `This address has a name before the site (${url.username || '…'}@), which can make it look like another site; it opens ${url.host}.`
    ]);
  if (IPV4.test(host) || host.startsWith('['))
    found.push([
      'ip-address',
      `This address is a number (${host}), not a site’s name: it does not say whose site it is.`
    ]);
  if (url.protocol === 'http:')
    found.push([
      'not-https',
      'This address is not secure (http, not https): what you type on the page can be read on its way.'
    ]);
  return { concerns: found.map(([concern]) => concern), sentences: found.map(([, sentence]) => sentence) };
}
