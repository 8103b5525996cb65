/** `WWW-Authenticate` for Bearer credentials (RFC 6750), as /mcp and the registration endpoint answer a 401. */

/** An RFC 6750 quoted value: the characters it allows (no `"`, no `\`, printable ASCII); an ellipsis (a key's hidden secret) as three dots. */
const quoted = (s: string) => `"${s.replace(/…/g, '...').replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, '?')}"`;

/** `WWW-Authenticate: Bearer …` with the resource metadata URL (RFC 9728 §5.1) and, for a credential that failed, why. */
export function bearerChallenge(o: { resourceMetadata?: string; error?: 'invalid_token'; description?: string }): string {
  const parts = [
    ...(o.resourceMetadata ? [`resource_metadata=${quoted(o.resourceMetadata)}`] : []),
    ...(o.error ? [`error=${quoted(o.error)}`] : []),
    ...(o.description ? [`error_description=${quoted(o.description)}`] : []),
  ];
  return parts.length ? `Bearer ${parts.join(', ')}` : 'Bearer';
}
