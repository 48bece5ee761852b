// A sandbox, the CLI bundled like dist/cli.js, an env file and the run's secrets, for the benches that
// time `apiwb run` as a whole process against raw clients hitting the same URLs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox';
import { buildCli, sandboxEnvFileText } from '../../test/cli/sandboxEnv';

export interface CliWorkspace {
  readonly sandbox: RunningSandbox;
  readonly dir: string;
  readonly cli: string;
  /** The environment for `apiwb run` (its APIWB_SECRET_*) and, with APIWB_BENCH_TOKEN, for raw clients. */
  readonly apiwbEnv: NodeJS.ProcessEnv;
  readonly rawEnv: NodeJS.ProcessEnv;
  /** A curl header file holding the bearer token (so it is never on a command line). */
  readonly curlHeaders: string;
  close(): Promise<void>;
}

export async function openCliWorkspace(options: SandboxOptions): Promise<CliWorkspace> {
  const sandbox = await startSandbox(options);
  const d = sandbox.descriptor;
  const dir = mkdtempSync(join(tmpdir(), 'apiwb-bench-'));
  const cli = await buildCli(dir);
  writeFileSync(join(dir, 'http-client.env.json'), sandboxEnvFileText(d));
  const form = new URLSearchParams({ grant_type: 'password', username: d.credentials.engagement.username, password: d.credentials.engagement.password });
  const res = await request(`${d.engagement.authUrl}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  const token = (JSON.parse(await res.body.text()) as { access_token: string }).access_token;
  const curlHeaders = join(dir, 'curl-headers.txt');
  writeFileSync(curlHeaders, `Authorization: Bearer ${token}\nContent-Type: application/json\n`, { mode: 0o600 });
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('APIWB_')));
  return {
    sandbox, dir, cli, curlHeaders,
    apiwbEnv: { ...base, NO_COLOR: '1', APIWB_SECRET_ENGAGEMENT_PASSWORD: d.credentials.engagement.password },
    rawEnv: { ...base, APIWB_BENCH_TOKEN: token },
    async close() {
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The export request of the sample collection (format 1 rows, about 190 bytes each). */
export function exportRequestText(pageRows: number): string {
  return [
    '# @name selectionExport',
    `# @paging export-ordinal pageRows=${pageRows}`,
    'POST {{engagement_base_url}}/api/Selection/GetSelectionResult_Ext',
    'Authorization: Bearer {{$auth.token("engagement")}}',
    'Content-Type: application/json',
    '',
    '{ "OFFSET": 1, "TableName": "" }',
    '',
  ].join('\n');
}
