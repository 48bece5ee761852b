// `apiwb generate --lang LANG`: each snippet language this machine runs (curl, node for js-fetch and
// node, python3 for python and python-requests, java) is run against the sandbox, and gets the status
// `apiwb run` gets (the sandbox's own request log says what each answered) and the same body (its rows
// are the rows `apiwb run --out` writes). C#, Go and PowerShell, which do not install here, are
// compared with golden files reviewed by eye. Known secret values are planted in the environment of
// every generation and searched for in every output.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { COLLECTION, openSandboxWorkspace, type SandboxWorkspace } from './sandboxEnv';
import { runInProcess } from './inProcess';
import { summaryLines } from './cliProcess';
import { generated, signInToken } from './generateProcess';

const exec = promisify(execFile);
const GOLDEN = join(import.meta.dirname, '..', 'fixtures', 'codegen');

let ws: SandboxWorkspace;
let dir: string;
/** What the generated code reads: a token signed in by the test and the Basic credential. */
let codeEnv: Record<string, string>;

/** The status the sandbox logged for the newest request on an origin. */
async function lastStatus(origin: string): Promise<number> {
  const log = (await (await fetch(`${origin}/__sandbox/requests`)).json()) as { seq: number; status: number }[];
  return log.reduce((a, b) => (b.seq > a.seq ? b : a)).status;
}

const REQUESTS = [
  { file: 'engagement-paging.http', name: 'leadsOfCustomer', origin: (w: SandboxWorkspace) => w.descriptor.engagement.baseUrl, rows: '_Leads' },
  { file: 'fundraising.http', name: 'listConstituents', origin: (w: SandboxWorkspace) => w.descriptor.fundraising.baseUrl, rows: 'value' },
  { file: 'engagement.http', name: 'ordersByCustomer', origin: (w: SandboxWorkspace) => w.descriptor.engagement.baseUrl, rows: 'Orders' },
] as const;

/** How each language that runs here is run; the printed body is read back as JSON. */
const RUNNERS: Record<string, { ext: string; run: (file: string) => [string, string[]] }> = {
  curl: { ext: 'sh', run: (f) => ['sh', [f]] },
  // The snippet prints `data` with console.log; a wrapper makes that JSON (util.inspect would cut it).
  'js-fetch': { ext: 'mjs', run: (f) => [process.execPath, ['--input-type=module', '-e', `console.log = (v) => process.stdout.write(JSON.stringify(v)); await import(${JSON.stringify(f)});`]] },
  node: { ext: 'cjs', run: (f) => [process.execPath, [f]] },
  python: { ext: 'py', run: (f) => ['python3', [f]] },
  // print(response.json()) prints a Python repr; a wrapper makes it JSON.
  'python-requests': { ext: 'py', run: (f) => ['python3', ['-c', `import builtins, json, sys\nbuiltins.print = lambda v: sys.stdout.write(json.dumps(v))\nexec(compile(open(${JSON.stringify(f)}).read(), "snippet", "exec"))`]] },
  java: { ext: 'java', run: (f) => ['java', [f]] },
};

/** httpsnippet's Java is a fragment: the class and imports around it, as a user would write them. */
function javaProgram(code: string): string {
  return ['import java.net.URI;', 'import java.net.http.HttpClient;', 'import java.net.http.HttpRequest;', 'import java.net.http.HttpResponse;',
    'public class Snippet {', 'public static void main(String[] args) throws Exception {', code, '}', '}'].join('\n');
}

before(async () => {
  ws = await openSandboxWorkspace();
  dir = mkdtempSync(join(tmpdir(), 'apiwb-generate-'));
  const f = ws.descriptor.credentials.fundraising.fullAccess;
  codeEnv = {
    APIWB_SECRET_ENGAGEMENT_TOKEN: await signInToken(ws.descriptor.engagement.authUrl, ws.descriptor.credentials.engagement.username, ws.descriptor.credentials.engagement.password),
    APIWB_SECRET_FUNDRAISING_TOKEN: Buffer.from(`${f.permissionName}:${f.serviceKey}`).toString('base64'),
  };
});

