import type { HostResult, ProviderSettings, ProviderView } from '../../app/contract/host-api.js';
import type { AppContext } from '../app-context.js';
import { append, h, replaceChildren } from '../dom.js';
import { toHostCallError } from '../host-client.js';
import { ProviderForm } from './provider-form.js';

type TestResult = HostResult<'providers.test'>;
type TestState = { kind: 'testing' } | { kind: 'done'; result: TestResult } | { kind: 'error'; message: string };

/**
 * The LLM providers screen: the saved providers (never their keys), "Test connection",
 * edit and remove; detection of local servers with one-click adding; and the provider form.
 */
export class ProvidersView {
  readonly element: HTMLElement;
  readonly #context: AppContext;
  readonly #list: HTMLElement;
  readonly #empty: HTMLElement;
  readonly #form: ProviderForm;
  readonly #detectButton: HTMLButtonElement;
  readonly #detectStatus: HTMLElement;
  readonly #detected: HTMLElement;
  #providers: ProviderView[] = [];
  #candidates: ProviderSettings[] | undefined;
  /** "Test connection" outcomes by provider id, kept across re-renders. */
  readonly #tests = new Map<string, TestState>();

  constructor(context: AppContext) {
    this.#context = context;
    this.#list = h('ul', { class: 'cards provider-list', 'aria-label': 'LLM providers' });
    this.#empty = h(
      'p',
      { class: 'empty' },
      'No provider yet: sampling requests are answered by a person. Add one below, or detect a local server.'
    );
    this.#form = new ProviderForm(context, () => void this.refresh());
    this.#detectButton = h('button', { type: 'button', onclick: () => void this.#detect() }, 'Detect local servers');
    this.#detectStatus = h('p', { class: 'muted', role: 'status' });
    this.#detected = h('ul', { class: 'detected', 'aria-label': 'Local servers found' });
    this.element = h(
      'section',
      { id: 'screen-providers', class: 'screen', 'aria-labelledby': 'heading-providers', hidden: true },
      h('h2', { id: 'heading-providers', tabindex: -1 }, 'LLM providers'),
      h(
        'p',
        { class: 'lede' },
        'OpenAI-compatible services that run sampling requests. Keys are kept in the key store and never shown.'
      ),
      this.#empty,
      this.#list,
      h(
        'section',
        { class: 'card detect', 'aria-labelledby': 'heading-detect' },
        h('div', { class: 'card-header' }, h('h3', { id: 'heading-detect' }, 'Local servers'), this.#detectButton),
        h(
          'p',
          { class: 'field-hint' },
          'Looks for Ollama, LM Studio, llama.cpp and vLLM on their usual ports of this computer.'
        ),
        this.#detectStatus,
        this.#detected
      ),
      this.#form.element
    );
  }

