// LoyaltyPoint and LoyaltyProgram: catalogued families with the stated HTTP error contract (§7.1) and
// brand checks (code 3; code 26 for LoyaltyProgram/Get without a BrandID when several brands exist).
import type { Family, Operation } from '../model';
import { LoyaltyPointBalanceResponse, LoyaltyProgramResponse } from '../schemas/engagementPaging';
import { seed000 } from '../schemas/documented';
import { INFERRED_PATH_NOTE, REPRESENTATIVE_NOTE, STATED_HTTP_ERRORS, engagementFamily, engagementOperation } from './common';

const HTTP_BODIES_NOT_SHOWN = 'Bodies of the 401, 403, 404 and 500 responses: not shown.';

export const loyaltyProgramGet: Operation = engagementOperation({
  family: 'LoyaltyProgram',
  name: 'Get',
  summary: 'The loyalty program of a brand; code 26 asks for a BrandID when several results exist.',
  method: 'GET',
  path: '/api/LoyaltyProgram/Get',
  pathStatus: 'published',
  paging: 'none',
  query: [{ name: 'BrandID', type: 'not-shown', meaning: 'brand identifier', source: seed000('4.2') }],
  responseBody: LoyaltyProgramResponse,
  errorCatalogue: 'LoyaltyProgram',
  statuses: STATED_HTTP_ERRORS,
  notShown: ['Fields of the loyalty program: not shown.', HTTP_BODIES_NOT_SHOWN],
  source: seed000('4.2'),
});

export const loyaltyPointGetBalance: Operation = engagementOperation({
  family: 'LoyaltyPoint',
  name: 'GetBalance',
  summary: "A customer's point balance for a brand. Method denial is HTTP 403; brand denial is HTTP 200 with ResponseStatus=false and code 3.",
  method: 'GET',
  path: '/api/LoyaltyPoint/GetBalance',
  pathStatus: 'inferred',
  paging: 'none',
  query: [
    { name: 'ctcID', type: 'not-shown', meaning: 'customer identifier', source: seed000('7.3') },
    { name: 'BrandID', type: 'not-shown', meaning: 'brand identifier', source: seed000('7.3') },
  ],
  responseBody: LoyaltyPointBalanceResponse,
  errorCatalogue: 'LoyaltyPoint',
  statuses: STATED_HTTP_ERRORS,
  notShown: [REPRESENTATIVE_NOTE, INFERRED_PATH_NOTE, 'Fields of the balance: not shown.', HTTP_BODIES_NOT_SHOWN],
  source: seed000('7.1'),
});

export const loyaltyPointFamily: Family = engagementFamily(
  'LoyaltyPoint',
  'Loyalty points of customers (error catalogue and HTTP error contract stated).',
  seed000('7.3'),
  {
    statedOperationCount: 2,
    operations: [loyaltyPointGetBalance],
    notShown: ['The LoyaltyPoint operations (2 in the family): names and paths not shown; GetBalance stands for them.'],
  },
);

export const loyaltyProgramFamily: Family = engagementFamily(
  'LoyaltyProgram',
  'Loyalty programs of brands (error catalogue and HTTP error contract stated).',
  seed000('7.3'),
  {
    // Not stated directly: the five catalogued families total 35 operations and the other four
    // account for 34 (20 + 8 + 4 + 2); the catalogue names GET /api/LoyaltyProgram/Get alone.
    statedOperationCount: 1,
    operations: [loyaltyProgramGet],
  },
);
