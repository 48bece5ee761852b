// Writes the sandbox's addresses into an http-client.env.json (the JetBrains convention) as the
// "sandbox" environment. Never a secret: passwords, service keys and tokens stay out of every file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** The env-file values of a sandbox descriptor: addresses and account names only. */
export function sandboxEnvValues(descriptor) {
  const { engagement, fundraising, booking, credentials, samples } = descriptor;
  return {
    engagement_base_url: engagement.baseUrl,
    engagement_auth_url: engagement.authUrl,
    fundraising_base_url: fundraising.baseUrl,
    booking_base_url: booking.baseUrl,
    tenant_code: credentials.fundraising.tenantCode,
    username: credentials.engagement.username,
    permission_name: credentials.fundraising.fullAccess.permissionName,
    ctc_id: String(samples.ctcID),
  };
}

/** Every secret value of a descriptor, to prove none reaches a file. */
export function sandboxSecrets(descriptor) {
  const { engagement, fundraising } = descriptor.credentials;
  return [
    engagement.password, engagement.restrictedUser?.password, engagement.lockedUser?.password,
    fundraising.fullAccess?.serviceKey, fundraising.readOnly?.serviceKey, fundraising.ipRestricted?.serviceKey,
    fundraising.jwt?.token,
  ].filter((s) => typeof s === 'string' && s.length > 0);
}

/**
 * Sets `values` in environment `envName` of the env file at `path`, keeping every other key and
 * environment. When the file has no such environment yet, `template` (an environment object, e.g.
 * with the auth blocks) is its starting point.
 */
export function writeEnvironment(path, envName, values, { template, secrets = [] } = {}) {
  const file = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {};
  file[envName] = { ...(file[envName] ?? template ?? {}), ...values };
  const text = `${JSON.stringify(file, null, 2)}\n`;
  const leaked = secrets.filter((secret) => text.includes(secret));
  if (leaked.length > 0) throw new Error(`refusing to write ${path}: it would contain a secret`);
  writeFileSync(path, text);
}
