// Test and bench helper: the same .http files for the httpyac CLI. `{{$auth.token("id")}}` is not shared
// syntax for our auth entries (httpyac's password grant needs a client id; Basic+X-API-Key is ours), so
// httpyac's copy names plain variables whose values go in an http-client.private.env.json written to a
// temporary folder. See samples/collections/README.md.
import { join } from 'node:path';
import type { SandboxDescriptor } from '../../src/sandbox/descriptor';
import { ROOT } from './cliProcess';

export const HTTPYAC = join(ROOT, 'node_modules', 'httpyac', 'bin', 'httpyac.js');

/** `{{$auth.token("fundraising-user")}}` → `{{auth_token_fundraising_user}}`. */
export function withPlainAuthVariables(text: string): string {
  return text.replace(/\{\{\s*\$auth\.token\(\s*"([^"]+)"\s*\)\s*\}\}/g, (_, id: string) => `{{auth_token_${id.replace(/[^A-Za-z0-9]/g, '_')}}}`);
}

/** The private env for httpyac: an engagement token from one sign-in, the fundraising Basic credential. */
export async function httpyacPrivateEnvText(d: SandboxDescriptor): Promise<string> {
  const form = new URLSearchParams({ grant_type: 'password', username: d.credentials.engagement.username, password: d.credentials.engagement.password });
  const signIn = await fetch(`${d.engagement.authUrl}/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form });
  if (signIn.status !== 200) throw new Error(`sandbox sign-in answered ${signIn.status}`);
  const { access_token: token } = await signIn.json() as { access_token: string };
  const { permissionName, serviceKey } = d.credentials.fundraising.fullAccess;
  return JSON.stringify({
    sandbox: { auth_token_engagement: token, auth_token_fundraising: Buffer.from(`${permissionName}:${serviceKey}`).toString('base64') },
  });
}
