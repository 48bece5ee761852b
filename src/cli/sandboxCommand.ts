// `apiwb sandbox`: starts the three simulated services on 127.0.0.1 and serves until an ending signal (src/core/endingSignals.ts).
// With --json it prints exactly one JSON line (the SandboxDescriptor) once every service listens.
import { parseArgs } from 'node:util';
import { SANDBOX_DEFAULTS, type SandboxOptions, parseChoiceList, parsePageFault, resolveChoices, startSandbox } from '../sandbox/index';
import { SANDBOX_CHOICES, SANDBOX_CHOICE_IDS } from '../core/catalog/rules';
import { sandboxEnvironmentName, writeSandboxEnvFile } from '../sandbox/envFile';
import type { Subcommand } from './subcommands';
import { terminalSafe } from '../core/text/terminalText';
import { faultText } from '../core/text/faultText';
import { ENDING_SIGNALS } from '../core/endingSignals';

const INTEGER_FLAGS = {
  'engagement-port': 'engagementPort',
  'fundraising-port': 'fundraisingPort',
  'booking-port': 'bookingPort',
  seed: 'seed',
  'export-rows': 'exportRows',
  orders: 'orders',
  leads: 'leads',
  assets: 'assets',
  facts: 'facts',
  'lockout-after': 'lockoutAfter',
  'token-lifetime-minutes': 'tokenLifetimeMinutes',
  'token-lifetime': 'tokenLifetimeSeconds',
  'bidw-transient-every': 'bidwTransientEvery',
  'rate-limit': 'rateLimitPerSecond',
  constituents: 'constituents',
  transactions: 'transactions',
  bookings: 'bookings',
  'bookings-per-page': 'bookingsPerPage',
} as const satisfies Record<string, keyof SandboxOptions>;

type IntegerFlag = keyof typeof INTEGER_FLAGS;

const HELP = `Usage: apiwb sandbox [options]

Starts the simulated customer-engagement, fundraising and booking services on 127.0.0.1 and serves
until Ctrl-C, a kill or a hang-up (SIGINT, SIGTERM, SIGHUP, SIGQUIT). Data is generated on demand from
the seed, so sizes cost no start-up time.

Options:
  --write-env-file PATH         write the "sandbox" environment ("sandbox-next" with --release next:
                                addresses, account names, auth entries; no secret) into the
                                http-client.env.json at PATH once ready, keeping its other
                                environments: what the sample collection runs with
  --json                        print one JSON line (URLs, sample credentials, sample records) once ready
  --engagement-port N           port of the engagement service (default 0 = a free port)
  --fundraising-port N          port of the fundraising service (default 0)
  --booking-port N              port of the booking service (default 0)
  --seed N                      seed of the generated data (default ${SANDBOX_DEFAULTS.seed})
  --export-rows N               rows of each Selection export (default ${SANDBOX_DEFAULTS.exportRows}; 100 000 a page)
  --orders N                    orders of the sample customer (default ${SANDBOX_DEFAULTS.orders})
  --leads N                     leads of the sample customer (default ${SANDBOX_DEFAULTS.leads})
  --assets N                    assets served by CustomerAsset/GetAssets (default ${SANDBOX_DEFAULTS.assets})
  --facts N                     rows of a BIDWHouse extraction (default ${SANDBOX_DEFAULTS.facts})
  --bidw-transient-every N      a transient 500 on every Nth BIDWHouse call of a token (default ${SANDBOX_DEFAULTS.bidwTransientEvery}; 0 = never)
  --lockout-after N             failed sign-ins before a user is locked (default ${SANDBOX_DEFAULTS.lockoutAfter})
  --token-lifetime-minutes N    engagement token lifetime (default ${SANDBOX_DEFAULTS.tokenLifetimeMinutes} = 72 hours)
  --token-lifetime SECONDS      engagement tokens that live SECONDS (choice token-lifetime), so a walk
                                outlives its token
  --rate-limit N                N requests a second to each service's paged operations (choice rate-limit):
                                RateLimit-* / X-RateLimit-* headers, over it 429 + Retry-After (default 0 = off)
  --constituents N, --transactions N, --bookings N, --bookings-per-page N   data sizes
  --release current|next         which release to serve (default current); next is the sandbox's own next
                                release (choice release-next): the differences apiwb compare should find
  --fail-page STYLE:N:FAULT     make page N of a STYLE walk fail once (repeatable); STYLE is one of
                                page-number, page-headers, offset-remaining, batch-cursor, export-ordinal,
                                stateful-extraction, generic; FAULT is drop, status=CODE, delay=MS, drip=MS,
                                malformed-json or huge-body[=BYTES]
  --choice NAME=on|off          switch a sandbox choice (repeatable); the choices, and their defaults:
${SANDBOX_CHOICE_IDS.map((id) => `                                  ${id} (${SANDBOX_CHOICES[id].defaultOn ? 'on' : 'off'}${SANDBOX_CHOICES[id].switchable ? '' : ', fixed'})`).join('\n')}
  --help                        this text

Where a contract is silent the sandbox makes a choice and names it in the X-Sandbox-Choice response
header; a request may send X-Sandbox-Choice: NAME=on|off to switch one for itself. GET /__sandbox/choices
lists the run's settings.
At run time: header X-Sandbox-Fault: FAULT on any request; POST /__sandbox/faults {"failPage":"STYLE:N:FAULT"};
GET or DELETE /__sandbox/requests (the request log, secrets redacted) on each service's origin.
`;

