// `apiwb compare` over real HTTP: the sandbox against its next release (`--release next`) finds exactly
// the differences the next release plants (src/sandbox/fundraising/nextRelease.ts) and nothing else;
// two instances of the same release agree; a baseline written once compares later; each side's
// credentials reach only its own origins.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { compareCommand } from '../../src/cli/compare/compareCommand';
import type { CliResult } from './cliProcess';
import { commandInProcess } from './inProcess';
import { constituent, FIRST_TRANSACTION_ID } from '../../src/sandbox/fundraising/data';
import { NEXT_ADDED_PAYMENTS, NEXT_FIRST_ADDED_ID, nextRelease } from '../../src/sandbox/fundraising/nextRelease';
import { nextReleaseChangesBooking } from '../../src/sandbox/booking/bookingRoutes';
import { NEXT_ADDED_ORDERS, NEXT_FIRST_ADDED_ORDER, nextReleaseOrders } from '../../src/sandbox/engagement/nextRelease';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index';
import type { SandboxDescriptor } from '../../src/sandbox/descriptor';
import { openSandboxWorkspace, sandboxEnvFileText, SMALL_SANDBOX, type SandboxWorkspace } from './sandboxEnv';

const compareInProcess = (args: readonly string[], env: Record<string, string>): Promise<CliResult> => commandInProcess(compareCommand, args, env);

const REQUESTS = `### Constituents
# @name constituents
GET {{fundraising_base_url}}/v1/constituents?limit=200
Authorization: Basic {{$auth.token("fundraising")}}
X-API-Key: {{tenant_code}}

### Payments
# @name payments
GET {{fundraising_base_url}}/v1/transactions?limit=250
Authorization: Basic {{$auth.token("fundraising")}}
X-API-Key: {{tenant_code}}

### Lookup types
# @name lookupTypes
GET {{fundraising_base_url}}/v1/lookup-types
Authorization: Basic {{$auth.token("fundraising")}}
X-API-Key: {{tenant_code}}

### A customer's leads (signed in with a password-grant token on each side)
# @name leads
POST {{engagement_base_url}}/api/SalesLeads/GetLeads
Authorization: Bearer {{$auth.token("engagement")}}
Content-Type: application/json

{ "CtcID": {{ctc_id}}, "BrandID": {{brand_id}}, "PageSize": 100, "Offset": 0 }
`;

const ORDERS = `# @name orders
GET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?ctcID={{ctc_id}}&pageNumber=1&pageSize=50
Authorization: Bearer {{$auth.token("engagement")}}
`;

/** One env file holding `sandbox` and, under `name`, the same environment on another sandbox's origins. */
function writeTwoEnvironments(ws: SandboxWorkspace, other: SandboxDescriptor, name: string): void {
  const first = JSON.parse(readFileSync(ws.envFile, 'utf8')) as Record<string, unknown>;
  const second = JSON.parse(sandboxEnvFileText(other)) as Record<string, unknown>;
  writeFileSync(ws.envFile, JSON.stringify({ ...first, [name]: second['sandbox'] }, null, 2));
}

interface Line { request: string; kind: string; key?: unknown; fields?: { path: string; kind: string; before?: unknown; after?: unknown }[]; differences?: string[] }

