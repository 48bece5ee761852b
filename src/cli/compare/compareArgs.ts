// `apiwb compare`'s options: which two sides (two environments, an environment and a recorded
// baseline, or two export files), and how records are matched and reported.
import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_TIMEOUT_MS } from '../../core/http/client';
import { reporterOptions, REPORT_HELP } from '../reporters/runReport';
import { positiveInteger } from '../runArguments';
import type { ReporterName } from '../reporters/report';
import { NETWORK_ARGS, NETWORK_HELP, networkFlagsOf, TLS_HELP, type NetworkFlags } from '../runNetwork';

export interface CompareOptions extends NetworkFlags {
  readonly mode: 'environments' | 'baseline' | 'files';
  readonly paths: readonly string[];
  readonly env?: string;
  readonly against?: string;
  readonly baseline?: string;
  readonly envFile?: string;
  readonly name?: string;
  readonly allPages: boolean;
  readonly maxPages?: number;
  readonly key?: string;
  readonly ignore: readonly string[];
  readonly out?: string;
  readonly reporter?: ReporterName;
  readonly report?: string;
  readonly timeoutMs: number;
  readonly overlays: readonly string[];
  /** Input bytes per partition of the record comparison (tests and the bench set it). */
  readonly partitionBytes?: number;
}

export const COMPARE_HELP = `Usage: apiwb compare <files or folders...> --env NAME --against NAME [options]
       apiwb compare <files or folders...> --env NAME --baseline DIR [options]
       apiwb compare A.ndjson B.ndjson [--key FIELD] [options]      (also .csv exports)

Sends the same requests (walks included with --all-pages) on two sides and compares them, request by
request: status, business verdict and error codes, walk verdict, row counts, contract drift found on one
side only, and the rows record by record, matched by key: records added, removed and changed (with the
fields that changed and how), and shape differences (fields on one side only, type changes). A record
that moved to another page is not a change. Every field is compared, ids, dates and UUIDs included
(they are data); --ignore leaves a path out.

Sides:
  --env NAME          side A: an environment of http-client.env.json
  --against NAME      side B: another environment (each side signs in with its own credentials)
  --baseline DIR      side A recorded: the first run writes DIR from --env; a later run compares
                      --env (side B) with it
  A.ndjson B.ndjson   two export files (apiwb run --out, the panel's All pages), no request sent

Options:
  --key FIELD         the field that identifies a record (dot path); default: the operation's
                      identifying field where the contract names one, else the whole record's content
  --ignore PATH       leave a field out of the comparison (repeatable): a.b, items[].price
  --out FILE          every difference as NDJSON: {request, kind: added|removed|changed, key, before,
                      after, fields}, and a {request, kind: "request", differences} line per request
                      whose sides differ otherwise
  --name REQUEST      only the request(s) with this # @name
  --all-pages         walk every page on both sides
  --max-pages N       stop each walk after N pages
  --env-file PATH     env file of every file (default: the nearest http-client.env.json above each
                      file; files whose nearest env files differ are refused, exit 2, naming both)
  --timeout MS        time for one whole response (default ${DEFAULT_TIMEOUT_MS})
  --overlay FILE      an OpenAPI overlay written by 'apiwb import-openapi --out' (repeatable)
${TLS_HELP}${NETWORK_HELP}                      Each side's environment has its own "Proxy", "CA Bundle" and
                      "SSLConfiguration"; the flags apply to both sides.
${REPORT_HELP}  -h, --help          this help

Secrets: as for apiwb run (APIWB_SECRET_<AUTH ID>_<FIELD>); APIWB_SECRET_<ENVIRONMENT>__<AUTH ID>_<FIELD>
gives one environment its own value (e.g. APIWB_SECRET_PRODUCTION__ENGAGEMENT_PASSWORD), read only where
no other environment or auth id could have the same name (apiwb run --help says when); then
http-client.private.env.json beside the env file, each environment its own values, which go only to
that environment's origins.

Prints one line per request (added N, removed N, changed N, unchanged N) and what else differs.
Exit codes: 0 the sides agree (or differ only where ignored); 1 they differ; 2 usage or input error.
`;

export function parseCompareArgs(args: readonly string[]): CompareOptions | 'help' {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    strict: true,
    options: {
      env: { type: 'string' }, against: { type: 'string' }, baseline: { type: 'string' }, 'env-file': { type: 'string' },
      name: { type: 'string' }, 'all-pages': { type: 'boolean' }, 'max-pages': { type: 'string' },
      key: { type: 'string' }, ignore: { type: 'string', multiple: true }, out: { type: 'string' },
      reporter: { type: 'string' }, report: { type: 'string' }, timeout: { type: 'string' }, ...NETWORK_ARGS,
      overlay: { type: 'string', multiple: true }, 'partition-bytes': { type: 'string' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const mode = modeOf(positionals, values.env, values.against, values.baseline);
  return {
    mode,
    paths: positionals,
    ...(values.env ? { env: values.env } : {}),
    ...(values.against ? { against: values.against } : {}),
    ...(values.baseline ? { baseline: values.baseline } : {}),
    ...(values['env-file'] ? { envFile: values['env-file'] } : {}),
    ...(values.name ? { name: values.name } : {}),
    allPages: values['all-pages'] ?? false,
    ...(values['max-pages'] ? { maxPages: positiveInteger('--max-pages', values['max-pages']) } : {}),
    ...(values.key ? { key: values.key } : {}),
    ignore: values.ignore ?? [],
    ...(values.out ? { out: values.out } : {}),
    ...reporterOptions(values.reporter, values.report),
    timeoutMs: values.timeout ? positiveInteger('--timeout', values.timeout) : DEFAULT_TIMEOUT_MS,
    ...networkFlagsOf(values),
    overlays: values.overlay ?? [],
    ...(values['partition-bytes'] ? { partitionBytes: positiveInteger('--partition-bytes', values['partition-bytes']) } : {}),
  };
}

function modeOf(positionals: readonly string[], env: string | undefined, against: string | undefined, baseline: string | undefined): CompareOptions['mode'] {
  if (env === undefined && against === undefined && baseline === undefined) {
    const missing = positionals.find((p) => /\.(ndjson|jsonl|csv)$/i.test(p) && !existsSync(p));
    if (missing !== undefined) throw new Error(`no such file: ${missing}`);
    if (positionals.length !== 2 || positionals.some((p) => !isExportFile(p))) {
      throw new Error('give two export files (.ndjson, .jsonl or .csv), or requests with --env NAME and --against NAME or --baseline DIR');
    }
    return 'files';
  }
  if (positionals.length === 0) throw new Error('give at least one .http file or folder');
  if (!env) throw new Error('--env NAME is required with --against or --baseline');
  if ((against === undefined) === (baseline === undefined)) throw new Error('give one of --against NAME or --baseline DIR');
  if (against === env) throw new Error('--against names the same environment as --env');
  return against !== undefined ? 'environments' : 'baseline';
}

function isExportFile(path: string): boolean {
  return /\.(ndjson|jsonl|csv)$/i.test(path) && existsSync(path) && statSync(path).isFile();
}
