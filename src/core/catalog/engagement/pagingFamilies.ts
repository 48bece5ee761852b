// Families known through their paging behaviour (seed 000 §4.2): SalesLeads, CustomerAsset, BIDWHouse
// and Selection. None of them has a published method and path; a body request is a POST on the
// /api/<Family>/<Operation> pattern, marked inferred. CustomerAsset and BIDWHouse name no operation,
// so one representative each stands for the behaviour.
import type { Family, Operation } from '../model';
import {
  BidwFactReadRequest,
  BidwFactTransactionsResponse,
  CustomerAssetBatchRequest,
  CustomerAssetBatchResponse,
  GetLeadsRequest,
  GetLeadsResponse,
  SelectionExportRequest,
  SelectionExportResponse,
} from '../schemas/engagementPaging';
import { seed000 } from '../schemas/documented';
import { INFERRED_PATH_NOTE, NO_STATED_HTTP_ERRORS, REPRESENTATIVE_NOTE, engagementFamily, engagementOperation } from './common';

export const getLeads: Operation = engagementOperation({
  family: 'SalesLeads',
  name: 'GetLeads',
  summary: 'Sales leads of a customer and brand, by Offset and PageSize; Remaining is not a reliable end signal.',
  method: 'POST',
  path: '/api/SalesLeads/GetLeads',
  pathStatus: 'inferred',
  paging: 'offset-remaining',
  requestBody: GetLeadsRequest,
  responseBody: GetLeadsResponse,
  notShown: [INFERRED_PATH_NOTE, 'Types of CtcID, BrandID, Offset, TotalCounts and Remaining: not shown.', NO_STATED_HTTP_ERRORS],
  source: seed000('4.2'),
});

export const customerAssetGetAssets: Operation = engagementOperation({
  family: 'CustomerAsset',
  name: 'GetAssets',
  summary: 'Customer assets by batch: send the BatchID returned by the previous call, never a page number.',
  method: 'POST',
  path: '/api/CustomerAsset/GetAssets',
  pathStatus: 'inferred',
  paging: 'batch-cursor',
  requestBody: CustomerAssetBatchRequest,
  responseBody: CustomerAssetBatchResponse,
  notShown: [REPRESENTATIVE_NOTE, INFERRED_PATH_NOTE, 'Types of BatchID, BatchSize and Remaining: not shown.', NO_STATED_HTTP_ERRORS],
  source: seed000('4.2'),
});

export const getSelectionResultExt: Operation = engagementOperation({
  family: 'Selection',
  name: 'GetSelectionResult_Ext',
  summary: 'Selection export, 100000 rows a page by OFFSET ordinal; the table can be dropped after the last page.',
  method: 'POST',
  path: '/api/Selection/GetSelectionResult_Ext',
  pathStatus: 'inferred',
  paging: 'export-ordinal',
  requestBody: SelectionExportRequest,
  responseBody: SelectionExportResponse,
  notShown: [INFERRED_PATH_NOTE, 'Values of FormatID and the columns they give: not shown.', NO_STATED_HTTP_ERRORS],
  source: seed000('4.2'),
});

export const bidwGetFactTransactions: Operation = engagementOperation({
  family: 'BIDWHouse',
  name: 'GetFactTransactions',
  summary: 'Business-intelligence fact read; the server keeps the extraction position (call again for more).',
  method: 'POST',
  path: '/api/BIDWHouse/GetFactTransactions',
  pathStatus: 'inferred',
  paging: 'stateful-extraction',
  requestBody: BidwFactReadRequest,
  responseBody: BidwFactTransactionsResponse,
  notShown: [
    REPRESENTATIVE_NOTE,
    INFERRED_PATH_NOTE,
    'How the extraction state is configured: not shown.',
    'How the end of an extraction shows: not shown (only that an error is not end-of-data).',
    'Fields of a fact row: not shown.',
    NO_STATED_HTTP_ERRORS,
  ],
  source: seed000('4.2'),
});

const familyNotShown = (name: string) => `Operation count of the ${name} family and its other operations: not shown.`;

export const salesLeadsFamily: Family = engagementFamily('SalesLeads', 'Sales leads.', seed000('1'), {
  operations: [getLeads],
  notShown: [familyNotShown('SalesLeads')],
});

export const customerAssetFamily: Family = engagementFamily('CustomerAsset', 'Customer assets, read in batches.', seed000('1'), {
  operations: [customerAssetGetAssets],
  notShown: [
    'Names, methods and paths of the CustomerAsset operations: not shown; GetAssets stands for their batch-cursor behaviour.',
    'Filter-body record-size/batch fields used by some operations: not shown.',
  ],
});

export const bidwHouseFamily: Family = engagementFamily('BIDWHouse', 'Business-intelligence extraction.', seed000('1'), {
  operations: [bidwGetFactTransactions],
  notShown: ['Names, methods and paths of the BIDWHouse fact reads: not shown; GetFactTransactions stands for them.'],
});

export const selectionFamily: Family = engagementFamily('Selection', 'Selections and their exports.', seed000('1'), {
  operations: [getSelectionResultExt],
  notShown: [familyNotShown('Selection')],
});