void describe('apiwb compare against the sandbox and its next release', () => {
  let ws: SandboxWorkspace;
  let next: RunningSandbox;
  let same: RunningSandbox;
  let http: string;

  before(async () => {
    ws = await openSandboxWorkspace(SMALL_SANDBOX);
    next = await startSandbox({ ...SMALL_SANDBOX, release: 'next' });
    same = await startSandbox(SMALL_SANDBOX);
    writeTwoEnvironments(ws, next.descriptor, 'sandbox-next');
    const both = JSON.parse(readFileSync(ws.envFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(ws.envFile, JSON.stringify({ ...both, 'sandbox-again': (JSON.parse(sandboxEnvFileText(same.descriptor)) as Record<string, unknown>)['sandbox'] }, null, 2));
    http = join(ws.dir, 'compare.http');
    writeFileSync(http, REQUESTS);
  });
  after(async () => {
    await next.close();
    await same.close();
    await ws.close();
  });

  void it('finds exactly the planted differences, and nothing else (rule 000-9-later-release-changes)', async () => {
    const out = join(ws.dir, 'diffs.ndjson');
    const result = await compareInProcess([http, '--env', 'sandbox', '--against', 'sandbox-next', '--all-pages', '--out', out, '--partition-bytes', '20000'], ws.secrets);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    if (process.env['APIWB_SHOW']) writeFileSync(process.env['APIWB_SHOW'], result.stdout);
    const d = ws.descriptor.samples;
    const organisations = Array.from({ length: d.constituents }, (_, i) => constituent({ seed: 3, constituents: d.constituents, transactions: d.transactions }, i))
      .filter((c) => nextRelease.addsCharityNumber(c)).map((c) => c['constituentNumber']);
    const indexes = Array.from({ length: d.transactions }, (_, i) => i);
    const removed = indexes.filter(nextRelease.removesPayment).map((i) => FIRST_TRANSACTION_ID + i);
    const changed = indexes.filter(nextRelease.changesPayment).map((i) => FIRST_TRANSACTION_ID + i);
    const added = Array.from({ length: NEXT_ADDED_PAYMENTS }, (_, k) => NEXT_FIRST_ADDED_ID + k);
    assert.ok(organisations.length > 10 && removed.length > 2 && changed.length > 2);

    assert.match(result.stdout, new RegExp(`✗ constituents .* differ: added 0, removed 0, changed ${organisations.length}, unchanged ${d.constituents - organisations.length}\\n.*\\n.*\\n    fields on side B only: charityNumber\\n`));
    assert.match(result.stdout, new RegExp(`✗ payments .* differ: added ${added.length}, removed ${removed.length}, changed ${changed.length}, unchanged ${d.transactions - removed.length - changed.length}\\n`));
    assert.match(result.stdout, /✓ lookupTypes .* agree: added 0, removed 0, changed 0, unchanged 12\n/);
    assert.match(result.stdout, new RegExp(`✓ leads .* agree: added 0, removed 0, changed 0, unchanged ${d.leadsOfCtcID}\\n`));
    assert.match(result.stdout, /    A: 200 · business ok · complete · 1234 rows\n    B: 200 · business ok · complete · 1234 rows/);
    assert.match(result.stdout, /4 requests compared, 2 differ/);

    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);
    const keys = (request: string, kind: string): unknown[] => lines.filter((l) => l.request === request && l.kind === kind).map((l) => l.key).sort();
    assert.deepEqual(keys('constituents', 'changed'), [...organisations].sort());
    assert.deepEqual(keys('payments', 'removed'), removed);
    assert.deepEqual(keys('payments', 'changed'), changed);
    assert.deepEqual(keys('payments', 'added'), added);
    for (const line of lines.filter((l) => l.request === 'payments' && l.kind === 'changed')) {
      assert.equal(line.fields?.length, 1);
      assert.equal(line.fields?.[0]?.path, 'amount');
      assert.equal(Math.round((Number(line.fields?.[0]?.after) - Number(line.fields?.[0]?.before)) * 100), 100);
    }
    for (const line of lines.filter((l) => l.request === 'constituents' && l.kind === 'changed')) {
      assert.deepEqual(line.fields?.map((f) => [f.path, f.kind]), [['charityNumber', 'added']]);
    }
    // Nothing else: every line is one of the planted differences or the constituents' shape line.
    assert.equal(lines.length, organisations.length + removed.length + changed.length + added.length + 1);
    assert.deepEqual(lines.filter((l) => l.kind === 'request'), [{ request: 'constituents', kind: 'request', differences: ['fields on side B only: charityNumber'] }]);
    assert.ok(!ws.secretValues.some((s) => result.stdout.includes(s) || readFileSync(out, 'utf8').includes(s)));
  });

  void it('two instances of the same release agree (exit 0): volatile values and page positions are no change', async () => {
    const result = await compareInProcess([http, '--env', 'sandbox', '--against', 'sandbox-again', '--all-pages'], ws.secrets);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /4 requests compared, 0 differ/);
  });

  void it('--ignore takes the planted amount change out: only removed and added payments differ', async () => {
    const result = await compareInProcess([http, '--env', 'sandbox', '--against', 'sandbox-next', '--all-pages', '--name', 'payments', '--ignore', 'amount'], ws.secrets);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /✗ payments .* differ: added 3, removed \d+, changed 0, /);
  });

  void it('--baseline DIR records a side once, and a later run compares with it', async () => {
    const dir = join(ws.dir, 'baseline');
    const recorded = await compareInProcess([http, '--env', 'sandbox', '--baseline', dir, '--all-pages', '--name', 'payments'], ws.secrets);
    assert.equal(recorded.code, 0, recorded.stdout + recorded.stderr);
    assert.match(recorded.stdout, /baseline of 1 request written/);
    const sameRelease = await compareInProcess([http, '--env', 'sandbox-again', '--baseline', dir, '--all-pages', '--name', 'payments'], ws.secrets);
    assert.equal(sameRelease.code, 0, sameRelease.stdout + sameRelease.stderr);
    const nextRelease = await compareInProcess([http, '--env', 'sandbox-next', '--baseline', dir, '--all-pages', '--name', 'payments', '--reporter', 'json', '--report', join(ws.dir, 'r.json')], ws.secrets);
    assert.equal(nextRelease.code, 1);
    const report = JSON.parse(readFileSync(join(ws.dir, 'r.json'), 'utf8')) as { requests: { label: string; ok: boolean; compare?: unknown }[] };
    assert.deepEqual(report.requests.map((r) => [r.label, r.ok, r.compare]), [['payments', false, { added: 3, removed: 5, changed: 6, unchanged: 2334 }]]);
    // A baseline of other requests is an input error, not a difference.
    const other = await compareInProcess([http, '--env', 'sandbox', '--baseline', dir, '--all-pages', '--name', 'constituents'], ws.secrets);
    assert.equal(other.code, 2);
    assert.match(other.stderr, /holds other requests/);
  });

  void it('bookings: exactly the planted status changes, matched by --key (rule 000-9-later-release-changes)', async () => {
    const file = join(ws.dir, 'bookings.http');
    writeFileSync(file, '# @name bookings\nGET {{booking_base_url}}/bookings\n');
    const out = join(ws.dir, 'bookings.ndjson');
    const result = await compareInProcess([file, '--env', 'sandbox', '--against', 'sandbox-next', '--all-pages', '--key', 'bookingId', '--out', out], ws.secrets);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const total = ws.descriptor.samples.bookings;
    const planted = Array.from({ length: total }, (_, i) => i).filter(nextReleaseChangesBooking).map((i) => `BK-${String(i + 1).padStart(6, '0')}`);
    assert.match(result.stdout, new RegExp(`differ: added 0, removed 0, changed ${planted.length}, unchanged ${total - planted.length}`));
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);
    assert.deepEqual(lines.map((l) => l.key), planted);
    assert.ok(lines.every((l) => l.fields?.length === 1 && l.fields[0]?.path === 'status'));
  });

  void it('engagement orders (1.34 against 1.35, sandbox choices): exactly the planted ones, matched by --key (rule 000-9-later-release-changes)', async () => {
    const file = join(ws.dir, 'orders.http');
    writeFileSync(file, ORDERS);
    const out = join(ws.dir, 'orders.ndjson');
    const result = await compareInProcess([file, '--env', 'sandbox', '--against', 'sandbox-next', '--all-pages', '--key', 'OrderID', '--out', out, '--partition-bytes', '3000'], ws.secrets);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const ctc = ws.descriptor.samples.ctcID;
    const total = SMALL_SANDBOX.orders!;
    const idOf = (i: number): number => ctc * 100_000 + i + 1;
    const indexes = Array.from({ length: total }, (_, i) => i).filter((i) => !nextReleaseOrders.removes(i));
    const removed = Array.from({ length: total }, (_, i) => i).filter(nextReleaseOrders.removes).map(idOf);
    const status = indexes.filter(nextReleaseOrders.changesStatus);
    const channel = indexes.filter(nextReleaseOrders.addsChannel);
    const changed = [...new Set([...status, ...channel])].sort((x, y) => x - y).map(idOf);
    const added = Array.from({ length: NEXT_ADDED_ORDERS }, (_, k) => ctc * 100_000 + NEXT_FIRST_ADDED_ORDER + k);
    assert.ok(removed.length >= 2 && status.length >= 2 && channel.length >= 10 && status.every((i) => !channel.includes(i)));
    assert.match(result.stdout, new RegExp(`✗ orders .* differ: added ${added.length}, removed ${removed.length}, changed ${changed.length}, unchanged ${total - removed.length - changed.length}\\n`));
    assert.match(result.stdout, new RegExp(`    A: 200 · business ok · complete · ${total} rows\\n    B: 200 · business ok · complete · ${total - removed.length + added.length} rows\\n    fields on side B only: Channel\\n`));
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);
    const keys = (kind: string): unknown[] => lines.filter((l) => l.kind === kind).map((l) => l.key).sort((x, y) => Number(x) - Number(y));
    assert.deepEqual(keys('removed'), removed);
    assert.deepEqual(keys('changed'), changed);
    assert.deepEqual(keys('added'), added);
    for (const line of lines.filter((l) => l.kind === 'changed')) {
      const index = Number(line.key) - ctc * 100_000 - 1;
      const expected = nextReleaseOrders.addsChannel(index) ? [['Channel', 'added']] : [['Status', 'changed']];
      assert.deepEqual(line.fields?.map((f) => [f.path, f.kind]), expected, JSON.stringify(line));
    }
    // Nothing else: the planted records and the shape line.
    assert.equal(lines.length, removed.length + changed.length + added.length + 1);
    assert.deepEqual(lines.filter((l) => l.kind === 'request'), [{ request: 'orders', kind: 'request', differences: ['fields on side B only: Channel'] }]);
    // Without a key the records are matched by content: a changed order is one removed and one added.
    const byContent = await compareInProcess([file, '--env', 'sandbox', '--against', 'sandbox-next', '--all-pages'], ws.secrets);
    assert.match(byContent.stdout, new RegExp(`differ: added ${added.length + changed.length}, removed ${removed.length + changed.length}, changed 0, unchanged ${total - removed.length - changed.length}\\n`));
  });

  void it('input errors exit 2 before anything is sent', async () => {
    const missing = await compareInProcess([http, '--env', 'sandbox', '--against', 'nowhere'], ws.secrets);
    assert.equal(missing.code, 2);
    const both = await compareInProcess([http, '--env', 'sandbox'], ws.secrets);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /--against NAME or --baseline DIR/);
    // The catalog is read as `apiwb run` reads it (runPlan.ts: catalogOf): an unreadable overlay is named.
    const overlay = join(ws.dir, 'broken-overlay.json');
    writeFileSync(overlay, 'not an overlay');
    const unreadable = await compareInProcess([http, '--env', 'sandbox', '--against', 'sandbox-next', '--overlay', overlay], ws.secrets);
    assert.equal(unreadable.code, 2, unreadable.stderr);
    assert.ok(unreadable.stderr.includes(`--overlay ${overlay}: `), unreadable.stderr);
  });
});

