import { shellEnv } from 'shell-env';

/** The user's login-shell environment, or the reason it could not be read. */
export type LoginEnvironment = { env: Record<string, string | undefined>; warning?: string };

/** Reads a login-shell environment (a parameter, so that tests give a fake shell or none). */
export type LoginEnvResolver = () => Promise<Record<string, string | undefined>>;

/** The default: `shell-env` runs the user's shell as an interactive login shell and reads `env`. */
export const loginShellEnv =
  (shell?: string): LoginEnvResolver =>
  async () => ({ ...(await shellEnv(shell)) });

/**
 * Resolves the login environment once, with a time limit: a shell whose dotfiles hang (or ask
 * for input) must not keep servers from starting; Taskdesk's own environment stands in then.
 */
export function resolveLoginEnvironmentOnce(
  resolver: LoginEnvResolver,
  timeoutMs = 10_000
): () => Promise<LoginEnvironment> {
  let pending: Promise<LoginEnvironment> | undefined;
  return () => {
    pending ??= new Promise<LoginEnvironment>((resolve) => {
      const timer = setTimeout(
        () => resolve({ env: { ...process.env }, warning: `The login shell did not answer within ${timeoutMs} ms` }),
        timeoutMs
      );
      timer.unref();
      resolver().then(
        (env) => {
          clearTimeout(timer);
          resolve({ env });
        },
        (error: unknown) => {
          clearTimeout(timer);
          resolve({
            env: { ...process.env },
            warning: `The login shell's environment could not be read: ${String(error)}`
          });
        }
      );
    });
    return pending;
  };
}
