// The sandbox's two releases as two environments of the test workspace's env file, for the compare UI
// tests: "sandbox" asks for the current release and "sandbox-next" for the next one, through the
// X-Sandbox-Choice header their `sandbox_release` variable fills. Not a test (no .ui.mjs suffix).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes both environments; returns a function that puts the env file back as it was. */
export function useTwoReleases(ctx) {
  const envPath = join(ctx.workspace, 'http-client.env.json');
  const original = readFileSync(envPath, 'utf8');
  const env = JSON.parse(original);
  env.sandbox = { ...env.sandbox, sandbox_release: 'release-next=off' };
  env['sandbox-next'] = { ...env.sandbox, sandbox_release: 'release-next' };
  writeFileSync(envPath, JSON.stringify(env, null, 2));
  return () => writeFileSync(envPath, original);
}
