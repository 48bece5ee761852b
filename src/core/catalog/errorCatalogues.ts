// The five numeric business-error catalogues of the customer-engagement service (seed 000, section 7.3),
// as published. Code 14 appears twice in SurveyApi with different meanings and code 15 is absent:
// kept exactly so. A code belongs to its family's catalogue only and is never an HTTP status.
import type { ErrorCatalogueId, SeedRef } from './model';

export interface CatalogueEntry {
  readonly code: number;
  readonly description: string;
}

export interface ErrorCatalogue {
  readonly id: ErrorCatalogueId;
  /** How many operations the contract says the catalogue covers. */
  readonly operationCount: number;
  readonly entries: readonly CatalogueEntry[];
  readonly source: SeedRef;
}

const section73: SeedRef = { seed: '000', section: '7.3' };

export const ERROR_CATALOGUES: Readonly<Record<ErrorCatalogueId, ErrorCatalogue>> = {
  SurveyApi: {
    id: 'SurveyApi',
    operationCount: 20,
    source: section73,
    entries: [
      { code: 1, description: 'Missing mandatory fields' },
      { code: 2, description: 'Internal Error' },
      { code: 12, description: 'empty input parameter' },
      { code: 13, description: 'Invalid CtcID' },
      { code: 14, description: 'Invalid SessionID' },
      { code: 14, description: 'Invalid Question ID' },
      { code: 16, description: 'Invalid response object' },
      { code: 17, description: 'Invalid choice id' },
      { code: 18, description: 'Question should have only one choice choosen' },
    ],
  },
  Customer: {
    id: 'Customer',
    operationCount: 8,
    source: section73,
    entries: [
      { code: 1, description: 'Missing mandatory fields' },
      { code: 2, description: 'Internal Error' },
      { code: 3, description: 'Not authorized to use the brand requested or brand id is missing' },
      { code: 4, description: 'No Data found' },
      { code: 5, description: 'Maximum records exceeded' },
      { code: 6, description: 'Referrer code already used' },
      { code: 7, description: 'Member number already used' },
      { code: 8, description: 'Invalid selected location id' },
      { code: 9, description: 'Invalid preferred location id' },
      { code: 10, description: 'Card token already used' },
      { code: 11, description: 'No brand found in this instance' },
      { code: 12, description: 'empty input parameter' },
    ],
  },
  HotelBooking: {
    id: 'HotelBooking',
    operationCount: 4,
    source: section73,
    entries: [
      { code: 1, description: 'Missing mandatory fields' },
      { code: 2, description: 'Internal Error' },
      { code: 45, description: 'No Supplier found for the user' },
      { code: 46, description: 'HotelBookingRef already exists' },
      { code: 47, description: 'Invalid booking status' },
      { code: 48, description: 'Missing mandatory fields for rooms parameter' },
      { code: 49, description: 'Rooms contains invalid RoomStatus parameter' },
      { code: 50, description: 'No Booking Found With Such Details' },
    ],
  },
  LoyaltyPoint: {
    id: 'LoyaltyPoint',
    operationCount: 2,
    source: section73,
    entries: [
      { code: 2, description: 'Internal Error' },
      { code: 3, description: 'Not authorized to use the brand requested or brand id is missing' },
      { code: 4, description: 'No Data found' },
      { code: 13, description: 'Invalid CtcID' },
    ],
  },
  LoyaltyProgram: {
    id: 'LoyaltyProgram',
    operationCount: 1,
    source: section73,
    entries: [
      { code: 2, description: 'Internal Error' },
      { code: 3, description: 'Not authorized to use the brand requested or brand id is missing' },
      { code: 26, description: 'Many result returned, please specify a brandID' },
    ],
  },
};

/**
 * Every published meaning of a code in one catalogue. More than one meaning means the catalogue
 * itself is ambiguous (SurveyApi code 14); an empty list means the code is not in the catalogue.
 */
export function meaningsOf(catalogue: ErrorCatalogueId, code: number): readonly string[] {
  return ERROR_CATALOGUES[catalogue].entries.filter((e) => e.code === code).map((e) => e.description);
}
