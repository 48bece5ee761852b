// Fundraising bodies (seed 001 §2, §4). Only field names are published; "types, formats and allowed
// values of the named fields: not shown", so every field is `unknown` with its documented meaning —
// except allocations[].canRecoverTax, stated as boolean. Full field lists are not shown either, so
// every object is loose (the language server must not flag unnamed fields as unknown).
import { z } from 'zod';
import type { z as zod } from 'zod';
import type { Release } from '../model';
import { FUNDRAISING_LATER_RELEASE } from '../releases';
import { builtOnFirstUse, documented, seed001, typeNotShown } from './documented';

/** A field the later release added (seed 001 §9.3). */
function addedLater<T extends zod.ZodType>(schema: T, release: Release = FUNDRAISING_LATER_RELEASE): T {
  return schema.meta({ release: { introduced: release } });
}

const s2 = seed001('2');
const s4 = seed001('4');

export const CONSTITUENT_INCLUDES = ['channelPreferences', 'trackingCodes', 'contactDetails', 'givingSummary'] as const;
export const TRANSACTION_LIST_INCLUDES = ['allocations'] as const;
export const TRANSACTION_READ_INCLUDES = ['trackingCodes', 'softCredits'] as const;

export const Constituent = builtOnFirstUse(() => documented(
  z.looseObject({
    constituentNumber: typeNotShown('constituent number', s2),
    mainContact: typeNotShown('main contact created (in the create response for a household or organisation)', s2),
    channelPreferences: typeNotShown('channel preferences (include=channelPreferences)', s2),
    trackingCodes: typeNotShown('tracking codes (include=trackingCodes)', s2),
    contactDetails: typeNotShown('contact details (include=contactDetails)', s2),
    givingSummary: addedLater(typeNotShown('giving summary (include=givingSummary)', s2)),
  }),
  { description: 'constituent (full field list: not shown)', source: s2 },
));

export const CreateConstituentRequest = builtOnFirstUse(() => documented(z.looseObject({}), {
  description: 'constituent to create (request fields: not shown)',
  source: s4,
}));

export const DuplicateCheckRequest = builtOnFirstUse(() => documented(z.looseObject({}), {
  description: 'incoming record to check (request fields: not shown)',
  source: s4,
}));

export const DuplicateCheckResponse = builtOnFirstUse(() => documented(z.unknown(), {
  description: 'duplicate-check matches, each carrying constituentNumber (layout of the response: not shown)',
  source: s4,
}));

const GiftAidInput = builtOnFirstUse(() => documented(
  z.looseObject({
    addDeclaration: typeNotShown('records a Gift Aid declaration for the donor (with declarationMethod)', s2),
    declarationMethod: typeNotShown('how the Gift Aid declaration was made', s2),
    claimed: typeNotShown('tax already claimed elsewhere; the service then does not claim it again', s2),
    amountClaimed: typeNotShown('amount of tax already claimed elsewhere', s2),
  }),
  { description: 'Gift Aid input', source: s2 },
));

const AllocationInput = builtOnFirstUse(() => documented(
  z.looseObject({
    canRecoverTax: documented(z.boolean().optional(), {
      description: 'whether tax can be recovered on this allocation',
      source: s2,
    }),
  }),
  { description: 'allocation of the payment across products and funds (other fields: not shown)', source: s2 },
));

export const CreateTransactionRequest = builtOnFirstUse(() => documented(
  z.looseObject({
    giftAid: addedLater(GiftAidInput().optional()),
    allocations: documented(z.array(AllocationInput()).optional(), { description: 'allocations of the payment', source: s4 }),
    utmSource: addedLater(typeNotShown('UTM tracking code: source', s2)),
    utmMedium: addedLater(typeNotShown('UTM tracking code: medium', s2)),
    utmTerm: addedLater(typeNotShown('UTM tracking code: term', s2)),
    utmContent: addedLater(typeNotShown('UTM tracking code: content', s2)),
    utmCampaign: addedLater(typeNotShown('UTM tracking code: campaign', s2)),
  }),
  { description: 'payment to create (fields beyond those named: not shown)', source: s4 },
));

const transactionFields = builtOnFirstUse(() => ({
  trackingCodes: typeNotShown('tracking codes (include=trackingCodes on single read)', s2),
  softCredits: typeNotShown('constituents soft credited with the payment (include=softCredits on single read)', s2),
  giftAidStatusDetails: addedLater(typeNotShown('Gift Aid status details', s2)),
  dateAdded: typeNotShown('when the payment was added', s2),
  dateChanged: typeNotShown('when the payment was last changed', s2),
}));

/** Single read: allocations are always present. */
export const Transaction = builtOnFirstUse(() => documented(
  z.looseObject({
    allocations: documented(z.unknown(), { description: 'allocations (always present on single read; type not shown)', source: s2 }),
    ...transactionFields(),
  }),
  { description: 'payment (full field list: not shown); the create response has this shape without includes', source: s2 },
));

export const ListDefinition = builtOnFirstUse(() => documented(
  z.looseObject({ listDefinitionId: typeNotShown('list definition identifier', s2) }),
  { description: 'list definition (full field list: not shown)', source: s2 },
));

export const CreateListRequest = builtOnFirstUse(() => documented(z.looseObject({}), {
  description: 'list definition to create (request fields: not shown)',
  source: s4,
}));

/** The wrapper of list results is not published (pagination names: not shown). */
export const FundraisingListResponse = builtOnFirstUse(() => documented(z.unknown(), {
  description: 'list result (its layout and pagination names: not shown)',
  source: s4,
}));
