// startSandbox: the three simulated services on 127.0.0.1, each on its own port (0 = a free one).
// Nothing is generated up front: every row is computed from (seed, index) when a page is read, so
// start-up costs the same for a 1 000 000-row export as for a 10-row one.
import { SELECTION_ROWS_PER_PAGE } from '../core/catalog/schemas/engagementPaging';
import { startBooking } from './booking';
import type { RunningSandbox, SandboxDescriptor, SandboxOptions } from './descriptor';
import { startEngagement } from './engagement';
import { LOCKED_USER, MAIN_USER, RESTRICTED_DENIED_OPERATIONS, RESTRICTED_USER } from './engagement/auth';
import { BRANDS, CUSTOMER_COUNT, FIRST_CTC_ID, type EngagementData } from './engagement/data';
import { SELECTION_FORMATS } from './engagement/data';
import { startFundraising } from './fundraising';
import { JWT_USERS } from './fundraising/auth';
import { FIRST_CONSTITUENT_ID, FIRST_LIST_ID, FIRST_TRANSACTION_ID, LOOKUP_TYPES } from './fundraising/data';
import { resolveChoices } from './shared/choices';
import { PageFaultRegistry } from './shared/faults';
import { RateLimiter } from './shared/rateLimit';

export type { RunningSandbox, SandboxOptions } from './descriptor';
export { parsePageFault } from './shared/faults';
export { parseChoiceList, resolveChoices } from './shared/choices';

export const SANDBOX_DEFAULTS = {
  seed: 3,
  exportRows: 250_000,
  selectionPageRows: SELECTION_ROWS_PER_PAGE,
  orders: 1234,
  lockoutAfter: 5,
  tokenLifetimeMinutes: 72 * 60,
  leads: 345,
  assets: 2500,
  facts: 60_000,
  bidwTransientEvery: 4,
  constituents: 1234,
  transactions: 2345,
  bookings: 237,
  bookingsPerPage: 25,
  rateLimitPerSecond: 0,
} as const;

