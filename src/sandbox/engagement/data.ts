// The engagement service's seeded data, computed on demand from (seed, index): customers, orders,
// leads, assets, Selection export rows and BIDWHouse facts. Rows that are served in bulk are written
// straight to JSON text (values come from fixed word lists, so no escaping is needed).
import { hex, intBetween, pick, rowHash, rowRandom, streamKey } from '../shared/prng';

export interface EngagementData {
  readonly seed: number;
  readonly sampleCtcID: number;
  readonly ctcIDWithoutHistory: number;
  readonly unknownCtcID: number;
  readonly sampleOrders: number;
  readonly sampleLeads: number;
  readonly assets: number;
  readonly facts: number;
}

export const FIRST_CTC_ID = 100_000;
export const CUSTOMER_COUNT = 50_000;
export const BRANDS = [
  { BrandID: 1, Name: 'Harbour Hotels' },
  { BrandID: 2, Name: 'Summit Resorts' },
  { BrandID: 3, Name: 'Lakeside Inns' },
] as const;

/** Leads of every other customer of a brand: what the misleading Remaining counts over. */
export const OTHER_LEADS_PER_BRAND = 48_211;

const FIRST = ['Ada', 'Ben', 'Chloe', 'Dev', 'Elif', 'Farid', 'Grace', 'Hugo', 'Ines', 'Jon', 'Kira', 'Luca', 'Maya', 'Noor', 'Omar', 'Priya'];
const LAST = ['Archer', 'Bauer', 'Costa', 'Dubois', 'Evans', 'Fischer', 'Garcia', 'Haddad', 'Ito', 'Jensen', 'Khan', 'Lopez', 'Moreau', 'Novak', 'Okafor', 'Patel'];
/** first.last lower-cased for the 256 (first, last) pairs the low hash byte picks. */
const EMAIL_NAME: readonly string[] = Array.from({ length: 256 }, (_, i) => `${FIRST[i & 15] ?? ''}.${LAST[i >> 4] ?? ''}`.toLowerCase());
const CITY = ['London', 'Leeds', 'Bristol', 'Edinburgh', 'Dublin', 'Paris', 'Lyon', 'Lisbon', 'Porto', 'Madrid'];
const COUNTRY = ['GB', 'GB', 'GB', 'GB', 'IE', 'FR', 'FR', 'PT', 'PT', 'ES'];
const STATUS = ['Completed', 'Completed', 'Completed', 'Cancelled', 'Refunded'];
const LEAD_SOURCE = ['Website', 'Front desk', 'Event', 'Referral', 'Email campaign'];
const LEAD_STATUS = ['New', 'Contacted', 'Qualified', 'Won', 'Lost'];
const ASSET_TYPE = ['Membership card', 'Voucher', 'Gift card', 'Room key'];
const OUTLET = ['Bar', 'Restaurant', 'Spa', 'Rooms', 'Shop'];

const DAY_MS = 86_400_000;
const EPOCH_2025 = Date.UTC(2025, 0, 1);

// Date#toISOString dominated page generation (about 4 µs a call): days are formatted once and cached.
const dayCache = new Map<number, string>();
function isoDay(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  let text = dayCache.get(day);
  if (text === undefined) {
    text = new Date(day * DAY_MS).toISOString().slice(0, 10);
    dayCache.set(day, text);
  }
  return text;
}

const two = (n: number): string => (n < 10 ? `0${n}` : String(n));
/** ISO date-time to the minute, without a Date per call. */
function isoMinute(ms: number): string {
  const minutes = Math.floor((ms % DAY_MS) / 60_000);
  return `${isoDay(ms)}T${two(Math.floor(minutes / 60))}:${two(minutes % 60)}:00.000Z`;
}

export function customerExists(data: EngagementData, ctcID: number): boolean {
  return Number.isInteger(ctcID) && ctcID >= FIRST_CTC_ID && ctcID < FIRST_CTC_ID + CUSTOMER_COUNT;
}

/** Orders of a customer: the sample has `sampleOrders`, the no-history one none, others 0-40. */
export function orderCount(data: EngagementData, ctcID: number): number {
  if (ctcID === data.sampleCtcID) return data.sampleOrders;
  if (ctcID === data.ctcIDWithoutHistory || !customerExists(data, ctcID)) return 0;
  return intBetween(rowRandom(data.seed, 'customer', ctcID), 0, 40);
}

/** Order `index` (0 = newest) of a customer. */
export function order(data: EngagementData, ctcID: number, index: number): Record<string, unknown> {
  const r = rowRandom(data.seed, 'order', index, ctcID);
  const items = intBetween(r, 1, 6);
  return {
    OrderID: ctcID * 100_000 + index + 1,
    CtcID: ctcID,
    BrandID: pick(r, BRANDS).BrandID,
    OrderDate: new Date(EPOCH_2025 + 300 * DAY_MS - index * 7 * 3_600_000).toISOString(),
    OrderReference: `ORD-${hex(r, 8).toUpperCase()}`,
    Items: items,
    TotalAmount: Math.round(items * (10 + r() * 90) * 100) / 100,
    Currency: 'GBP',
    Status: pick(r, STATUS),
  };
}

