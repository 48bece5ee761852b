// PLACEHOLDER filled in by the catalog work (issue 3).
import type { Service } from './model';

export const engagementService: Service = {
  id: 'engagement',
  title: 'Customer-engagement service',
  summary: 'Loyalty platform for hospitality brands (217 operations); OAuth2 password-grant tokens.',
  auth: ['password-grant'],
  families: [],
  notShown: [],
  source: { seed: '000', section: '1' },
};
