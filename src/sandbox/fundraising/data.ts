// The fundraising tenant's data: generated constituents and transactions (pure functions of the seed
// and index), plus what callers create at run time (kept in memory).
import { hex, intBetween, pick, rowRandom } from '../shared/prng';

export const FIRST_CONSTITUENT_ID = 10_001;
export const FIRST_TRANSACTION_ID = 500_001;
export const FIRST_LIST_ID = 7_001;

const FIRST = ['Alice', 'Bilal', 'Carmen', 'Dmitri', 'Esther', 'Femi', 'Gwen', 'Hiro', 'Isla', 'Jamal', 'Katya', 'Liam'];
const LAST = ['Abbott', 'Brennan', 'Chaudhry', 'Davies', 'Eriksen', 'Flores', 'Griffiths', 'Hughes', 'Iqbal', 'Jones', 'Kowalski', 'Lloyd'];
const ORG = ['Riverside Trust', 'Oakwood Partners', 'Northgate Foundation', 'Bluebell Ltd'];
const FUNDS = ['GENERAL', 'RESEARCH', 'APPEAL24', 'BUILDING'];
const PRODUCTS = ['DONATION', 'MEMBERSHIP', 'EVENT', 'RAFFLE'];
const METHODS = ['Card', 'Direct Debit', 'Cash', 'Cheque', 'Bank Transfer'];
const GIFT_AID = ['Claimable', 'Claimed', 'NotEligible', 'DeclarationMissing'];
const UTM_SOURCE = ['newsletter', 'facebook', 'google', 'direct'];

const HOUR_MS = 3_600_000;
const EPOCH_2024 = Date.UTC(2024, 0, 1);

export type Json = Record<string, unknown>;

export interface FundraisingData {
  readonly seed: number;
  readonly constituents: number;
  readonly transactions: number;
}

/** Generated constituent index → record; index 1 is a household (the sample with a main contact). */
export function constituent(data: FundraisingData, index: number): Json {
  const r = rowRandom(data.seed, 'constituent', index);
  const type = index === 1 ? 'household' : index % 17 === 5 ? 'organisation' : 'individual';
  const first = pick(r, FIRST);
  const last = pick(r, LAST);
  const id = FIRST_CONSTITUENT_ID + index;
  const added = new Date(EPOCH_2024 + index * 5 * HOUR_MS);
  return {
    constituentId: id,
    constituentNumber: `CN${String(id).padStart(8, '0')}`,
    type,
    ...(type === 'individual' ? { firstName: first, lastName: last } : {}),
    ...(type === 'household' ? { name: `The ${last} Household` } : {}),
    ...(type === 'organisation' ? { name: pick(r, ORG) } : {}),
    email: `${first.toLowerCase()}.${last.toLowerCase()}${index}@example.test`,
    dateAdded: added.toISOString(),
    dateChanged: new Date(added.getTime() + intBetween(r, 0, 400) * HOUR_MS).toISOString(),
  };
}

export const CONSTITUENT_INCLUDES = ['channelPreferences', 'trackingCodes', 'contactDetails', 'givingSummary'] as const;

export function constituentInclude(data: FundraisingData, record: Json, include: string): unknown {
  const id = Number(record['constituentId']);
  const r = rowRandom(data.seed, 'constituent', id, 99);
  switch (include) {
    case 'channelPreferences':
      return ['email', 'sms', 'mail', 'phone'].map((channel) => ({ channel, optedIn: r() < 0.5 }));
    case 'trackingCodes':
      return [{ code: `TC-${hex(r, 6).toUpperCase()}`, description: 'Acquisition campaign' }];
    case 'contactDetails':
      return [{ type: 'email', value: record['email'], isPrimary: true }, { type: 'phone', value: `+44 20 7946 ${String(intBetween(r, 0, 9999)).padStart(4, '0')}`, isPrimary: false }];
    case 'givingSummary':
      return { totalGiven: Math.round(r() * 500_00) / 100, giftCount: intBetween(r, 0, 40), currency: 'GBP' };
    default:
      return undefined;
  }
}

export function allocations(data: FundraisingData, transactionId: number, amount: number): Json[] {
  const r = rowRandom(data.seed, 'transaction', transactionId, 7);
  const split = r() < 0.3 ? 2 : 1;
  const first = split === 1 ? amount : Math.round(amount * 60) / 100;
  return Array.from({ length: split }, (_, i) => ({
    allocationId: transactionId * 10 + i + 1,
    productCode: pick(r, PRODUCTS),
    fundCode: pick(r, FUNDS),
    amount: i === 0 ? first : Math.round((amount - first) * 100) / 100,
    canRecoverTax: r() < 0.5,
  }));
}

/** Generated transaction index → payment (without expansions). dateAdded grows with the index. */
export function transaction(data: FundraisingData, index: number): Json {
  const r = rowRandom(data.seed, 'transaction', index);
  const id = FIRST_TRANSACTION_ID + index;
  const added = new Date(EPOCH_2024 + index * 3 * HOUR_MS);
  return {
    transactionId: id,
    constituentId: FIRST_CONSTITUENT_ID + intBetween(r, 0, Math.max(0, data.constituents - 1)),
    amount: Math.round((5 + r() * 245) * 100) / 100,
    currency: 'GBP',
    paymentMethod: pick(r, METHODS),
    transactionDate: added.toISOString().slice(0, 10),
    giftAidStatusDetails: { status: pick(r, GIFT_AID) },
    dateAdded: added.toISOString(),
    dateChanged: new Date(added.getTime() + intBetween(r, 0, 24 * 30) * HOUR_MS).toISOString(),
  };
}

export function transactionInclude(data: FundraisingData, payment: Json, include: string): unknown {
  const id = Number(payment['transactionId']);
  const r = rowRandom(data.seed, 'transaction', id, 11);
  switch (include) {
    case 'allocations':
      return allocations(data, id, Number(payment['amount']));
    case 'trackingCodes':
      return { utmSource: pick(r, UTM_SOURCE), utmMedium: 'email', utmTerm: null, utmContent: null, utmCampaign: 'spring-appeal' };
    case 'softCredits':
      return r() < 0.3 ? [{ constituentId: FIRST_CONSTITUENT_ID + intBetween(r, 0, Math.max(0, data.constituents - 1)), amount: payment['amount'] }] : [];
    default:
      return undefined;
  }
}

export const LOOKUP_TYPES: readonly Json[] = [
  ['PaymentMethod', 'en-GB'], ['PaymentMethod', 'en'], ['PaymentMethod', 'fr-FR'], ['PaymentMethod', 'cy-GB'],
  ['Title', 'en-GB'], ['Title', 'fr-FR'], ['Title', 'cy-GB'],
  ['ContactChannel', 'en-GB'], ['ContactChannel', 'en'],
  ['GiftAidStatus', 'en-GB'], ['Fund', 'en-GB'], ['Fund', 'fr-FR'],
].map(([name, language], i) => ({ lookupTypeId: 100 + i, name, language, description: `${name ?? ''} values (${language ?? ''})` }));
