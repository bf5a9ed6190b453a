import type { HostMethod, HostReply, SignInStart } from '../app/contract/host-api.js';

/**
 * Sign-in pages the person already agreed to open: the card asked "Sign in to <server> at
 * <issuer>?" and they pressed Sign in, and the host answered `auth.signIn` with the page. Its
 * `window.open` then opens in the browser without the app's second "Open link?" dialog, once.
 *
 * Only an address the host itself made for a configured server's authorization server is let
 * through, so a renderer that asked on its own could open no other page; every other link still
 * gets the dialog. Electron-free, so it is unit-tested under Node.
 */
export class AgreedSignIns {
  readonly #urls = new Set<string>();

  /** Notes the sign-in page of an `auth.signIn` answer. */
  noteReply(method: unknown, reply: HostReply<HostMethod>): void {
    if (method !== 'auth.signIn' || !reply.ok) return;
    const result = reply.result as SignInStart;
    if (result.type === 'open') this.#urls.add(result.authorizationUrl);
  }

  /** Whether `url` is such a page, on http(s) (each is let through once). */
  take(url: string): boolean {
    if (!this.#urls.delete(url)) return false;
    try {
      const { protocol } = new URL(url);
      return protocol === 'https:' || protocol === 'http:';
    } catch {
      return false;
    }
  }
}
