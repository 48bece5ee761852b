// Bodies of the engagement operations known through their paging behaviour (seed 000 §4.2, §8) and of
// the brand-checked reads. The contract names these fields but rarely their types: a type is given
// only where a stated rule fixes it (Response=false, OFFSET is a one-based ordinal, PageSize is
// positive, Result is an array of open row objects); every other field is `unknown` with a description
// that says the type is not shown. Field lists are not stated to be complete, so objects are loose.
// Names are case-sensitive (rule 1): Offset, OFFSET and pageNumber are different fields.
import { z } from 'zod';
import { builtOnFirstUse, documented, int32, seed000, typeNotShown } from './documented';
import { APICallError } from './surveyApi';

const s42 = seed000('4.2');
const s8 = seed000('8');

// ---- Transaction/GetOrdersByCustomer (page-number): controls are query parameters ----

export const OrdersByCustomerResponse = builtOnFirstUse(() => documented(
  z.looseObject({
    PageNumber: typeNotShown('page number of this page', s42),
    PageSize: typeNotShown('effective page size (after the 500 cap)', s42),
    TotalOrders: typeNotShown("total number of the customer's orders", s42),
    Orders: documented(z.array(z.unknown()).optional(), {
      description: 'orders of this page (fields of an order: not shown); a customer with no history gets an empty list',
      source: s42,
    }),
    Response: documented(z.boolean().optional(), {
      description: 'false when the page is out of range (HTTP 200, §4.2 rule 3)',
      source: s42,
    }),
    Errors: typeNotShown('errors of the request', s42),
  }),
  { description: 'GetOrdersByCustomer output model (also returned with HTTP 400 for invalid input)', source: s42 },
));

// ---- SalesLeads/GetLeads (offset-remaining) ----

export const GetLeadsRequest = builtOnFirstUse(() => documented(
  z.looseObject({
    CtcID: typeNotShown('customer identifier', s42),
    BrandID: typeNotShown('brand identifier', s42),
    PageSize: documented(z.number().positive().optional(), { description: 'rows per page (positive)', source: s42 }),
    Offset: typeNotShown('row offset, forwarded as given (§4.2 rule 5)', s42),
  }),
  { description: 'GetLeads request body', source: s42 },
));

export const GetLeadsResponse = builtOnFirstUse(() => documented(
  z.looseObject({
    _Leads: documented(
      z.array(z.looseObject({ TotalCounts: typeNotShown('total count, carried on each row', s42) })).optional(),
      { description: 'lead rows of this page (fields other than TotalCounts: not shown)', source: s42 },
    ),
    Remaining: typeNotShown('rows remaining by database count semantics; not a guaranteed end-of-stream signal (§4.2 rule 5)', s42),
  }),
  { description: 'GetLeads response', source: s42 },
));

// ---- CustomerAsset operations (batch-cursor); GetAssets is the representative ----

export const CustomerAssetBatchRequest = builtOnFirstUse(() => documented(
  z.looseObject({
    BatchID: typeNotShown('cursor: send the BatchID returned by the previous call (§4.2 rule 4); omit on the first call', s42),
    BatchSize: typeNotShown('rows per batch', s42),
  }),
  { description: 'CustomerAsset batch request (some operations use filter-body record-size/batch fields instead: not shown)', source: s42 },
));

export const CustomerAssetBatchResponse = builtOnFirstUse(() => documented(
  z.looseObject({
    BatchID: typeNotShown('cursor to send on the next call', s42),
    Remaining: typeNotShown('rows remaining', s42),
    Assets: documented(z.array(z.unknown()).optional(), {
      description: 'the asset collection (its name is operation-specific; "Assets" is the representative operation\'s)',
      source: s42,
    }),
  }),
  { description: 'CustomerAsset batch response', source: s42 },
));

// ---- Selection/GetSelectionResult_Ext (export-ordinal) ----

export const SELECTION_ROWS_PER_PAGE = 100_000;

export const SelectionExportRequest = builtOnFirstUse(() => documented(
  z.looseObject({
    OFFSET: documented(int32().min(1).optional(), {
      description: 'one-based page ordinal; row offset = 100000 * (OFFSET - 1); use 1 first (§4.2 rule 6)',
      source: s42,
    }),
    TableName: documented(z.string().optional(), {
      description: 'blank creates an export; later calls send the returned TableName with the next OFFSET',
      source: s42,
    }),
    FormatID: typeNotShown('output format; the Result columns depend on it', s42),
  }),
  { description: 'GetSelectionResult_Ext request body', source: s42 },
));

export const SelectionExportResponse = builtOnFirstUse(() => documented(
  z.looseObject({
    Result: documented(z.array(z.looseObject({})).optional(), {
      description: 'rows of this page (100000 a page): open row objects whose columns depend on FormatID',
      source: s42,
    }),
    TableName: documented(z.string().optional(), { description: 'export table to send on the next call', source: s42 }),
  }),
  { description: 'GetSelectionResult_Ext response; the table can be dropped after a short or empty page', source: s42 },
));

// ---- BIDWHouse fact reads (stateful-extraction); GetFactTransactions is the representative ----

export const BIDW_DEFAULT_PAGE_SIZE = 5000;

export const BidwFactReadRequest = builtOnFirstUse(() => documented(
  z.looseObject({
    PageSize: documented(z.number().positive().optional(), {
      description: 'extraction size; default 5000, described as extendable to 100000',
      source: s8,
      default: BIDW_DEFAULT_PAGE_SIZE,
    }),
  }),
  { description: 'BIDWHouse fact read; extraction state is configured separately and kept by the server', source: s42 },
));

export const BidwFactTransactionsResponse = builtOnFirstUse(() => documented(
  z.looseObject({
    FactTransactions: documented(z.array(z.unknown()).optional(), {
      description: 'fact-specific list (fields not shown); an error is not the end of data (how the end shows: not shown)',
      source: s42,
    }),
  }),
  { description: 'BIDWHouse fact read response', source: s42 },
));

// ---- ResponseStatus + Errors bodies of the catalogued brand-checked reads ----

const responseStatus = builtOnFirstUse(() => documented(z.boolean().optional(), {
  description: 'true when the action was treated successfully, false when there is an error (§7.2)',
  source: seed000('7.2'),
}));
const errors = builtOnFirstUse(() => documented(z.array(APICallError()).optional(), { description: 'errors, if any', source: seed000('7.2') }));

export const LoyaltyProgramResponse = builtOnFirstUse(() => documented(
  z.looseObject({ ResponseStatus: responseStatus(), Errors: errors() }),
  { description: 'LoyaltyProgram/Get response (program fields: not shown)', source: seed000('7.3') },
));

export const LoyaltyPointBalanceResponse = builtOnFirstUse(() => documented(
  z.looseObject({ ResponseStatus: responseStatus(), Errors: errors(), Points: typeNotShown('point balance', seed000('7.1')) }),
  { description: 'LoyaltyPoint balance response; brand denial is ResponseStatus=false with code 3', source: seed000('7.1') },
));