  /** Fetches the providers again. */
  async refresh(): Promise<void> {
    try {
      this.set(await this.#context.client.call('providers.list', {}));
    } catch (error) {
      this.#context.announce(`Could not list providers: ${toHostCallError(error).message}`);
    }
  }

  set(providers: ProviderView[]): void {
    this.#providers = providers;
    for (const id of [...this.#tests.keys()]) if (!providers.some((p) => p.id === id)) this.#tests.delete(id);
    this.#render();
    this.#renderCandidates();
  }

  #render(): void {
    this.#empty.hidden = this.#providers.length > 0;
    const active = document.activeElement as HTMLElement | null;
    const focusProvider = active?.closest<HTMLElement>('[data-provider-id]')?.dataset.providerId;
    const focusAction = active?.dataset.action;
    replaceChildren(
      this.#list,
      this.#providers.map((provider) => this.#item(provider))
    );
    if (focusProvider && focusAction) {
      const item = this.#list.querySelector<HTMLElement>(`[data-provider-id="${CSS.escape(focusProvider)}"]`);
      item?.querySelector<HTMLElement>(`[data-action="${focusAction}"]`)?.focus();
    }
  }

  #item(provider: ProviderView): HTMLElement {
    const headingId = `provider-${provider.id}-name`;
    const defaultModel = provider.defaultModel ?? provider.models[0]?.name;
    return h(
      'li',
      { class: 'card provider', 'data-provider-id': provider.id, 'aria-labelledby': headingId },
      h(
        'div',
        { class: 'card-header' },
        h('h3', { id: headingId }, provider.name),
        h(
          'span',
          { class: `status ${provider.hasKey ? 'status-ready' : ''}`, 'data-key': String(provider.hasKey) },
          provider.hasKey ? 'Key stored' : 'No key'
        )
      ),
      h(
        'dl',
        { class: 'facts' },
        h('dt', null, 'Id'),
        h('dd', null, h('code', null, provider.id)),
        h('dt', null, 'Base URL'),
        h('dd', null, h('code', { class: 'url' }, provider.baseURL)),
        h('dt', null, 'Default model'),
        h('dd', null, defaultModel ? h('code', null, defaultModel) : h('span', { class: 'muted' }, 'none')),
        provider.tokenLimitParam
          ? [h('dt', null, 'Token limit'), h('dd', null, h('code', null, provider.tokenLimitParam))]
          : null,
        h('dt', null, 'Models'),
        h(
          'dd',
          null,
          provider.models.length === 0
            ? h('span', { class: 'muted' }, 'none listed')
            : h(
                'ul',
                { class: 'model-list', 'aria-label': `Models listed for ${provider.name}` },
                provider.models.map((model) =>
                  h(
                    'li',
                    null,
                    h('code', null, model.name),
                    ratingsText(model.ratings)
                      ? h('span', { class: 'muted' }, ` — ${ratingsText(model.ratings)}`)
                      : null
                  )
                )
              )
        )
      ),
      this.#testView(provider),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          {
            type: 'button',
            'data-action': 'test',
            'aria-label': `Test connection to ${provider.name}`,
            disabled: this.#tests.get(provider.id)?.kind === 'testing',
            onclick: () => void this.#test(provider)
          },
          'Test connection'
        ),
        h(
          'button',
          {
            type: 'button',
            'data-action': 'edit',
            'aria-label': `Edit ${provider.name}`,
            onclick: () => this.#form.edit(provider)
          },
          'Edit'
        ),
        provider.hasKey
          ? h(
              'button',
              {
                type: 'button',
                'data-action': 'clear-key',
                'aria-label': `Delete the stored key of ${provider.name}`,
                onclick: () => void this.#clearKey(provider)
              },
              'Delete key'
            )
          : null,
        h(
          'button',
          {
            type: 'button',
            class: 'danger-link',
            'data-action': 'remove',
            'aria-label': `Remove ${provider.name}`,
            onclick: () => void this.#remove(provider)
          },
          'Remove'
        )
      )
    );
  }

  #testView(provider: ProviderView): HTMLElement {
    const state = this.#tests.get(provider.id);
    const box = h('div', {
      class: 'test-result',
      role: 'status',
      'data-test': state ? (state.kind === 'done' ? (state.result.ok ? 'ok' : 'failed') : state.kind) : undefined
    });
    if (!state) return box;
    if (state.kind === 'testing') {
      box.append('Testing the connection…');
      return box;
    }
    if (state.kind === 'error') {
      box.classList.add('test-failed');
      box.append(h('p', null, `Could not test: ${state.message}`));
      return box;
    }
    const result = state.result;
    if (!result.ok) {
      box.classList.add('test-failed');
      box.append(
        h('p', null, h('strong', null, 'Connection failed: '), result.message),
        h(
          'p',
          { class: 'muted small-text' },
          `${result.kind}${result.status !== undefined ? ` · HTTP ${result.status}` : ''}`
        )
      );
      return box;
    }
    box.classList.add('test-ok');
    const listed = new Set(provider.models.map((m) => m.name));
    const unlisted = result.models.filter((name) => !listed.has(name));
    append(box, [
      h(
        'p',
        null,
        h('strong', null, 'Connected. '),
        result.models.length === 0
          ? 'The server lists no models.'
          : `${result.models.length} model${result.models.length === 1 ? '' : 's'}:`
      ),
      result.models.length > 0
        ? h(
            'ul',
            { class: 'model-list', 'aria-label': `Models of ${provider.name}` },
            result.models.map((name) => h('li', null, h('code', null, name)))
          )
        : null,
      unlisted.length > 0
        ? h(
            'div',
            { class: 'actions' },
            h(
              'button',
              {
                type: 'button',
                class: 'small',
                'data-action': 'add-models',
                onclick: () => void this.#addModels(provider, unlisted)
              },
              `Add ${unlisted.length === 1 ? `${unlisted[0]}` : `${unlisted.length} models`} to the list`
            )
          )
        : null
    ]);
    return box;
  }

  async #test(provider: ProviderView): Promise<void> {
    this.#tests.set(provider.id, { kind: 'testing' });
    this.#render();
    let state: TestState;
    try {
      state = { kind: 'done', result: await this.#context.client.call('providers.test', { providerId: provider.id }) };
    } catch (error) {
      state = { kind: 'error', message: toHostCallError(error).message };
    }
    this.#tests.set(provider.id, state);
    this.#render();
    this.#context.announce(
      state.kind === 'done' && state.result.ok
        ? `${provider.name}: connected.`
        : `${provider.name}: the connection failed.`
    );
  }

  async #addModels(provider: ProviderView, names: string[]): Promise<void> {
    const { hasKey: _hasKey, ...settings } = provider;
    try {
      await this.#context.client.call('providers.save', {
        ...settings,
        models: [...provider.models, ...names.map((name) => ({ name }))]
      });
      this.#context.announce(`Added ${names.length === 1 ? names[0] : `${names.length} models`} to ${provider.name}.`);
      if (this.#form.editing?.id === provider.id) this.#form.addModels(names);
      await this.refresh();
    } catch (error) {
      this.#context.announce(`${provider.name}: ${toHostCallError(error).message}`);
    }
  }

  async #clearKey(provider: ProviderView): Promise<void> {
    const agreed = await this.#context.confirm({
      title: `Delete the key of ${provider.name}?`,
      body: h(
        'p',
        null,
        'Taskdesk deletes the stored API key; the provider stays. Requests to it then go without a key.'
      ),
      confirmLabel: 'Delete key',
      danger: true
    });
    if (!agreed) return;
    try {
      await this.#context.client.call('providers.clearKey', { providerId: provider.id });
      this.#context.announce(`Deleted the key of ${provider.name}.`);
      await this.refresh();
    } catch (error) {
      this.#context.announce(`${provider.name}: ${toHostCallError(error).message}`);
    }
  }

  async #remove(provider: ProviderView): Promise<void> {
    const agreed = await this.#context.confirm({
      title: `Remove ${provider.name}?`,
      body: h(
        'p',
        null,
        'Taskdesk forgets its settings and deletes its stored key. Sampling requests no longer run on it.'
      ),
      confirmLabel: 'Remove',
      danger: true
    });
    if (!agreed) return;
    try {
      await this.#context.client.call('providers.remove', { providerId: provider.id });
      this.#context.announce(`Removed ${provider.name}.`);
      if (this.#form.editing?.id === provider.id) this.#form.reset(false);
      await this.refresh();
      (this.#list.querySelector<HTMLElement>('button') ?? (this.element.querySelector('h2') as HTMLElement)).focus();
    } catch (error) {
      this.#context.announce(`${provider.name}: ${toHostCallError(error).message}`);
    }
  }

  async #detect(): Promise<void> {
    this.#detectButton.disabled = true;
    this.#detectStatus.textContent = 'Looking for local servers…';
    try {
      this.#candidates = await this.#context.client.call('providers.detect', {});
      this.#detectStatus.textContent =
        this.#candidates.length === 0
          ? 'No local server answered on the usual ports.'
          : `Found ${this.#candidates.length} local server${this.#candidates.length === 1 ? '' : 's'}.`;
    } catch (error) {
      this.#candidates = undefined;
      this.#detectStatus.textContent = `Could not look for local servers: ${toHostCallError(error).message}`;
    } finally {
      this.#detectButton.disabled = false;
    }
    this.#renderCandidates();
  }

  #renderCandidates(): void {
    const candidates = this.#candidates ?? [];
    replaceChildren(
      this.#detected,
      candidates.map((candidate) => {
        const added = this.#providers.find((p) => p.baseURL === candidate.baseURL);
        return h(
          'li',
          { class: 'candidate', 'data-candidate-url': candidate.baseURL },
          h(
            'div',
            null,
            h('strong', null, candidate.name),
            ' at ',
            h('code', null, candidate.baseURL),
            h(
              'div',
              { class: 'muted small-text' },
              candidate.models.length === 0
                ? 'No models listed'
                : `Models: ${candidate.models.map((m) => m.name).join(', ')}`
            )
          ),
          added
            ? h('span', { class: 'muted' }, `Added as ${added.name}`)
            : h(
                'button',
                { type: 'button', class: 'small primary', onclick: () => void this.#addCandidate(candidate) },
                `Add ${candidate.name}`
              )
        );
      })
    );
  }

  async #addCandidate(candidate: ProviderSettings): Promise<void> {
    // A provider may already use the usual id (another port, another machine): pick a free one.
    let id = candidate.id;
    for (let n = 2; this.#providers.some((p) => p.id === id); n++) id = `${candidate.id}-${n}`;
    try {
      const saved = await this.#context.client.call('providers.save', { ...candidate, id });
      this.#context.announce(`Added ${saved.name}.`);
      await this.refresh();
      this.#list.querySelector<HTMLElement>(`[data-provider-id="${CSS.escape(saved.id)}"] button`)?.focus();
    } catch (error) {
      this.#detectStatus.textContent = `Could not add ${candidate.name}: ${toHostCallError(error).message}`;
    }
  }
}

/** "cost 0.2 · speed 0.8" for the ratings that are set. */
function ratingsText(ratings: ProviderView['models'][number]['ratings']): string {
  if (!ratings) return '';
  return (['cost', 'speed', 'intelligence'] as const)
    .filter((axis) => ratings[axis] !== undefined)
    .map((axis) => `${axis} ${ratings[axis]}`)
    .join(' · ');
}