after(async () => {
  await ws.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every secret the run knows, planted in the generator's environment: none may be in its output. */
function plantedEnv(): Record<string, string> {
  return { ...ws.secrets, ...codeEnv };
}

function assertNoSecretIn(text: string): void {
  for (const secret of [...ws.secretValues, ...Object.values(codeEnv)]) assert.ok(!text.includes(secret), 'a secret value is in the generated code');
  assert.doesNotMatch(text, /eyJ[\w-]+\.[\w-]+\./, 'a JWT is in the generated code');
}

void describe('apiwb generate: snippets run against the sandbox as apiwb run does', () => {
  for (const request of REQUESTS) {
    void it(`${request.name}: every runnable language gets apiwb run's status and body`, async () => {
      const out = join(dir, `${request.name}.json`);
      const run = await runInProcess([join(COLLECTION, request.file), '--env', 'sandbox', '--env-file', ws.envFile, '--name', request.name, '--out', out, '--format', 'json'], ws.secrets);
      const [line] = summaryLines(run.stdout);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const cliRows = JSON.parse(readFileSync(out, 'utf8')) as unknown[];
      assert.ok(cliRows.length > 0);
      let firstBody: unknown;
      for (const [lang, runner] of Object.entries(RUNNERS)) {
        const made = await generated([join(COLLECTION, request.file), '--name', request.name, '--lang', lang, '--env-file', ws.envFile], plantedEnv());
        assert.equal(made.code, 0, made.stderr);
        assertNoSecretIn(made.stdout + made.stderr);
        const file = join(dir, lang === 'java' ? 'Snippet.java' : `${request.name}-${lang}.${runner.ext}`);
        writeFileSync(file, lang === 'java' ? javaProgram(made.stdout) : made.stdout);
        const [command, args] = runner.run(file);
        const { stdout } = await exec(command, args, { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...codeEnv }, maxBuffer: 16 << 20, timeout: 60_000 });
        assert.equal(await lastStatus(request.origin(ws)), line?.status, `${lang}: the status apiwb run got`);
        const body = JSON.parse(stdout) as Record<string, unknown>;
        assert.deepEqual(body[request.rows], cliRows, `${lang}: the rows apiwb run wrote`);
        if (firstBody === undefined) firstBody = body;
        else assert.deepEqual(body, firstBody, `${lang}: the same body as curl`);
      }
    });
  }

  void it('C#, Go and PowerShell match their golden files (no compiler installs here; reviewed by eye)', async () => {
    for (const lang of ['csharp', 'go', 'powershell']) {
      const made = await generated([join(GOLDEN, 'golden.http'), '--name', 'leadsOfCustomer', '--lang', lang], plantedEnv());
      assert.equal(made.code, 0, made.stderr);
      assertNoSecretIn(made.stdout);
      assert.equal(made.stdout, readFileSync(join(GOLDEN, `leadsOfCustomer.${lang}.golden`), 'utf8'), lang);
    }
  });

  void it("the python-requests snippet of a body with quotes is valid Python (python3's ast)", async () => {
    const made = await generated([join(GOLDEN, 'golden.http'), '--name', 'leadsOfCustomer', '--lang', 'python-requests'], plantedEnv());
    const file = join(dir, 'requests-snippet.py');
    writeFileSync(file, made.stdout);
    await exec('python3', ['-c', 'import ast, sys; ast.parse(open(sys.argv[1]).read())', file]);
  });

  void it('a credential written literally is refused, and nothing is printed', async () => {
    const file = join(dir, 'literal.http');
    writeFileSync(file, `# @name literal\nGET {{booking_base_url}}/bookings\nAuthorization: Bearer ${codeEnv.APIWB_SECRET_ENGAGEMENT_TOKEN}\n`);
    const made = await generated([file, '--name', 'literal', '--lang', 'curl', '--env-file', ws.envFile], plantedEnv());
    assert.equal(made.code, 1);
    assert.equal(made.stdout, '');
    assert.match(made.stderr, /written literally/);
    assertNoSecretIn(made.stderr);
  });

  void it('the comment names each variable and how to make it (Basic: permission:key, base64)', async () => {
    const made = await generated([join(COLLECTION, 'fundraising.http'), '--name', 'listConstituents', '--lang', 'curl', '--env-file', ws.envFile], plantedEnv());
    assert.match(made.stdout, /APIWB_SECRET_FUNDRAISING_TOKEN: base64 of "<permission name>:<service key>"/);
    assert.match(made.stdout, /'Authorization: Basic '"\$\{APIWB_SECRET_FUNDRAISING_TOKEN\}"/);
  });

  void it('usage errors exit 2: unknown --lang, unknown request', async () => {
    const lang = await generated([join(COLLECTION, 'booking.http'), '--name', 'listBookings', '--lang', 'cobol', '--env-file', ws.envFile], {});
    assert.equal(lang.code, 2);
    assert.match(lang.stderr, /--lang must be one of curl, js-fetch, node, python-requests, python, csharp, java, go, powershell/);
    const name = await generated([join(COLLECTION, 'booking.http'), '--name', 'nope', '--lang', 'curl', '--env-file', ws.envFile], {});
    assert.equal(name.code, 2);
    const pagingLang = await generated([join(COLLECTION, 'booking.http'), '--name', 'listBookings', '--paging', '--lang', 'curl', '--env-file', ws.envFile], {});
    assert.equal(pagingLang.code, 2);
    assert.match(pagingLang.stderr, /--lang must be one of ts, python with --paging/);
  });

  void it('a page size above the contract\'s maximum is clamped as apiwb run clamps it, and the comment says so', async () => {
    const file = join(dir, 'big-page.http');
    writeFileSync(file, '# @name bigPage\nGET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?ctcID=1&pageSize=1000\nAuthorization: Bearer {{$auth.token("engagement")}}\n');
    for (const args of [['--lang', 'curl'], ['--paging', '--lang', 'python']]) {
      const made = await generated([file, '--name', 'bigPage', ...args, '--env-file', join(GOLDEN, 'http-client.env.json')], {});
      assert.equal(made.code, 0, made.stderr);
      assert.match(made.stdout, /pageSize=500/);
      assert.doesNotMatch(made.stdout, /pageSize=1000(?!\s+is above)/);
      assert.match(made.stdout, /pageSize=1000 is above the contract's maximum of 500 for GetOrdersByCustomer; sent pageSize=500/);
    }
  });

  void it('an address that is not a URL is said in words (exit 1), not as httpsnippet\'s bare "Validation Failed"', async () => {
    // An env file whose base address has no scheme: the URL is no URL httpsnippet can print.
    const envFile = join(dir, 'no-scheme', 'http-client.env.json');
    mkdirSync(dirname(envFile), { recursive: true });
    writeFileSync(envFile, JSON.stringify({ sandbox: { booking_base_url: 'bookings-host-without-scheme' } }));
    const made = await generated([join(COLLECTION, 'booking.http'), '--name', 'listBookings', '--lang', 'go', '--env-file', envFile], {});
    assert.equal(made.code, 1, made.stderr);
    assert.match(made.stderr, /httpsnippet could not print GET bookings-host-without-scheme\/bookings \(Validation Failed\): is every \{\{variable\}\} of the URL set/);
  });

  void it('--paging for a request whose style has no loop says which styles have one (exit 1)', async () => {
    const made = await generated([join(COLLECTION, 'fundraising.http'), '--name', 'listConstituents', '--paging', '--lang', 'ts', '--env-file', ws.envFile], plantedEnv());
    assert.equal(made.code, 1);
    assert.equal(made.stdout, '');
    assert.match(made.stderr, /no paging loop for listConstituents: its paging style is generic; loops are generated for page-number, page-headers/);
  });
});
