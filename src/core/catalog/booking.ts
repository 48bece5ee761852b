// The booking service (seed 002): only its paging convention is published. The list operation's path
// is not published; the product uses GET {booking baseUrl}/bookings and marks it inferred.
import type { Operation, Service } from './model';
import { seed002 } from './schemas/documented';

const s = seed002('Endpoints');

export const listBookings: Operation = {
  id: 'booking/Bookings/ListBookings',
  service: 'booking',
  family: 'Bookings',
  name: 'ListBookings',
  summary: 'A paged list of bookings: query page (absent = 1) and the four X-Pagination-* headers.',
  method: 'GET',
  path: '/bookings',
  pathStatus: 'inferred',
  auth: ['not-shown'],
  paging: 'page-headers',
  query: [{ name: 'page', type: 'integer', meaning: 'results page; the first response, without page, reports page 1', default: 1, source: s }],
  responseHeaders: [
    { name: 'X-Pagination-Page', meaning: 'current page number', source: s },
    { name: 'X-Pagination-Per-Page', meaning: 'items per page', source: s },
    { name: 'X-Pagination-Total-Pages', meaning: 'total number of pages', source: s },
    { name: 'X-Pagination-Total-Results', meaning: 'total number of results', source: s },
  ],
  notShown: [
    'Paths, methods and payloads of the booking service: not shown; the path /bookings is inferred.',
    'Authentication: not shown.',
    'Minimum and maximum of page, and the page size: not shown.',
  ],
  source: s,
  origin: 'contract',
};

export const bookingService: Service = {
  id: 'booking',
  title: 'Booking service',
  summary: 'Only its paging headers are published.',
  auth: ['not-shown'],
  families: [
    {
      name: 'Bookings',
      service: 'booking',
      summary: 'Paged booking lists.',
      operations: [listBookings],
      notShown: ['Other booking operations: not shown.'],
      source: s,
    },
  ],
  notShown: ['Paths, methods and payloads of the booking service: not shown.', 'Authentication: not shown.'],
  source: seed002('Endpoints'),
};
