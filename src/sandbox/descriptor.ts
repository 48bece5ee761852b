// The sandbox's public types: the options it starts with and the descriptor it prints
// (`apiwb sandbox --json`). Other modules and tests import these; keep them stable.
import type { SandboxChoiceId } from '../core/catalog/rules';
import type { PageFaultSpec } from './shared/faults';

export interface SandboxOptions {
  /** Ports to listen on; 0 (the default) picks a free port. The host is always 127.0.0.1. */
  readonly engagementPort?: number;
  readonly fundraisingPort?: number;
  readonly bookingPort?: number;
  /** Seed of every generated value (default 3). */
  readonly seed?: number;
  /** Rows of each Selection/GetSelectionResult_Ext export (default 250 000). */
  readonly exportRows?: number;
  /** Rows a Selection page holds (default 100 000, as published; lower it only in tests). */
  readonly selectionPageRows?: number;
  /** Orders of the sample customer `samples.ctcID` (default 1 234, i.e. more than 500). */
  readonly orders?: number;
  /** Failed sign-ins before an engagement user is locked (default 5). */
  readonly lockoutAfter?: number;
  /** Engagement token lifetime in minutes (default 4 320 = 72 hours, the published default). */
  readonly tokenLifetimeMinutes?: number;
  /**
   * Engagement tokens that live this many seconds (the `token-lifetime` choice, --token-lifetime): a walk
   * outlives its token in a test. Unset: tokenLifetimeMinutes.
   */
  readonly tokenLifetimeSeconds?: number;
  /** Leads of the sample customer on the sample brand (default 345). */
  readonly leads?: number;
  /** Assets served by CustomerAsset/GetAssets (default 2 500). */
  readonly assets?: number;
  /** Fact rows of one BIDWHouse extraction (default 60 000). */
  readonly facts?: number;
  /** BIDWHouse answers a transient 500 on every Kth call of a token (default 4; 0 disables). */
  readonly bidwTransientEvery?: number;
  /** Fundraising constituents (default 1 234) and transactions (default 2 345). */
  readonly constituents?: number;
  readonly transactions?: number;
  /** Booking records (default 237) and bookings a page (default 25). */
  readonly bookings?: number;
  readonly bookingsPerPage?: number;
  /** Requests a second to each service's paged operations before 429 + Retry-After, with RateLimit-* headers (default 0 = off). */
  readonly rateLimitPerSecond?: number;
  /**
   * Sandbox choices to switch on or off (the list: SANDBOX_CHOICES in src/core/catalog/rules.ts).
   * Unset ones keep their default; `rate-limit` follows rateLimitPerSecond unless given.
   */
  readonly choices?: Partial<Record<SandboxChoiceId, boolean>>;
  /** 'next': the sandbox's next release (sandbox choice `release-next`; src/sandbox/README.md lists its differences). */
  readonly release?: 'current' | 'next';
  /** Faults armed at start, e.g. `export-ordinal:2:drop` (see shared/faults.ts). */
  readonly failPages?: readonly (string | PageFaultSpec)[];
  /** Clock in epoch ms, for tests that need tokens to expire without waiting. */
  readonly now?: () => number;
}

export interface EngagementCredentials {
  readonly username: string;
  readonly password: string;
  /** A second user whose role may not call `deniedOperations` (HTTP 403) and has only one brand. */
  readonly restrictedUser: {
    readonly username: string;
    readonly password: string;
    readonly deniedOperations: readonly string[];
  };
  /** A user that is already locked: its sign-in answers invalid_grant "The user is locked.". */
  readonly lockedUser: { readonly username: string; readonly password: string };
  /** Failed sign-ins before a user is locked. */
  readonly lockoutAfter: number;
  /** The token lifetime the endpoint reports in expires_in, in seconds (the sandbox's unit: the contract states none). */
  readonly tokenLifetimeSeconds: number;
}

export interface FundraisingApiRecord {
  readonly permissionName: string;
  readonly serviceKey: string;
}

export interface FundraisingCredentials {
  /** The X-API-Key header value. */
  readonly tenantCode: string;
  /** Basic credentials with read and write rights. */
  readonly fullAccess: FundraisingApiRecord;
  /** Basic credentials that may only read (POST answers 403). */
  readonly readOnly: FundraisingApiRecord;
  /** Full rights but limited to callers in `allowedRange`, which excludes 127.0.0.1 (so 403). */
  readonly ipRestricted: FundraisingApiRecord & { readonly allowedRange: string };
  readonly jwt: {
    /** User of `token` (role fundraiser: read and write). */
    readonly user: string;
    /** A signed HS256 JWT for `user`, valid 24 hours from start-up. */
    readonly token: string;
    /** POST this URL with JSON {"sub": user, "expiresInSeconds"?: n} to mint another token. */
    readonly mintUrl: string;
    /** Users the mint endpoint knows and their roles. */
    readonly users: Readonly<Record<string, 'fundraiser' | 'viewer'>>;
  };
}

export interface SandboxDescriptor {
  readonly engagement: { readonly baseUrl: string; readonly authUrl: string };
  readonly fundraising: { readonly baseUrl: string };
  readonly booking: { readonly baseUrl: string };
  readonly credentials: {
    readonly engagement: EngagementCredentials;
    readonly fundraising: FundraisingCredentials;
    /** The booking contract shows no authentication; the sandbox asks for none. */
    readonly booking: { readonly auth: 'none' };
  };
  readonly samples: {
    /** Engagement customer with `ordersOfCtcID` orders (> 500) and `leadsOfCtcID` leads on brandID. */
    readonly ctcID: number;
    readonly ordersOfCtcID: number;
    readonly leadsOfCtcID: number;
    /** Engagement customer with no history: empty order list, no leads. */
    readonly ctcIDWithoutHistory: number;
    /** A ctcID that does not exist (LoyaltyPoint code 13). */
    readonly unknownCtcID: number;
    /** Brands the main user may use; brandID is the first. */
    readonly brandID: number;
    readonly brandIDs: readonly number[];
    /** A brand the main user may not use (LoyaltyPoint code 3). */
    readonly deniedBrandID: number;
    /** Rows of each Selection export, per page, and the FormatIDs served. */
    readonly exportRows: number;
    readonly selectionPageRows: number;
    readonly selectionFormatIDs: readonly number[];
    readonly assets: number;
    readonly facts: number;
    readonly bidwTransientEvery: number;
    /** Fundraising records. */
    readonly constituentId: string;
    readonly householdConstituentId: string;
    readonly transactionId: string;
    readonly listDefinitionId: string;
    readonly lookupLanguages: readonly string[];
    readonly constituents: number;
    readonly transactions: number;
    /** Booking list totals. */
    readonly bookings: number;
    readonly bookingsPerPage: number;
  };
  /** The sandbox choices in force (each answer that applies one names it in X-Sandbox-Choice). */
  readonly choices: Readonly<Record<SandboxChoiceId, boolean>>;
}

export interface RunningSandbox {
  readonly descriptor: SandboxDescriptor;
  /** Arms a fault for the Nth page of a paging walk (fires once). */
  armPageFault(spec: string | PageFaultSpec): void;
  /** Stops every listener and drops open connections. */
  close(): Promise<void>;
}