/** Leads of (customer, brand): the sample customer has `sampleLeads` on brand 1. */
export function leadCount(data: EngagementData, ctcID: number, brandID: number): number {
  if (ctcID === data.sampleCtcID && brandID === BRANDS[0].BrandID) return data.sampleLeads;
  if (ctcID === data.ctcIDWithoutHistory || !customerExists(data, ctcID)) return 0;
  return intBetween(rowRandom(data.seed, 'lead', ctcID, brandID), 0, 5);
}

export function lead(data: EngagementData, ctcID: number, brandID: number, index: number, totalCounts: number): Record<string, unknown> {
  const r = rowRandom(data.seed, 'lead', index, ctcID * 8 + brandID);
  return {
    LeadID: (ctcID * 10 + brandID) * 10_000 + index + 1,
    CtcID: ctcID,
    BrandID: brandID,
    CreatedDate: isoDay(EPOCH_2025 + index * DAY_MS),
    Source: pick(r, LEAD_SOURCE),
    Status: pick(r, LEAD_STATUS),
    EstimatedValue: Math.round(r() * 5000),
    TotalCounts: totalCounts,
  };
}

export function assetJson(data: EngagementData, index: number): string {
  const r = rowRandom(data.seed, 'asset', index);
  return `{"AssetID":${index + 1},"CtcID":${FIRST_CTC_ID + intBetween(r, 0, CUSTOMER_COUNT - 1)},"AssetType":"${pick(r, ASSET_TYPE)}","SerialNumber":"${hex(r, 12).toUpperCase()}","AcquiredDate":"${isoDay(EPOCH_2025 - intBetween(r, 0, 900) * DAY_MS)}","Active":${r() < 0.8}}`;
}

/** Column sets of a Selection export, by FormatID: the rows are open objects. */
export const SELECTION_FORMATS: Readonly<Record<number, string>> = {
  1: 'contact: CtcID, FirstName, LastName, Email, City, Country, OptInEmail, LastStayDate',
  2: 'transaction: TransactionID, CtcID, TransactionDate, Outlet, Amount, Currency',
  3: 'minimal: CtcID, Email',
};

export function selectionRowJson(data: EngagementData, tableKey: number, formatID: number, index: number): string {
  const h = rowHash(streamKey(data.seed, 'selection', tableKey), index);
  const ctc = FIRST_CTC_ID + ((index * 7919) % CUSTOMER_COUNT);
  if (formatID === 2) {
    return `{"TransactionID":${index + 1},"CtcID":${ctc},"TransactionDate":"${isoDay(EPOCH_2025 + (index % 365) * DAY_MS)}","Outlet":"${OUTLET[h % OUTLET.length]}","Amount":${(h >>> 8) % 40000 / 100},"Currency":"GBP"}`;
  }
  const first = FIRST[h & 15] as string;
  const last = LAST[(h >>> 4) & 15] as string;
  const email = `${EMAIL_NAME[h & 255]}${index}@example.test`;
  if (formatID === 3) return `{"CtcID":${ctc},"Email":"${email}"}`;
  const city = (h >>> 8) % CITY.length;
  return `{"CtcID":${ctc},"FirstName":"${first}","LastName":"${last}","Email":"${email}","City":"${CITY[city]}","Country":"${COUNTRY[city]}","OptInEmail":${(h & 0x10000) !== 0},"LastStayDate":"${isoDay(EPOCH_2025 - (index % 700) * DAY_MS)}"}`;
}

export function factJson(data: EngagementData, index: number): string {
  const h = rowHash(streamKey(data.seed, 'fact'), index);
  const quantity = 1 + (h % 5);
  return `{"FactID":${index + 1},"TransactionDate":"${isoMinute(EPOCH_2025 + index * 60_000)}","CtcID":${FIRST_CTC_ID + ((h >>> 3) % CUSTOMER_COUNT)},"BrandID":${1 + ((h >>> 20) % BRANDS.length)},"Outlet":"${OUTLET[(h >>> 24) % OUTLET.length]}","Quantity":${quantity},"Amount":${quantity * ((h >>> 12) % 5000) / 100},"Currency":"GBP"}`;
}

/**
 * JSON text of rows [from, to) in chunks of `per` rows, so a 100 000-row page is written
 * incrementally. Rows are comma-joined; the caller writes the surrounding brackets.
 */
export function* rowChunks(from: number, to: number, row: (index: number) => string, per = 2000): Generator<string> {
  for (let start = from; start < to; start += per) {
    const end = Math.min(to, start + per);
    const parts: string[] = new Array<string>(end - start);
    for (let i = start; i < end; i++) parts[i - start] = row(i);
    yield (start === from ? '' : ',') + parts.join(',');
  }
}
