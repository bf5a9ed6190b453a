/**
 * One item of a `resources/read` result as the Desk shows it: a text's text, or a blob's type
 * and size (its base64 is never shown), or neither when the server sent something else.
 */
export type ResourceContent =
  | { kind: 'text'; uri: string; mimeType?: string; text: string }
  | { kind: 'blob'; uri: string; mimeType?: string; bytes: number }
  | { kind: 'other'; uri: string; mimeType?: string };

/** How many bytes a base64 string decodes to, counted without decoding it (whitespace ignored). */
export function base64Bytes(base64: string): number {
  const packed = base64.replace(/\s+/g, '');
  const padding = packed.endsWith('==') ? 2 : packed.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((packed.length * 3) / 4) - padding);
}

/** "1 byte", "68 bytes", "12,345 bytes". */
export function byteWords(bytes: number): string {
  return bytes === 1 ? '1 byte' : `${bytes.toLocaleString('en')} bytes`;
}

/**
 * The `contents` of a `resources/read` result, each as a {@link ResourceContent}; `fallbackUri`
 * names one that gives no uri of its own. Anything that is not an object is left out.
 */
export function resourceContents(result: Record<string, unknown>, fallbackUri: string): ResourceContent[] {
  const contents = Array.isArray(result.contents) ? (result.contents as unknown[]) : [];
  return contents.flatMap((item): ResourceContent[] => {
    if (!item || typeof item !== 'object') return [];
    const content = item as Record<string, unknown>;
    const uri = typeof content.uri === 'string' ? content.uri : fallbackUri;
    const mime = typeof content.mimeType === 'string' && content.mimeType !== '' ? { mimeType: content.mimeType } : {};
    if (typeof content.text === 'string') return [{ kind: 'text', uri, ...mime, text: content.text }];
    if (typeof content.blob === 'string') return [{ kind: 'blob', uri, ...mime, bytes: base64Bytes(content.blob) }];
    return [{ kind: 'other', uri, ...mime }];
  });
}

/**
 * How much of a resource's text the Desk shows at first. A server may answer megabytes (a stdio
 * line may be 10 MiB, an HTTP answer has no bound), and a `<pre>` that large freezes the page;
 * the rest is shown when the person asks for it.
 */
export const TEXT_SHOWN_AT_FIRST = 100_000;

/**
 * The first `limit` characters of `text` and how many are left out (0: all of it). A cut that
 * would split a surrogate pair (an emoji) is made one character sooner.
 */
export function cutText(text: string, limit = TEXT_SHOWN_AT_FIRST): { shown: string; hidden: number } {
  if (text.length <= limit) return { shown: text, hidden: 0 };
  const last = text.charCodeAt(limit - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit;
  return { shown: text.slice(0, end), hidden: text.length - end };
}

/** "1 more character not shown.", "62,345 more characters not shown." */
export function hiddenWords(hidden: number): string {
  return `${hidden.toLocaleString('en')} more ${hidden === 1 ? 'character' : 'characters'} not shown.`;
}

/** One item as the announcement of a read says it: "text, 1,234 characters", "binary contents, text/plain, 56 bytes". */
function contentWords(content: ResourceContent): string {
  const type = content.mimeType ?? 'unknown type';
  switch (content.kind) {
    case 'text':
      return `text, ${content.text.length === 1 ? '1 character' : `${content.text.length.toLocaleString('en')} characters`}`;
    case 'blob':
      return `binary contents, ${type}, ${byteWords(content.bytes)}`;
    case 'other':
      return `contents with neither text nor a blob, ${type}`;
  }
}

/**
 * What a finished read of `name` is announced as: "Read Blob Resource 1: text, 1,234 characters.",
 * each item in turn when the server sent several.
 */
export function readWords(name: string, contents: readonly ResourceContent[]): string {
  if (contents.length === 0) return `Read ${name}: the server sent no contents.`;
  if (contents.length === 1) return `Read ${name}: ${contentWords(contents[0]!)}.`;
  return `Read ${name}: ${contents.length} items: ${contents.map(contentWords).join('; ')}.`;
}
