// PLACEHOLDER filled in by the catalog work (issue 3).
import type { Service } from './model';

export const fundraisingService: Service = {
  id: 'fundraising',
  title: 'Fundraising service',
  summary: 'Constituents, transactions, lists and lookups under /v1. Basic auth with an X-API-Key tenant header, or a JWT bearer.',
  auth: ['basic-api-key', 'jwt-bearer'],
  families: [],
  notShown: [],
  source: { seed: '001', section: '1' },
};