const JWT_SAMPLE_LIFETIME_SECONDS = 24 * 3600;

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const o = { ...SANDBOX_DEFAULTS, ...withoutUndefined(options) };
  const now = options.now ?? Date.now;
  const short = options.tokenLifetimeSeconds;
  const choices = resolveChoices({ 'rate-limit': o.rateLimitPerSecond > 0, 'token-lifetime': short !== undefined, 'release-next': options.release === 'next', ...options.choices });
  // Each service its own quota (rate-limit): N requests a second to its paged operations.
  const limiter = (): RateLimiter => new RateLimiter(o.rateLimitPerSecond, now);
  const tokenLifetimeSeconds = short !== undefined && choices['token-lifetime'] ? short : Math.round(o.tokenLifetimeMinutes * 60);
  const pageFaults = new PageFaultRegistry();
  for (const spec of options.failPages ?? []) pageFaults.arm(spec);

  const engagementData: EngagementData = {
    seed: o.seed,
    sampleCtcID: FIRST_CTC_ID + 1,
    ctcIDWithoutHistory: FIRST_CTC_ID + 2,
    unknownCtcID: FIRST_CTC_ID + CUSTOMER_COUNT + 1,
    sampleOrders: o.orders,
    sampleLeads: o.leads,
    assets: o.assets,
    facts: o.facts,
  };
  const started = await Promise.allSettled([
    startEngagement({
      port: options.engagementPort ?? 0,
      data: engagementData,
      exportRows: o.exportRows,
      selectionPageRows: o.selectionPageRows,
      lockoutAfter: o.lockoutAfter,
      tokenLifetimeSeconds: Math.round(o.tokenLifetimeMinutes * 60),
      ...(short !== undefined ? { shortTokenLifetimeSeconds: short } : {}),
      rateLimitPerSecond: o.rateLimitPerSecond,
      bidwTransientEvery: o.bidwTransientEvery,
      pageFaults,
      choices,
      now,
    }),
    startFundraising({
      port: options.fundraisingPort ?? 0,
      data: { seed: o.seed, constituents: o.constituents, transactions: o.transactions },
      rateLimitPerSecond: o.rateLimitPerSecond,
      pageFaults,
      choices,
      now,
    }),
    startBooking(options.bookingPort ?? 0, { seed: o.seed, total: o.bookings, perPage: o.bookingsPerPage }, pageFaults, choices, limiter()),
  ]);
  const [eng, fund, book] = started;
  if (eng.status !== 'fulfilled' || fund.status !== 'fulfilled' || book.status !== 'fulfilled') {
    await Promise.all(started.flatMap((s) => (s.status === 'fulfilled' ? [s.value.close()] : [])));
    const failure = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    throw failure?.reason instanceof Error ? failure.reason : new Error(String(failure?.reason));
  }
  const engagement = eng.value;
  const fundraising = fund.value;
  const booking = book.value;
  const jwtUser = Object.keys(JWT_USERS)[0] ?? '';

  const descriptor: SandboxDescriptor = {
    engagement: { baseUrl: engagement.origin, authUrl: engagement.authUrl },
    fundraising: { baseUrl: fundraising.origin },
    booking: { baseUrl: booking.origin },
    credentials: {
      engagement: {
        username: MAIN_USER.username,
        password: MAIN_USER.password,
        restrictedUser: { ...RESTRICTED_USER, deniedOperations: RESTRICTED_DENIED_OPERATIONS },
        lockedUser: LOCKED_USER,
        lockoutAfter: o.lockoutAfter,
        tokenLifetimeSeconds,
      },
      fundraising: {
        tenantCode: fundraising.auth.tenantCode,
        fullAccess: pickRecord(fundraising.auth.records.fullAccess),
        readOnly: pickRecord(fundraising.auth.records.readOnly),
        ipRestricted: { ...pickRecord(fundraising.auth.records.ipRestricted), allowedRange: fundraising.auth.records.ipRestricted.allowedRange ?? '' },
        jwt: {
          user: jwtUser,
          token: fundraising.mintJwt(jwtUser, JWT_SAMPLE_LIFETIME_SECONDS),
          mintUrl: fundraising.jwtMintUrl,
          users: JWT_USERS,
        },
      },
      booking: { auth: 'none' },
    },
    samples: {
      ctcID: engagementData.sampleCtcID,
      ordersOfCtcID: o.orders,
      leadsOfCtcID: o.leads,
      ctcIDWithoutHistory: engagementData.ctcIDWithoutHistory,
      unknownCtcID: engagementData.unknownCtcID,
      brandID: BRANDS[0].BrandID,
      brandIDs: [BRANDS[0].BrandID, BRANDS[1].BrandID],
      deniedBrandID: BRANDS[2].BrandID,
      exportRows: o.exportRows,
      selectionPageRows: o.selectionPageRows,
      selectionFormatIDs: Object.keys(SELECTION_FORMATS).map(Number),
      assets: o.assets,
      facts: o.facts,
      bidwTransientEvery: o.bidwTransientEvery,
      constituentId: String(FIRST_CONSTITUENT_ID),
      householdConstituentId: String(FIRST_CONSTITUENT_ID + 1),
      transactionId: String(FIRST_TRANSACTION_ID),
      listDefinitionId: String(FIRST_LIST_ID),
      lookupLanguages: [...new Set(LOOKUP_TYPES.map((t) => String(t['language'])))],
      constituents: o.constituents,
      transactions: o.transactions,
      bookings: o.bookings,
      bookingsPerPage: o.bookingsPerPage,
    },
    choices,
  };

  let closed: Promise<void> | undefined;
  return {
    descriptor,
    armPageFault: (spec) => pageFaults.arm(spec),
    close: () => {
      closed ??= Promise.all([engagement.close(), fundraising.close(), booking.close()]).then(() => undefined);
      return closed;
    },
  };
}

function pickRecord(record: { permissionName: string; serviceKey: string }): { permissionName: string; serviceKey: string } {
  return { permissionName: record.permissionName, serviceKey: record.serviceKey };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
