// PLACEHOLDER filled in by the catalog work (issue 3).
import type { Service } from './model';

export const bookingService: Service = {
  id: 'booking',
  title: 'Booking service',
  summary: 'Only its paging headers are published.',
  auth: ['not-shown'],
  families: [],
  notShown: [],
  source: { seed: '002', section: '1' },
};
