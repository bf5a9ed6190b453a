import type { ProviderView } from '../../app/contract/providers.js';
import { providerFailingText } from './provider-failing-words.js';

/** The line of {@link providerFailingText}, with the way to the provider's card, to fix it or choose another. */
export function ProviderFailing({ provider }: { provider: ProviderView | undefined }) {
  const text = providerFailingText(provider, new Date());
  if (text === undefined || provider === undefined) return null;
  return (
    <p className="banner banner-warning provider-failing">
      {text} <ProviderLink provider={provider} />.
    </p>
  );
}

/** The way to a provider's card in LLM providers, to fix it or choose another. */
export function ProviderLink({ provider }: { provider: Pick<ProviderView, 'id' | 'name'> }) {
  return <a href={`#providers/${encodeURIComponent(provider.id)}`}>Open {provider.name} in LLM providers</a>;
}
