import { systemClock, type Clock } from '../core/clock.js';
import { ProviderSettingsSchema, type ProviderSettings } from '../contract/providers.js';
import { Watchdog } from './watchdog.js';

/** A well-known port where a local OpenAI-compatible server usually listens. */
export interface LocalServerPort {
  /** Provider id the candidate gets, e.g. `ollama`. */
  id: string;
  name: string;
  port: number;
}

/** The usual ports: Ollama, LM Studio, llama.cpp's server, vLLM. */
export const defaultLocalPorts: readonly LocalServerPort[] = [
  { id: 'ollama', name: 'Ollama', port: 11434 },
  { id: 'lm-studio', name: 'LM Studio', port: 1234 },
  { id: 'llama-cpp', name: 'llama.cpp server', port: 8080 },
  { id: 'vllm', name: 'vLLM', port: 8000 }
];

/** Options for detection; every field has a default. */
export interface LocalDetectionOptions {
  ports?: readonly LocalServerPort[];
  /** Default 127.0.0.1: loopback only, nothing on the network is probed. */
  host?: string;
  /** Per probe; default 800 ms. */
  timeoutMs?: number;
  clock?: Clock;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}

/**
 * Probes the usual local LLM ports in parallel with `GET /v1/models`.
 *
 * Returns a candidate provider (keyless, with the models it lists) for every port that
 * answered with an OpenAI-style model list, in the order of `ports`. Ports that refuse,
 * time out or answer something else are left out; the user adds candidates explicitly.
 */
export async function detectLocalProviders(options: LocalDetectionOptions = {}): Promise<ProviderSettings[]> {
  const ports = options.ports ?? defaultLocalPorts;
  const found = await Promise.all(ports.map((port) => probe(port, options)));
  return found.filter((p): p is ProviderSettings => p !== undefined);
}

async function probe(port: LocalServerPort, options: LocalDetectionOptions): Promise<ProviderSettings | undefined> {
  const clock = options.clock ?? systemClock;
  const doFetch = options.fetch ?? fetch;
  const host = options.host ?? '127.0.0.1';
  const baseURL = `http://${host}:${port.port}/v1`;
  const controller = new AbortController();
  const watchdog = new Watchdog(clock, () => controller.abort());
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  watchdog.arm(options.timeoutMs ?? 800);
  try {
    const response = await doFetch(`${baseURL}/models`, {
      signal: controller.signal,
      headers: { accept: 'application/json' }
    });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    const body = (await response.json()) as { data?: unknown };
    if (!Array.isArray(body.data)) return undefined;
    const models = body.data
      .map((m) =>
        m && typeof m === 'object' && typeof (m as { id?: unknown }).id === 'string'
          ? (m as { id: string }).id
          : undefined
      )
      .filter((id): id is string => !!id);
    return ProviderSettingsSchema.parse({
      id: port.id,
      name: port.name,
      baseURL,
      models: models.map((name) => ({ name })),
      ...(models[0] ? { defaultModel: models[0] } : {})
    });
  } catch {
    // Nothing listening, too slow, or not JSON: not a candidate.
    return undefined;
  } finally {
    watchdog.disarm();
    options.signal?.removeEventListener('abort', onAbort);
  }
}
