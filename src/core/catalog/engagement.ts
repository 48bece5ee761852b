// The customer-engagement service (seed 000): the sixteen families of §1 in the order the contract
// lists them, then the two deprecated families of §9. Operations live in ./engagement/*.
import type { Service } from './model';
import { seed000 } from './schemas/documented';
import { surveyApiFamily } from './engagement/surveyApi';
import { transactionFamily } from './engagement/transaction';
import { loyaltyPointFamily, loyaltyProgramFamily } from './engagement/loyalty';
import { bidwHouseFamily, customerAssetFamily, salesLeadsFamily, selectionFamily } from './engagement/pagingFamilies';
import {
  apiOpenAIFamily,
  appFamily,
  communicationPreferenceFamily,
  contactFamily,
  customerFamily,
  hotelBookingFamily,
  realTimeTriggerFamily,
  subscriptionFamily,
  surveyFamily,
  translationFamily,
} from './engagement/otherFamilies';
import { engagementTokenEndpoint } from './engagement/tokenEndpoint';
import { engagementRelease } from './releases';

export const engagementService: Service = {
  id: 'engagement',
  title: 'Customer-engagement service',
  summary: 'Loyalty platform for hospitality brands (217 operations); OAuth2 password-grant tokens.',
  auth: ['password-grant'],
  statedOperationCount: 217,
  families: [
    customerFamily,
    hotelBookingFamily,
    loyaltyPointFamily,
    loyaltyProgramFamily,
    surveyApiFamily,
    transactionFamily,
    customerAssetFamily,
    salesLeadsFamily,
    bidwHouseFamily,
    selectionFamily,
    realTimeTriggerFamily,
    communicationPreferenceFamily,
    subscriptionFamily,
    apiOpenAIFamily,
    appFamily,
    translationFamily,
    contactFamily,
    surveyFamily,
  ],
  notShown: [
    'Operations of the families other than SurveyApi and the paging-related ones: not shown (the reference covers 217 operations; only SurveyApi is specified in detail).',
    'Rate limits and request size limits: not shown.',
    'Effective token lifetime values and lockout thresholds: not shown.',
    'Which permissions grant which operations, and how brand permissions are assigned: not shown.',
    'Exhaustive error codes for operations outside the five catalogued families: not shown.',
    'States and transitions: not shown.',
    'Events: not shown.',
    'Removal dates of deprecated operations: not shown.',
  ],
  tokenEndpoint: engagementTokenEndpoint,
  release: engagementRelease,
  source: seed000('1'),
};
