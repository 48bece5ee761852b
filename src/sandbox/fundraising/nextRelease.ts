// The fundraising service's next release, as `apiwb sandbox --release next` serves it (sandbox choice
// `release-next`: no contract says what a next release changes). Modelled on what the published later
// release did (seed 001 §9: fields added to resources), plus record-level changes a comparison must
// find. Deterministic, pure functions of the generated record's index, so a test can name every one:
// - GET /v1/constituents: an organisation gains `charityNumber` (a field added);
// - GET /v1/transactions: generated payments at index 250 mod 500 are gone (removed), those at index
//   7 mod 400 have an amount 1.00 higher (changed), and NEXT_ADDED_PAYMENTS payments are new (added;
//   ids from NEXT_FIRST_ADDED_ID, dated after the last generated one).
import { FIRST_CONSTITUENT_ID, FIRST_TRANSACTION_ID, type FundraisingData, type Json, transaction } from './data';

export const NEXT_ADDED_PAYMENTS = 3;
export const NEXT_FIRST_ADDED_ID = FIRST_TRANSACTION_ID + 400_000;

export const nextRelease = {
  removesPayment: (index: number): boolean => index % 500 === 250,
  changesPayment: (index: number): boolean => index % 400 === 7,
  addsCharityNumber: (constituent: Json): boolean => constituent['type'] === 'organisation',
};

/** A constituent as the next release lists it. */
export function nextConstituent(record: Json): Json {
  if (!nextRelease.addsCharityNumber(record)) return record;
  return { ...record, charityNumber: `RC${String(Number(record['constituentId']) - FIRST_CONSTITUENT_ID).padStart(7, '0')}` };
}

/**
 * The payments of the next release, in dateAdded order: the generated ones (some gone, some changed;
 * `single` reads one as the current release would), then the added ones.
 */
export function* nextPayments(data: FundraisingData, count: number, single: (id: number) => Json | undefined): Generator<Json> {
  for (let i = 0; i < count; i++) {
    if (i < data.transactions && nextRelease.removesPayment(i)) continue;
    const payment = single(FIRST_TRANSACTION_ID + i);
    if (!payment) continue;
    yield i < data.transactions && nextRelease.changesPayment(i) ? { ...payment, amount: Math.round((Number(payment['amount']) + 1) * 100) / 100 } : payment;
  }
  for (let k = 0; k < NEXT_ADDED_PAYMENTS; k++) {
    const template = transaction(data, data.transactions + k);
    yield { ...template, transactionId: NEXT_FIRST_ADDED_ID + k };
  }
}
