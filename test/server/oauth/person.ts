import type { OAuthClientMetadata, OAuthClientProvider, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import { formToken, type KeysShim } from '../../helpers/keys-shim.js';

/**
 * What a person does in the browser when an assistant sends them to sign in: the sign-in page, the
 * mail, the consent page, a choice (a key's id, or null to refuse). Returns where the consent
 * page sends the browser: the client's redirect URI with the code (or the refusal) and `iss`.
 */
export async function signInAndChoose(
  s: KeysShim,
  authorizationUrl: URL,
  email: string,
  keyId: string | null,
  client = { name: 'Test Assistant', redirectHost: '127.0.0.1:9' },
): Promise<URL> {
  const signIn = await s.get(authorizationUrl.href);
  expect(signIn.status, signIn.html).toBe(200);
  expect(signIn.html).toContain(client.name);
  expect(signIn.html).toContain(client.redirectHost);
  const request = /name="request" value="([^"]+)"/.exec(signIn.html)![1]!;
  const sent = await s.post('/oauth/sign-in', { request, email });
  expect(sent.status).toBe(200);
  const mail = await s.inbox!.next(email);
  expect(mail.subject).toBe('Connect an assistant to the ESG API');
  expect(mail.text).toContain(client.name);
  const consent = await s.get(mail.link);
  expect(consent.status).toBe(200);
  // The consent page's form leads on to the client's redirect: its policy allows exactly that origin.
  expect(consent.headers.get('content-security-policy')).toContain(`form-action 'self' http://${client.redirectHost}`);
  const t = formToken(consent.html);
  const answer = await s.post('/oauth/consent', keyId === null ? { t, decision: 'deny' } : { t, decision: 'allow', key: keyId });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location')!);
}

/**
 * An OAuth client as an assistant keeps it: what it registered, its tokens, the verifier, and the
 * URL it was told to open. Typed by the SDK v2's provider interface; the v1 client takes it as well.
 */
export class AssistantAuth implements OAuthClientProvider {
  info?: StoredOAuthClientInformation;
  saved?: StoredOAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  readonly redirectUrl = 'http://127.0.0.1:9/callback';
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test Assistant',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(i: StoredOAuthClientInformation) {
    this.info = i;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(t: StoredOAuthTokens) {
    this.saved = t;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}
