// Test helper: an in-process sandbox and an http-client.env.json "sandbox" environment written from its
// descriptor, plus the APIWB_SECRET_* variables the CLI reads. Nothing here prints a secret.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxSecretValues, withSandboxEnvironment } from '../../src/sandbox/envFile';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index';
import type { SandboxDescriptor } from '../../src/sandbox/descriptor';
import { buildCliBundles } from '../../scripts/cliBundles.mjs';

export const COLLECTION = join(import.meta.dirname, '..', '..', 'samples', 'collections');

/** The sample collection's env file for a live sandbox: what `apiwb sandbox --write-env-file` writes. */
export function sandboxEnvFileText(d: SandboxDescriptor): string {
  return withSandboxEnvironment(undefined, d);
}

export interface SandboxWorkspace {
  readonly sandbox: RunningSandbox;
  readonly descriptor: SandboxDescriptor;
  readonly dir: string;
  readonly envFile: string;
  /** APIWB_SECRET_* for the sample collection's auth ids, with the sandbox's good credentials. */
  readonly secrets: Record<string, string>;
  /** Every secret value of the sandbox, to assert none is ever printed or written. */
  readonly secretValues: readonly string[];
  close(): Promise<void>;
}

/**
 * Sizes that keep a walk of every paging style of the sample collection short but longer than one page:
 * 3 pages of orders, 4 of leads, 3 batches of assets, 3 export pages, 3 fact pages, 10 of bookings.
 */
export const SMALL_SANDBOX: SandboxOptions = { orders: 120, exportRows: 2_500, selectionPageRows: 1_000, facts: 12_000 };

export async function openSandboxWorkspace(options: SandboxOptions = SMALL_SANDBOX): Promise<SandboxWorkspace> {
  const sandbox = await startSandbox(options);
  const d = sandbox.descriptor;
  const dir = mkdtempSync(join(tmpdir(), 'apiwb-cli-'));
  const envFile = join(dir, 'http-client.env.json');
  writeFileSync(envFile, sandboxEnvFileText(d));
  const f = d.credentials.fundraising;
  const e = d.credentials.engagement;
  return {
    sandbox, descriptor: d, dir, envFile,
    secrets: {
      APIWB_SECRET_ENGAGEMENT_PASSWORD: e.password,
      APIWB_SECRET_FUNDRAISING_SERVICE_KEY: f.fullAccess.serviceKey,
      APIWB_SECRET_FUNDRAISING_USER_TOKEN: f.jwt.token,
    },
    secretValues: sandboxSecretValues(d),
    async close() {
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The engagement token endpoint's entries of the sandbox request log. */
export async function tokenRequests(d: SandboxDescriptor): Promise<unknown[]> {
  const response = await fetch(`${d.engagement.baseUrl}/__sandbox/requests`);
  const log: unknown = await response.json();
  const entries: unknown[] = Array.isArray(log) ? log : ((log as { requests?: unknown[] }).requests ?? []);
  return entries.filter((entry) => /\/auth\/token$/i.test(String((entry as { path?: unknown }).path)));
}

/**
 * Bundles the CLI once, exactly as scripts/build.mjs builds dist/cli.js (scripts/cliBundles.mjs: the
 * dispatcher and its subcommand bundles beside it), so each spawned run starts in a fraction of the time
 * tsx needs. Returns the dispatcher's path.
 */
export async function buildCli(dir: string): Promise<string> {
  const [dispatcher] = await buildCliBundles({ outfile: join(dir, 'apiwb-cli.cjs'), logLevel: 'silent' });
  return dispatcher!;
}
