// The Transaction family: GetOrdersByCustomer (page-number paging, §4.2), PostOrder (named in §9) and
// the deprecated Transaction/Post it replaces.
import type { Family, Operation } from '../model';
import { OrdersByCustomerResponse } from '../schemas/engagementPaging';
import { seed000 } from '../schemas/documented';
import { NO_STATED_HTTP_ERRORS, engagementFamily, engagementOperation } from './common';

export const GET_ORDERS_PAGE_SIZE = { default: 50, minimum: 1, maximum: 500 } as const;
export const GET_ORDERS_PAGE_NUMBER = { default: 1, minimum: 1 } as const;

export const getOrdersByCustomer: Operation = engagementOperation({
  family: 'Transaction',
  name: 'GetOrdersByCustomer',
  summary: "A customer's orders, page by page (pageNumber, pageSize).",
  method: 'GET',
  path: '/api/Transaction/GetOrdersByCustomer',
  pathStatus: 'published',
  paging: 'page-number',
  query: [
    {
      name: 'ctcID',
      type: 'not-shown',
      meaning: 'customer identifier (at least one customer identifier is required)',
      // The only customer identifier the contract names, so the one a request must carry.
      required: true,
      source: seed000('4.2'),
    },
    {
      name: 'pageNumber',
      type: 'integer',
      meaning: 'page to return; below 1 is rejected',
      default: GET_ORDERS_PAGE_NUMBER.default,
      minimum: GET_ORDERS_PAGE_NUMBER.minimum,
      source: seed000('8'),
    },
    {
      name: 'pageSize',
      type: 'integer',
      meaning: 'orders per page; capped at 500 (the response says the effective size); below 1 is rejected',
      default: GET_ORDERS_PAGE_SIZE.default,
      minimum: GET_ORDERS_PAGE_SIZE.minimum,
      maximum: GET_ORDERS_PAGE_SIZE.maximum,
      source: seed000('8'),
    },
  ],
  responseBody: OrdersByCustomerResponse,
  statuses: [400],
  notShown: [
    'Types of PageNumber, PageSize, TotalOrders and Errors, and the fields of an order: not shown.',
    'Customer identifiers other than ctcID: not shown.',
    'A stable snapshot under concurrent changes: not promised.',
    NO_STATED_HTTP_ERRORS,
  ],
  source: seed000('4.2'),
});

export const postOrder: Operation = engagementOperation({
  family: 'Transaction',
  name: 'PostOrder',
  summary: 'Posts an order; the supported replacement of the deprecated Transaction/Post.',
  method: 'POST',
  path: '/api/Transaction/PostOrder',
  pathStatus: 'published',
  paging: 'none',
  notShown: ['Request and response bodies: not shown.', NO_STATED_HTTP_ERRORS],
  source: seed000('9'),
});

export const deprecatedTransactionPost: Operation = engagementOperation({
  family: 'Transaction',
  name: 'Post',
  summary: 'Deprecated; excluded from the reference. A different operation from PostOrder.',
  method: 'POST',
  path: '/api/Transaction/Post',
  pathStatus: 'published',
  paging: 'none',
  deprecated: {
    replacement: 'POST /api/Transaction/PostOrder, or RealTimeTriggerApi operations',
    replacementIds: ['engagement/Transaction/PostOrder'],
  },
  notShown: ['Request and response bodies: not shown.', 'Removal date: not shown.'],
  source: seed000('9'),
});

export const transactionFamily: Family = engagementFamily('Transaction', 'Orders and payments of customers.', seed000('1'), {
  operations: [getOrdersByCustomer, postOrder, deprecatedTransactionPost],
  notShown: ['Operation count of the family and its other operations: not shown.'],
});
