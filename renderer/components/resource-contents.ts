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