export const sandboxSubcommand: Subcommand = {
  run: runSandbox,
};

async function runSandbox(args: readonly string[]): Promise<number> {
  let options: SandboxOptions;
  let json: boolean;
  let envFile: string | undefined;
  try {
    const parsed = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        json: { type: 'boolean' },
        // Not `--env-file`: node 20 takes that argument for itself even after the script's name.
        'write-env-file': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        'fail-page': { type: 'string', multiple: true },
        choice: { type: 'string', multiple: true },
        release: { type: 'string' },
        ...Object.fromEntries(Object.keys(INTEGER_FLAGS).map((flag) => [flag, { type: 'string' as const }])),
      },
    });
    if (parsed.values.help) {
      process.stdout.write(HELP);
      return 0;
    }
    json = parsed.values.json === true;
    envFile = parsed.values['write-env-file'];
    if (envFile === '') throw new Error('--write-env-file needs a path');
    const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
    const built: Record<string, unknown> = {};
    for (const [flag, key] of Object.entries(INTEGER_FLAGS) as [IntegerFlag, string][]) {
      const raw = values[flag];
      if (typeof raw !== 'string') continue;
      const n = Number(raw);
      const max = flag.endsWith('-port') ? 65_535 : Number.MAX_SAFE_INTEGER;
      if (!/^\d+$/.test(raw) || n > max) throw new Error(`--${flag} needs an integer from 0 to ${max}, not '${raw}'`);
      built[key] = n;
    }
    const failPages = (values['fail-page'] as string[] | undefined) ?? [];
    failPages.forEach((spec) => parsePageFault(spec));
    const choices = Object.assign({}, ...((values['choice'] as string[] | undefined) ?? []).map(parseChoiceList)) as SandboxOptions['choices'];
    resolveChoices(choices);
    const release = values['release'];
    if (release !== undefined && release !== 'current' && release !== 'next') throw new Error(`--release must be current or next, not '${String(release)}'`);
    options = { ...built, failPages, ...(release === 'next' ? { release } : {}), ...(choices && Object.keys(choices).length > 0 ? { choices } : {}) };
  } catch (error) {
    process.stderr.write(`apiwb sandbox: ${terminalSafe(faultText(error))}\n\n${HELP}`);
    return 2;
  }

  // Listen for the ending signals before anything is printed: a parent that reads the JSON line may
  // signal at once. They stay attached: a wrapper (npx, tsx) may forward the same signal a second
  // time, and without a listener that second one would kill the process before it closes cleanly.
  const stopped = new Promise<void>((resolve) => {
    for (const signal of ENDING_SIGNALS) process.on(signal, () => resolve());
  });
  const sandbox = await startSandbox(options);
  const d = sandbox.descriptor;
  if (envFile !== undefined) {
    try {
      writeSandboxEnvFile(envFile, d, sandboxEnvironmentName(options.release));
    } catch (error) {
      process.stderr.write(`apiwb sandbox: ${terminalSafe(`could not write ${envFile}: ${faultText(error)}`)}\n`);
      await sandbox.close();
      return 2;
    }
  }
  if (json) {
    process.stdout.write(`${JSON.stringify(d)}\n`);
  } else {
    // Human lines carry no secret (passwords, service keys, tokens are in the --json line only).
    process.stdout.write([
      `API Workbench sandbox is running on 127.0.0.1${options.release === 'next' ? ', serving its next release' : ''} (Ctrl+C to stop)`,
      `  engagement   ${d.engagement.baseUrl}   token: POST ${d.engagement.authUrl}/token   user ${d.credentials.engagement.username}`,
      `  fundraising  ${d.fundraising.baseUrl}   tenant ${d.credentials.fundraising.tenantCode}   OpenAPI ${d.fundraising.baseUrl}/openapi/v1.json`,
      `  booking      ${d.booking.baseUrl}/bookings`,
      `  samples      ctcID ${d.samples.ctcID} (${d.samples.ordersOfCtcID} orders), brandID ${d.samples.brandID}, export ${d.samples.exportRows} rows`,
      ...(envFile === undefined ? [] : [`  env file     wrote the "${sandboxEnvironmentName(options.release)}" environment into ${envFile} (no secret in it)`]),
      '  Passwords, service keys and a sample JWT: run with --json.',
      '',
    ].join('\n'));
  }
  await stopped;
  await sandbox.close();
  if (!json) process.stdout.write('API Workbench sandbox stopped.\n');
  return 0;
}
