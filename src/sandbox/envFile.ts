// The sandbox's environment of an http-client.env.json, written in one place for everyone: `apiwb sandbox
// --env-file PATH` (which `npm start` and the editor tests run), so the sample collection, the CLI and
// the editor read one file. Addresses, account names and the auth entries only: never a password, service
// key or token (parseEnvFile rejects one, and the writer checks the text against the descriptor's secrets).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { SandboxDescriptor } from './descriptor';
import { faultText } from '../core/text/faultText';
import { isJsonObject } from '../core/json/numberText';

/** The environment name the sample collection and README use. */
export const SANDBOX_ENVIRONMENT = 'sandbox';

/** The environment a sandbox writes: `sandbox`, or `sandbox-next` for its next release (what compare sets against it). */
export function sandboxEnvironmentName(release: 'current' | 'next' | undefined): string {
  return release === 'next' ? `${SANDBOX_ENVIRONMENT}-next` : SANDBOX_ENVIRONMENT;
}

/** The "sandbox" environment for a running sandbox: the sample collection's variables and auth entries. */
function sandboxEnvironment(d: SandboxDescriptor): Record<string, unknown> {
  return {
    engagement_base_url: d.engagement.baseUrl,
    engagement_auth_url: d.engagement.authUrl,
    fundraising_base_url: d.fundraising.baseUrl,
    booking_base_url: d.booking.baseUrl,
    tenant_code: d.credentials.fundraising.tenantCode,
    permission_name: d.credentials.fundraising.fullAccess.permissionName,
    username: d.credentials.engagement.username,
    ctc_id: String(d.samples.ctcID),
    brand_id: String(d.samples.brandID),
    export_page_rows: String(d.samples.selectionPageRows),
    Security: { Auth: { engagement: { Type: 'OAuth2', 'Grant Type': 'Password', 'Token URL': '{{engagement_auth_url}}/token', Username: '{{username}}' } } },
    ApiWorkbench: {
      Auth: {
        fundraising: { Type: 'Basic+X-API-Key', 'Permission Name': '{{permission_name}}', 'Tenant Code': '{{tenant_code}}' },
        'fundraising-user': { Type: 'JWT Bearer' },
      },
    },
  };
}

/** Every secret of a descriptor: none may reach the env file. */
export function sandboxSecretValues(d: SandboxDescriptor): string[] {
  const { engagement: e, fundraising: f } = d.credentials;
  return [e.password, e.restrictedUser.password, e.lockedUser.password, f.fullAccess.serviceKey, f.readOnly.serviceKey, f.ipRestricted.serviceKey, f.jwt.token]
    .filter((secret) => secret.length > 0);
}

/**
 * The env file's text with the "sandbox" environment set to this sandbox's (variables a user added to it,
 * and every other environment, kept). `existing` undefined: a new file.
 */
export function withSandboxEnvironment(existing: string | undefined, d: SandboxDescriptor, name: string = SANDBOX_ENVIRONMENT): string {
  const file = existing === undefined ? {} : parseObject(existing);
  const before = file[name];
  file[name] = { ...(isJsonObject(before) ? before : {}), ...sandboxEnvironment(d) };
  const text = `${JSON.stringify(file, null, 2)}\n`;
  if (sandboxSecretValues(d).some((secret) => text.includes(secret))) throw new Error('the env file would contain a secret of the sandbox; nothing was written');
  return text;
}

/** Writes the sandbox environment into the env file at `path` (created when missing; replaced whole, never half-written). */
export function writeSandboxEnvFile(path: string, d: SandboxDescriptor, name: string = SANDBOX_ENVIRONMENT): void {
  const text = withSandboxEnvironment(existsSync(path) ? readFileSync(path, 'utf8') : undefined, d, name);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

function parseObject(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`it is not valid JSON (${faultText(error)}); fix or remove it`);
  }
  if (!isJsonObject(parsed)) throw new Error('it does not hold a JSON object of environments; fix or remove it');
  return parsed;
}
