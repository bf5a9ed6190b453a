import type { InboxItem } from '../../app/contract/host-api.js';
import type { AppContext } from '../app-context.js';
import { h, uid, type Child } from '../dom.js';
import { toHostCallError } from '../host-client.js';
import type { OnAnswered } from './elicitation-card.js';
import { formErrorElement, inboxCard, setBusy, setFormError } from './inbox-card.js';

/** A sampling item: the conversation the server sent, and a reply the user writes (or a rejection). */
export function samplingCard(item: InboxItem, context: AppContext, onAnswered: OnAnswered): HTMLElement {
  const request = item.request;
  const replyId = uid('reply');
  const replyErrorId = `${replyId}-error`;
  const modelId = uid('model');
  const reply = h('textarea', { id: replyId, name: 'reply', rows: 4, required: true, 'aria-required': 'true' });
  const replyError = h('p', { class: 'field-error', id: replyErrorId, hidden: true });
  const model = h('input', { id: modelId, name: 'model', type: 'text', value: 'human', autocomplete: 'off' });
  const formError = formErrorElement();

  const answer = async (action: 'reply' | 'reject') => {
    setFormError(formError, undefined);
    if (action === 'reply' && !reply.value.trim()) {
      replyError.textContent = 'Write a reply, or reject the request.';
      replyError.hidden = false;
      reply.setAttribute('aria-invalid', 'true');
      reply.setAttribute('aria-describedby', replyErrorId);
      reply.focus();
      return;
    }
    replyError.hidden = true;
    reply.removeAttribute('aria-invalid');
    reply.removeAttribute('aria-describedby');
    setBusy(form, true);
    try {
      await context.client.call('inbox.answer', {
        id: item.id,
        answer:
          action === 'reply'
            ? { action: 'reply', text: reply.value, model: model.value.trim() || 'human' }
            : { action: 'reject' }
      });
      context.announce(
        action === 'reply' ? `Reply sent to ${item.serverName}.` : `Request from ${item.serverName} rejected.`
      );
      onAnswered(item.id);
    } catch (error) {
      setFormError(formError, toHostCallError(error).message);
    } finally {
      setBusy(form, false);
    }
  };

  const form = h(
    'form',
    { class: 'answer-form', novalidate: true },
    h(
      'div',
      { class: 'field' },
      h('label', { for: replyId }, 'Your reply ', h('span', { class: 'required', 'aria-hidden': 'true' }, '*')),
      reply,
      replyError
    ),
    h('div', { class: 'field field-narrow' }, h('label', { for: modelId }, 'Model name'), model),
    formError,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', class: 'primary' }, 'Send reply'),
      h('button', { type: 'button', onclick: () => void answer('reject') }, 'Reject')
    )
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void answer('reply');
  });

  return inboxCard(item, 'Sampling', `${item.serverName} asks for a model reply`, conversationView(request), form);
}

/** What a sampling request asks: system prompt, messages, token limit and model hints. */
export function conversationView(request: Record<string, unknown>): Child[] {
  const messages = Array.isArray(request.messages)
    ? (request.messages as Array<{ role?: unknown; content?: unknown }>)
    : [];
  const hints = ((request.modelPreferences as { hints?: Array<{ name?: unknown }> } | undefined)?.hints ?? [])
    .map((hint) => hint.name)
    .filter((name): name is string => typeof name === 'string');
  return [
    typeof request.systemPrompt === 'string' && request.systemPrompt
      ? h('p', { class: 'system-prompt' }, h('strong', null, 'System: '), request.systemPrompt)
      : null,
    h(
      'ol',
      { class: 'messages', 'aria-label': 'Conversation' },
      messages.map((message) =>
        h(
          'li',
          { class: `message role-${String(message.role)}` },
          h('span', { class: 'role' }, String(message.role ?? 'unknown')),
          h('div', { class: 'content' }, contentView(message.content))
        )
      )
    ),
    toolsView(request),
    h(
      'p',
      { class: 'meta' },
      typeof request.maxTokens === 'number' ? `At most ${request.maxTokens} tokens` : null,
      hints.length > 0 ? [` · preferred models: ${hints.join(', ')}`] : null
    )
  ];
}

/** The tools a sampling request offers the model (`tools`, `toolChoice`), or nothing when it offers none. */
export function toolsView(request: Record<string, unknown>): Child {
  const tools = Array.isArray(request.tools)
    ? (request.tools as Array<{ name?: unknown; title?: unknown; description?: unknown }>)
    : [];
  if (tools.length === 0) return null;
  const mode = (request.toolChoice as { mode?: unknown } | undefined)?.mode;
  const choice =
    mode === 'required'
      ? 'The model must call one of them.'
      : mode === 'none'
        ? 'The model may not call them.'
        : 'The model may call them.';
  return h(
    'div',
    { class: 'offered-tools' },
    h('p', null, h('strong', null, `Tools offered (${tools.length}): `), choice),
    h(
      'ul',
      { 'aria-label': 'Tools offered to the model' },
      tools.map((tool) =>
        h(
          'li',
          null,
          h('code', null, String(tool.name ?? '?')),
          typeof tool.description === 'string' && tool.description
            ? h('span', { class: 'muted' }, ` — ${tool.description}`)
            : null
        )
      )
    )
  );
}

/** One message's content (a block or, since 2025-11-25, a list of blocks), as text. */
export function contentView(content: unknown): Child[] {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((block) => {
    const {
      type,
      text,
      name,
      input,
      content: inner
    } = (block ?? {}) as { type?: unknown; text?: unknown; name?: unknown; input?: unknown; content?: unknown };
    if (type === 'text' && typeof text === 'string') return h('p', null, text);
    if (type === 'tool_use')
      return h(
        'p',
        { class: 'tool-use' },
        'Calls ',
        h('code', null, String(name ?? '?')),
        ' with ',
        h('code', null, JSON.stringify(input ?? {}))
      );
    if (type === 'tool_result')
      return h('div', { class: 'tool-use' }, h('p', { class: 'muted' }, 'Tool result:'), contentView(inner));
    return h('p', { class: 'muted' }, `[${typeof type === 'string' ? type.replace('_', ' ') : 'unknown'} content]`);
  });
}
