import { z } from 'zod';

export { REGISTERED_REDIRECT_URI, isSignInRequest, revocationText, signInRequestText } from './sign-in-words.js';

/**
 * A Streamable HTTP server's OAuth sign-in as the UI sees it: never a token or a client secret.
 *
 * `sign-in-required`: the server asked for authorization and Taskdesk waits for the user to
 * agree (`auth.signIn`); `issuer` is the authorization server the sign-in page belongs to.
 * Once they agreed, `waiting` is set until the browser comes back, the sign-in fails
 * (`reason`) or it is cancelled (`auth.cancelSignIn`).
 */
/**
 * What the authorization server did when asked to revoke a sign-in the person signed out of
 * (RFC 7009): revoked it, offers no revocation (`not-offered`), or could not be told (`failed`, why).
 */
export const SignInRevocationSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('revoked') }),
  z.object({ outcome: z.literal('not-offered') }),
  z.object({ outcome: z.literal('failed'), why: z.string() })
]);
export type SignInRevocation = z.infer<typeof SignInRevocationSchema>;

export const SignInViewSchema = z.object({
  status: z.enum(['signed-out', 'sign-in-required', 'signed-in']),
  issuer: z.string().optional(),
  /** Who is signed in, when the tokens name a subject. */
  subject: z.string().optional(),
  /** Why the last sign-in failed, in words. */
  reason: z.string().optional(),
  /** The sign-in page was handed out (`auth.signIn`): Taskdesk waits for the browser to come back. */
  waiting: z.literal(true).optional(),
  /** The client id the person registered by hand (`auth.setClient`), until `auth.forgetClient`. */
  registeredClientId: z.string().optional(),
  /** After Sign out: whether the authorization server revoked the sign-in (see {@link revocationText}). */
  revocation: SignInRevocationSchema.optional(),
  /** The client registered by hand signs in without a browser (the client credentials grant). */
  clientCredentials: z.literal(true).optional(),
  /**
   * The sign-in service the client that signs in without a browser belongs to (given on the form,
   * or recorded by its first sign-in): its secret goes there only. An address, not a secret.
   */
  registeredIssuer: z.string().optional()
});
export type SignInView = z.infer<typeof SignInViewSchema>;

/** What `auth.signIn` answers: the page to open in the user's browser, or that none is needed. */
export const SignInStartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('open'), authorizationUrl: z.url(), issuer: z.string() }),
  z.object({ type: z.literal('signed-in') })
]);
export type SignInStart = z.infer<typeof SignInStartSchema>;

/** The algorithms a client's private key may sign its assertions with (`private_key_jwt`; RFC 7518 §3.1, asymmetric). */
export const ClientKeyAlgorithmSchema = z.enum([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512'
]);
export type ClientKeyAlgorithm = z.infer<typeof ClientKeyAlgorithmSchema>;

/**
 * A client registered by hand with the server's authorization server (no dynamic registration).
 *
 * With `clientCredentials`, Taskdesk signs in as the client itself, without a browser (OAuth
 * client credentials grant, the MCP client credentials extension): the client then proves
 * itself with a secret, or with a private key (`privateKey`: a JWT assertion signed with it,
 * `private_key_jwt`, RFC 7523 §2.2), one of the two. The secret or key goes to the key store
 * only; the client's proof goes only to the authorization server `issuer` names; without one,
 * to the one the server names the first time (remembered with the client from then on, and kept
 * when the same client is saved again without one).
 */
export const PreRegisteredClientSchema = z
  .object({
    serverId: z.string(),
    clientId: z.string().min(1),
    /** Kept in the key store; never shown back. */
    clientSecret: z.string().min(1).optional(),
    /** Asked for when the server names no scope. */
    scope: z.string().optional(),
    /** Sign in without a browser, as the client itself (grant_type=client_credentials). */
    clientCredentials: z.boolean().optional(),
    /**
     * Signing in without a browser, the client's private key (PEM; kept in the key store, never
     * shown back) and the algorithm its assertions are signed with, in place of a secret.
     */
    privateKey: z.object({ pem: z.string().min(1), algorithm: ClientKeyAlgorithmSchema }).optional(),
    /** The authorization server (its issuer URL) the client is registered with: its credentials go there only. */
    issuer: z.url({ protocol: /^https?$/ }).optional()
  })
  .refine(
    (client) =>
      client.clientCredentials !== true || client.clientSecret !== undefined || client.privateKey !== undefined,
    { message: 'Signing in without a browser needs the client secret or a private key.', path: ['clientSecret'] }
  )
  .refine((client) => client.privateKey === undefined || client.clientCredentials === true, {
    message: 'A private key is used only to sign in without a browser.',
    path: ['privateKey']
  })
  .refine((client) => client.privateKey === undefined || client.clientSecret === undefined, {
    message: 'Give the client secret or a private key, not both.',
    path: ['privateKey']
  });
