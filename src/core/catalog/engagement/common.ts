// Shared pieces of the engagement service's operations: auth, the stated HTTP error contract, and a
// builder that fills the fields every operation has so the family files read as data.
import { withBodies, type BodyBuilders, type Family, type Operation, type SeedRef } from '../model';

export const ENGAGEMENT_AUTH = ['password-grant'] as const;

/** The HTTP error contract of §7.1, stated for Customer, HotelBooking, LoyaltyPoint, LoyaltyProgram, SurveyApi. */
export const STATED_HTTP_ERRORS = [401, 403, 404, 500] as const;

export const FAMILIES_WITH_STATED_HTTP_ERRORS: readonly string[] = [
  'Customer',
  'HotelBooking',
  'LoyaltyPoint',
  'LoyaltyProgram',
  'SurveyApi',
];

export const NO_STATED_HTTP_ERRORS =
  'HTTP error contract: not stated for this family (do not assume it returns only 200).';

export const INFERRED_PATH_NOTE =
  'Method and path: not published; inferred from the pattern /api/<Family>/<Operation> of every published path.';

export const REPRESENTATIVE_NOTE =
  'Operation name: not published (representative). The contract describes the behaviour, not this operation.';

type OperationDraft = Omit<Operation, 'id' | 'service' | 'auth' | 'origin' | 'notShown' | 'requestBody' | 'responseBody'> & BodyBuilders & {
  readonly notShown?: readonly string[];
};

export function engagementOperation({ requestBody, responseBody, ...draft }: OperationDraft): Operation {
  return withBodies({
    ...draft,
    id: `engagement/${draft.family}/${draft.name}`,
    service: 'engagement',
    auth: ENGAGEMENT_AUTH,
    notShown: draft.notShown ?? [],
    origin: 'contract',
  }, { requestBody, responseBody });
}

/** A family the contract names but whose operations it does not show (only counts or behaviour). */
export function engagementFamily(
  name: string,
  summary: string,
  source: SeedRef,
  extra: Partial<Omit<Family, 'name' | 'service' | 'summary' | 'source'>> = {},
): Family {
  return {
    name,
    service: 'engagement',
    summary,
    operations: extra.operations ?? [],
    notShown: extra.notShown ?? [],
    source,
    ...(extra.statedOperationCount !== undefined ? { statedOperationCount: extra.statedOperationCount } : {}),
    ...(extra.deprecated ? { deprecated: extra.deprecated } : {}),
  };
}
