// `apiwb run`'s arguments and help: the command line read into RunOptions (a usage error throws, and
// runCommand says it with exit 2), the help text, and the exit codes. Nothing here reads a file or sends.
import { parseArgs } from 'node:util';
import { DEFAULT_TIMEOUT_MS } from '../core/http/client';
import { DEFAULT_MAX_WAIT_MS } from '../core/http/serverWaits';
import type { OutputFormat } from './reporters/outputSink';
import { reporterOptions, REPORT_HELP } from './reporters/runReport';
import { NETWORK_ARGS, NETWORK_HELP, networkFlagsOf, TLS_HELP, type NetworkFlags } from './runNetwork';

export const RUN_EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** The network flags (--proxy, --cacert, --insecure, --insecure-token-endpoint) are compare's too (runNetwork.ts). */
export interface RunOptions extends NetworkFlags {
  readonly paths: readonly string[];
  readonly env: string;
  readonly envFile?: string;
  readonly name?: string;
  readonly allPages: boolean;
  readonly out?: string;
  readonly format: OutputFormat;
  readonly maxPages?: number;
  readonly timeoutMs: number;
  /** All waits on the server of one walk or request together (--max-wait, in seconds on the command line). */
  readonly maxWaitMs: number;
  /** --csv-raw: CSV cells that start like a formula are written as they are. */
  readonly csvRaw: boolean;
  /** --reporter junit|json|github; --report FILE (github without a file: stdout). */
  readonly reporter?: 'junit' | 'json' | 'github';
  readonly report?: string;
  /** Check each response against its operation's contract; drift fails the request. */
  readonly checkContract: boolean;
  /** Continue the walk cut short into --out from the checkpoint beside it. */
  readonly resume: boolean;
  /** The arguments as given, to name the exact command that resumes. */
  readonly argv: readonly string[];
  /** Overlay files written by `apiwb import-openapi --out`: their operations join the catalog. */
  readonly overlays: readonly string[];
}

