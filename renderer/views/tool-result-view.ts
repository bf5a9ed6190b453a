import type { ErrorData } from '../../app/contract/host-api.js';
import { h, type Child } from '../dom.js';

/**
 * A `CallToolResult` as a person reads it: text blocks as text, other blocks named, the
 * structured content as JSON, and a plain "the tool reported an error" when `isError` is set.
 */
export function toolResultView(result: Record<string, unknown>): HTMLElement {
  const content = Array.isArray(result.content) ? (result.content as Array<Record<string, unknown>>) : [];
  const structured = result.structuredContent;
  return h(
    'div',
    {
      class: `tool-result${result.isError === true ? ' tool-result-error' : ''}`,
      'data-is-error': result.isError === true ? 'true' : undefined
    },
    result.isError === true ? h('p', { class: 'result-flag' }, 'The tool reported an error:') : null,
    content.length === 0 && structured === undefined ? h('p', { class: 'muted' }, 'No content.') : null,
    content.map(blockView),
    structured !== undefined
      ? [
          h('p', { class: 'muted small-text' }, 'Structured content:'),
          h('pre', { class: 'json' }, JSON.stringify(structured, null, 2))
        ]
      : null
  );
}

function blockView(block: Record<string, unknown>): Child {
  switch (block.type) {
    case 'text':
      return h('pre', { class: 'text-block' }, typeof block.text === 'string' ? block.text : '');
    case 'image':
    case 'audio':
      return h(
        'p',
        { class: 'muted' },
        `[${block.type}${typeof block.mimeType === 'string' ? `, ${block.mimeType}` : ''}]`
      );
    case 'resource_link':
      return h('p', null, 'Resource link: ', h('code', null, String(block.uri ?? '')));
    case 'resource': {
      const resource = (block.resource ?? {}) as Record<string, unknown>;
      return h(
        'div',
        null,
        h('p', null, 'Resource: ', h('code', null, String(resource.uri ?? ''))),
        typeof resource.text === 'string' ? h('pre', { class: 'text-block' }, resource.text) : null
      );
    }
    default:
      return h('p', { class: 'muted' }, `[${typeof block.type === 'string' ? block.type : 'unknown'} content]`);
  }
}

/** A JSON-RPC error as data: code and message, and its data when there is any. */
export function errorView(error: ErrorData): HTMLElement {
  return h(
    'div',
    { class: 'tool-result tool-result-error' },
    h('p', null, h('strong', null, `Error ${error.code}: `), error.message),
    error.data !== undefined ? h('pre', { class: 'json' }, JSON.stringify(error.data, null, 2)) : null
  );
}
