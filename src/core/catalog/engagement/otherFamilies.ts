// Engagement families the contract names with little or nothing of their operations (seed 000 §1,
// §7, §9): each says in words what is and is not published. Contact and Survey are the deprecated
// families the reference excludes.
import type { Family, Operation } from '../model';
import { seed000 } from '../schemas/documented';
import { INFERRED_PATH_NOTE, NO_STATED_HTTP_ERRORS, engagementFamily, engagementOperation } from './common';

const OPERATIONS_NOT_SHOWN = (family: string) => `Operations of the ${family} family: not shown.`;

export const customerFamily: Family = engagementFamily(
  'Customer',
  'Customers (error catalogue and HTTP error contract stated; maximum records signalled by code 5).',
  seed000('7.3'),
  {
    statedOperationCount: 8,
    notShown: ['The Customer operations (8 in the family): names, paths and bodies not shown.'],
  },
);

export const hotelBookingFamily: Family = engagementFamily(
  'HotelBooking',
  'Hotel bookings (error catalogue and HTTP error contract stated).',
  seed000('7.3'),
  {
    statedOperationCount: 4,
    notShown: ['The HotelBooking operations (4 in the family): names, paths and bodies not shown.'],
  },
);

export const realTimeTriggerFamily: Family = engagementFamily(
  'RealTimeTriggerApi',
  'Real-time dispatch; can answer HTTP 200 with Success=false and a Message. Also a replacement of the deprecated Transaction/Post.',
  seed000('7.1'),
  { notShown: [OPERATIONS_NOT_SHOWN('RealTimeTriggerApi'), NO_STATED_HTTP_ERRORS] },
);

const communicationPreferenceGet: Operation = engagementOperation({
  family: 'CommunicationPreference',
  name: 'Get',
  summary: "A customer's communication preferences; one operation merging the variants with and without BrandID.",
  method: 'GET',
  path: '/api/CommunicationPreference/Get',
  pathStatus: 'inferred',
  paging: 'none',
  query: [{ name: 'BrandID', type: 'not-shown', meaning: 'brand identifier (optional: the variants with and without it are one operation)', source: seed000('9') }],
  notShown: [
    `${INFERRED_PATH_NOTE} GET by analogy with the published LoyaltyProgram/Get.`,
    'Other parameters, and the response body: not shown.',
    NO_STATED_HTTP_ERRORS,
  ],
  source: seed000('9'),
});

const subscriptionGet: Operation = engagementOperation({
  family: 'Subscription',
  name: 'Get',
  summary: 'Subscriptions; one operation merging the variants with and without ExternalID.',
  method: 'GET',
  path: '/api/Subscription/Get',
  pathStatus: 'inferred',
  paging: 'none',
  query: [{ name: 'ExternalID', type: 'not-shown', meaning: 'external identifier (optional: the variants with and without it are one operation)', source: seed000('9') }],
  notShown: [
    `${INFERRED_PATH_NOTE} GET by analogy with the published LoyaltyProgram/Get.`,
    'Other parameters, and the response body: not shown.',
    NO_STATED_HTTP_ERRORS,
  ],
  source: seed000('9'),
});

const removePushNotificationToken: Operation = engagementOperation({
  family: 'App',
  name: 'RemovePushNotificationToken',
  summary: 'Removes a push-notification token. Can answer an empty-bodied HTTP 200 after an exception.',
  pathStatus: 'not-published',
  paging: 'none',
  notShown: [
    'Method and path: not shown (the contract names the operation only for its empty-bodied HTTP 200 after an exception).',
    'Request and response bodies: not shown.',
  ],
  source: seed000('7.1'),
});

export const communicationPreferenceFamily: Family = engagementFamily('CommunicationPreference', 'Communication preferences.', seed000('1'), {
  operations: [communicationPreferenceGet],
  notShown: ['Operation count of the CommunicationPreference family and its other operations: not shown.'],
});

export const subscriptionFamily: Family = engagementFamily('Subscription', 'Subscriptions.', seed000('1'), {
  operations: [subscriptionGet],
  notShown: ['Operation count of the Subscription family and its other operations: not shown.'],
});

export const apiOpenAIFamily: Family = engagementFamily(
  'ApiOpenAI',
  'AI-assisted operations; a query parameter named Subscription_Key on some of them is an operation parameter, not a gateway key.',
  seed000('5.2'),
  { notShown: [OPERATIONS_NOT_SHOWN('ApiOpenAI'), NO_STATED_HTTP_ERRORS] },
);

export const appFamily: Family = engagementFamily('App', 'Mobile app support.', seed000('1'), {
  operations: [removePushNotificationToken],
  notShown: ['Operation count of the App family and its other operations: not shown.', NO_STATED_HTTP_ERRORS],
});

export const translationFamily: Family = engagementFamily(
  'Translation',
  'The translation controller: success is a translation dictionary; it can answer HTTP 400 with a message.',
  seed000('7.1'),
  { notShown: [OPERATIONS_NOT_SHOWN('translation controller'), 'Shape of the translation dictionary: not shown.'] },
);

export const contactFamily: Family = engagementFamily('Contact', 'Deprecated: excluded from the reference; use the Customer operations.', seed000('9'), {
  deprecated: { replacement: 'Customer operations' },
  notShown: ['Deprecated Contact operations: not listed by the reference.', 'Removal dates of deprecated operations: not shown.'],
});

export const surveyFamily: Family = engagementFamily('Survey', 'Deprecated: excluded from the reference; use the SurveyApi operations.', seed000('9'), {
  deprecated: { replacement: 'SurveyApi operations' },
  notShown: ['Deprecated Survey operations: not listed by the reference.', 'Removal dates of deprecated operations: not shown.'],
});