export interface RunIo {
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export const RUN_HELP = `Usage: apiwb run <files or folders...> --env NAME [options]

Runs the requests of .http/.rest files (a folder: its files sorted by path) one after the other against an
environment of http-client.env.json, and prints one line per request: name, method, URL (secrets
redacted), status, time, rows and business failures. Exit 0 when every request succeeded.

  e.g. apiwb run samples/collections --env sandbox --env-file samples/workspace/http-client.env.json

Options:
  --env NAME          environment of the env file to use (required)
  --env-file PATH     env file of every file of the run (default: the nearest http-client.env.json
                      above each file; files whose nearest env files differ are refused, exit 2,
                      naming both: run each folder on its own)
  --name REQUEST      run only the request(s) with this # @name
  --all-pages         follow every page with the paging engine (the request's # @paging or the catalog)
  --max-pages N       stop a walk after N pages (the walk is then cut short: exit 1)
  --out FILE          write the result rows to FILE; a walk keeps its checkpoint in FILE.apiwb-resume.json.
                      FILE is a report: a field named as a secret (token, password, apiKeys...) is ***
  --resume            continue the walk that was cut short into --out (needs --all-pages and --out,
                      ndjson or csv): appends to FILE from the last page kept, no row twice; the
                      first walk of a run that is not complete keeps the checkpoint, and every
                      request after it runs again; those before it are skipped only as the
                      checkpoint names them finished, written as they are now (else refused, exit 2)
  --format F          ndjson (default), csv or json; needs --out
  --timeout MS        time allowed for one whole response, headers and body, for every request,
                      sign-in and page (default ${DEFAULT_TIMEOUT_MS}); a server that trickles its body is cut off
  --max-wait SECONDS  how long a walk or request may wait in all on a server that asks it to: a 429
                      or 503 with Retry-After (then the same page is asked again), a quota announced
                      spent (RateLimit-Remaining: 0) (default ${DEFAULT_MAX_WAIT_MS / 1000}); past it the walk fails,
                      resumable. A 429 or 503 without Retry-After is not sent again
  --overlay FILE      an OpenAPI overlay written by 'apiwb import-openapi --out' (repeatable): its
                      operations' paging and business errors count like the contract's
${TLS_HELP}  --csv-raw           write CSV cells that start with =, +, -, @, TAB or CR as they are (by default
                      they get a leading ' so that a spreadsheet shows them as text, not formulas)
${NETWORK_HELP}  --check-contract    compare each response with what the contract documents for its operation
                      (fields, types, error codes, paging headers and fields); prints each finding
                      with its JSON path and contract section, and drift fails the request (exit 1)
${REPORT_HELP}  -h, --help          this help

Secrets come from environment variables, which win, or http-client.private.env.json beside the env file:
  APIWB_SECRET_<AUTH ID>_<FIELD>   auth id from the env file, upper-cased, non-alphanumerics as _
    PASSWORD      password of a "Type": "OAuth2", "Grant Type": "Password" entry (signs in once per run)
    SERVICE_KEY   service key of an "ApiWorkbench" "Basic+X-API-Key" entry
    TOKEN         a JWT of an "ApiWorkbench" "JWT Bearer" entry
  APIWB_SECRET_PROXY_PASSWORD      the proxy user's password (the user in the proxy URL)
  APIWB_SECRET_CLIENT_CERTIFICATE_PASSPHRASE  an "SSLConfiguration" certificate's passphrase
    (per host: APIWB_SECRET_CLIENT_CERTIFICATE_<HOST>_PASSPHRASE)
  e.g. APIWB_SECRET_ENGAGEMENT_PASSWORD, APIWB_SECRET_FUNDRAISING_SERVICE_KEY, APIWB_SECRET_FUNDRAISING_USER_TOKEN
  A name two secrets could share is read for neither (the run says which, and why): two auth ids or
  environments of the env file written alike (prod-eu, prod.eu), an auth id or environment written with
  _ first or last or __ inside (production--svc reads as environment production's own), an auth id proxy's
  PASSWORD (the proxy password's name). Rename the auth id or environment.

Requests may carry ?? assertions (?? status == 200, ?? header NAME includes TEXT, ?? body $.path >= 1,
?? duration < MS, ?? business ok, ?? business code == N, ?? rows >= 1): each failed one is printed with
file:line, expected and actual. Scripts of other tools (> {% %}, < {% %}, {{ }}, ?? js) are not run and said so.
A status >= 400 is expected only by ?? status == N with that status, a business failure only by
?? business code == N with that code; any other comparison (< 500, exists, !=) expects nothing.

Walks (--all-pages) end with a verdict: complete, cut short (--max-pages), inconsistent (the server's
paging contradicted itself: totals or paging headers changed or vanished, a page, cursor or rows served
again, another page than the one asked for) or failed. Only complete counts as success.

Secrets are bound to origins: a password to its Token URL's origin, a token, service key or Basic
credential to the origins of the environment's URLs. A request that carries one (in its URL, any header
or its body, plain or encoded) to another origin is not sent, and fails naming both origins. A next link
or redirect to another origin goes without every part that carries a credential, and says which; one
with a body or another method than GET, or from https to http, is not followed.

Outputs never overwrite inputs: an --out or --report that is (or links to) a .http file, env file,
overlay or body file of the run, or another output, is refused (exit 2), as is one that is a
symbolic link or a folder. --out replaces an existing file only once the first row is written.
A checkpoint is taken only for the file it was written beside and the request it continues.

Exit codes: 0 every request succeeded (every walk complete); 1 any HTTP status >= 400, business failure
inside a 200, failed assertion, sign-in failure, lost connection, a walk that is not complete, or a request
not run (its own problem: a variable not defined, a < file missing, a construct or kind it cannot send;
said with its file and line, the others run); 2 usage or input error (bad option, file, env file, a
placeholder such as <filled by npm start>).

Requests go one at a time, each once the response before it has arrived whole; what may overlap:
docs/cli-send-order.md.
`;

export function parseRunArgs(args: readonly string[]): RunOptions | 'help' {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    strict: true,
    options: {
      env: { type: 'string' }, 'env-file': { type: 'string' }, name: { type: 'string' },
      'all-pages': { type: 'boolean' }, out: { type: 'string' }, format: { type: 'string' },
      'max-pages': { type: 'string' }, timeout: { type: 'string' }, 'max-wait': { type: 'string' }, 'csv-raw': { type: 'boolean' }, ...NETWORK_ARGS,
      reporter: { type: 'string' }, report: { type: 'string' },
      'check-contract': { type: 'boolean' },
      resume: { type: 'boolean' }, overlay: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  if (positionals.length === 0) throw new Error('give at least one .http file or folder');
  if (!values.env) throw new Error('--env NAME is required (an environment of http-client.env.json)');
  const format = outputFormat(values);
  return {
    paths: positionals,
    env: values.env,
    ...(values['env-file'] ? { envFile: values['env-file'] } : {}),
    ...(values.name ? { name: values.name } : {}),
    allPages: values['all-pages'] ?? false,
    ...(values.out ? { out: values.out } : {}),
    format,
    ...(values['max-pages'] ? { maxPages: positiveInteger('--max-pages', values['max-pages']) } : {}),
    timeoutMs: values.timeout ? positiveInteger('--timeout', values.timeout) : DEFAULT_TIMEOUT_MS,
    maxWaitMs: values['max-wait'] !== undefined ? wholeNumber('--max-wait', values['max-wait']) * 1000 : DEFAULT_MAX_WAIT_MS,
    ...networkFlagsOf(values),
    csvRaw: values['csv-raw'] ?? false,
    ...reporterOptions(values.reporter, values.report),
    checkContract: values['check-contract'] ?? false,
    resume: values.resume ?? false,
    argv: args,
    overlays: values.overlay ?? [],
  };
}

/** --format (or the one --out's name implies), and the options that need --out with it. */
function outputFormat(values: { readonly format?: string | undefined; readonly out?: string | undefined; readonly resume?: boolean | undefined; readonly 'all-pages'?: boolean | undefined }): OutputFormat {
  const format = values.format ?? formatFromPath(values.out);
  if (format !== 'ndjson' && format !== 'csv' && format !== 'json') throw new Error(`--format must be ndjson, csv or json, not '${format}'`);
  if (values.format && !values.out) throw new Error('--format needs --out FILE');
  if (values.resume && (!values['all-pages'] || !values.out)) throw new Error('--resume needs --all-pages and --out FILE (the walk it continues)');
  if (values.resume && format === 'json') throw new Error('--resume needs --format ndjson or csv: a JSON array file cannot be appended to');
  return format;
}

function formatFromPath(path: string | undefined): string {
  if (path && /\.csv$/i.test(path)) return 'csv';
  if (path && /\.json$/i.test(path)) return 'json';
  return 'ndjson';
}

function wholeNumber(option: string, text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value)) throw new Error(`${option} must be a whole number of seconds, not '${text}'`);
  return value;
}

export function positiveInteger(option: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${option} must be a positive integer, not '${text}'`);
  return value;
}
