import type { ModelFiles } from '../../app/assistant/tools-fit.js';
import { localModels } from '../../app/sampling/local-model.js';

/** One load of a model file the test holds: it ends only when let go, or fails when told. */
export interface HeldLoad {
  modelFile: string;
  /** Says how far the load is (0 to 1), as llama.cpp would. */
  progress(value: number): void;
  /** Lets the load go on: the real model is loaded and counted. */
  release(): void;
  /** Fails the load with `error`. */
  fail(error: Error): void;
}

/**
 * The Assistant's model files (`HostConfig.modelFiles`) with every load held until the test lets
 * it go ({@link HeldLoad}): what a large model's long load looks like, without waiting for one.
 * Let go, a load is the process's real one (`localModels`), as the chat's model calls use.
 */
export class HeldModelLoads implements ModelFiles {
  readonly #held: HeldLoad[] = [];
  readonly #waiting: Array<(load: HeldLoad) => void> = [];

  toolsRoom: ModelFiles['toolsRoom'] = (modelFile, tools, systemPrompt, onProgress) =>
    new Promise<void>((resolve, reject) => {
      const load: HeldLoad = {
        modelFile,
        progress: (value) => onProgress?.(value),
        release: () => resolve(),
        fail: (error) => reject(error)
      };
      const waiter = this.#waiting.shift();
      if (waiter) waiter(load);
      else this.#held.push(load);
    }).then(() => localModels.toolsRoom(modelFile, tools, systemPrompt));

  /** The next load asked for (already asked, or when it is). */
  next(): Promise<HeldLoad> {
    const load = this.#held.shift();
    return load ? Promise.resolve(load) : new Promise((resolve) => this.#waiting.push(resolve));
  }
}