void describe('apiwb compare keeps each side\'s credentials on its own origins', () => {
  let ws: SandboxWorkspace;
  let server: ReturnType<typeof createServer>;
  const seen: string[] = [];

  before(async () => {
    ws = await openSandboxWorkspace(SMALL_SANDBOX);
    // Side B: a server of the test's own that answers as the fundraising and engagement services do
    // for these requests, and records every credential it is sent.
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (c: Buffer) => { body += c.toString(); });
      req.on('end', () => {
        seen.push(`${req.headers.authorization ?? ''} ${body}`);
        res.setHeader('content-type', 'application/json');
        if (req.url?.startsWith('/auth/token')) res.end(JSON.stringify({ access_token: 'token-of-side-b', token_type: 'bearer', expires_in: 3600 }));
        else if (req.url?.startsWith('/v1/')) res.end(JSON.stringify({ count: 1, value: [{ lookupTypeId: 1, name: 'x' }], next_link: null }));
        else res.end(JSON.stringify({ ResponseStatus: true, Errors: [], Leads: [] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const env = JSON.parse(readFileSync(ws.envFile, 'utf8')) as Record<string, Record<string, unknown>>;
    env['elsewhere'] = { ...env['sandbox'], engagement_base_url: origin, engagement_auth_url: `${origin}/auth`, fundraising_base_url: origin };
    writeFileSync(ws.envFile, JSON.stringify(env, null, 2));
    writeFileSync(join(ws.dir, 'compare.http'), REQUESTS);
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await ws.close();
  });

  void it('side A\'s password, service key and token never reach side B\'s server', async () => {
    const secrets = {
      APIWB_SECRET_SANDBOX__ENGAGEMENT_PASSWORD: ws.secrets['APIWB_SECRET_ENGAGEMENT_PASSWORD']!,
      APIWB_SECRET_SANDBOX__FUNDRAISING_SERVICE_KEY: ws.secrets['APIWB_SECRET_FUNDRAISING_SERVICE_KEY']!,
      APIWB_SECRET_ELSEWHERE__ENGAGEMENT_PASSWORD: 'password-of-side-b',
      APIWB_SECRET_ELSEWHERE__FUNDRAISING_SERVICE_KEY: 'key-of-side-b',
    };
    const result = await compareInProcess([join(ws.dir, 'compare.http'), '--env', 'sandbox', '--against', 'elsewhere', '--name', 'lookupTypes'], secrets);
    const leads = await compareInProcess([join(ws.dir, 'compare.http'), '--env', 'sandbox', '--against', 'elsewhere', '--name', 'leads'], secrets);
    writeFileSync(join(ws.dir, 'orders.http'), ORDERS);
    const orders = await compareInProcess([join(ws.dir, 'orders.http'), '--env', 'sandbox', '--against', 'elsewhere'], secrets);
    assert.match(orders.stdout, /A: 200 .*\n    B: 200/, orders.stdout + orders.stderr);
    assert.match(result.stdout, /A: 200 .*\n    B: 200/, result.stdout + result.stderr);
    assert.match(leads.stdout, /A: 200 .*\n    B: 200/, leads.stdout + leads.stderr);
    const heard = seen.join('\n');
    const sandboxKey = secrets.APIWB_SECRET_SANDBOX__FUNDRAISING_SERVICE_KEY;
    const basicA = Buffer.from(`${ws.descriptor.credentials.fundraising.fullAccess.permissionName}:${sandboxKey}`).toString('base64');
    assert.ok(!heard.includes(sandboxKey) && !heard.includes(basicA), 'side A\'s service key reached side B');
    assert.ok(!heard.includes(encodeURIComponent(secrets.APIWB_SECRET_SANDBOX__ENGAGEMENT_PASSWORD)) && !heard.includes(secrets.APIWB_SECRET_SANDBOX__ENGAGEMENT_PASSWORD), 'side A\'s password reached side B');
    // Side B got its own: the key in Basic, the password in its sign-in, the token it handed out.
    assert.ok(heard.includes(Buffer.from(`${ws.descriptor.credentials.fundraising.fullAccess.permissionName}:key-of-side-b`).toString('base64')));
    assert.ok(heard.includes('password=password-of-side-b'));
    const bearers = seen.map((s) => /^Bearer (\S+)/.exec(s)?.[1]).filter((t) => t !== undefined);
    assert.ok(bearers.length > 0);
    assert.deepEqual([...new Set(bearers)], ['token-of-side-b']);
  });
});
