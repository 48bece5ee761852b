// The SurveyApi family: the ten published question operations of seed 000 §4.1. The other ten of the
// family's twenty are not shown and are listed as such, not invented.
import type { z } from 'zod';
import type { Family, Operation } from '../model';
import {
  BaseQuestionRequest,
  ChoiceQuestionRequest,
  FeedbackScoreQuestionRequest,
  KnownQuestionRequest,
  MatrixQuestionRequest,
  MultiChannelOptInQuestionRequest,
  NameAndAddressQuestionRequest,
  OptInQuestionRequest,
  PostOutput,
} from '../schemas/surveyApi';
import { seed000 } from '../schemas/documented';
import { STATED_HTTP_ERRORS, engagementFamily, engagementOperation } from './common';

const QUESTION_NOT_SHOWN = [
  'Which request fields are required: not shown (missing mandatory fields give code 1; an empty input parameter gives code 12).',
  'Bodies of the 401, 403, 404 and 500 responses: not shown.',
];

function questionOperation(name: string, summary: string, requestBody: () => z.ZodType, extraNotShown: readonly string[] = []): Operation {
  return engagementOperation({
    family: 'SurveyApi',
    name,
    summary,
    method: 'POST',
    path: `/api/SurveyApi/${name}`,
    pathStatus: 'published',
    paging: 'none',
    requestBody,
    responseBody: PostOutput,
    errorCatalogue: 'SurveyApi',
    statuses: STATED_HTTP_ERRORS,
    notShown: [...QUESTION_NOT_SHOWN, ...extraNotShown],
    source: seed000('4.1'),
  });
}

export const SURVEY_API_OPERATIONS: readonly Operation[] = [
  questionOperation('AddAllOptinQuestion', 'Opt-in question (base fields + opt-in labels).', OptInQuestionRequest),
  questionOperation('AddCaptchaQuestion', 'Upload question, as described (base fields).', BaseQuestionRequest),
  questionOperation('AddChoiceQuestion', 'Choices question (base fields + choice fields).', ChoiceQuestionRequest),
  questionOperation('AddDateTimeQuestion', 'Date question or time question (base fields).', BaseQuestionRequest),
  questionOperation('AddFeedbackScoreQuestion', 'Feedback score question (base fields + score fields).', FeedbackScoreQuestionRequest),
  questionOperation(
    'AddKnownQuestion',
    'Location, Category, Subcategory or Preferred Site question (base fields + known-value fields).',
    KnownQuestionRequest,
  ),
  questionOperation('AddLabelQuestion', 'Label question (base fields).', BaseQuestionRequest),
  questionOperation('AddMatrixQuestion', 'Matrix question (base fields + Rows, Columns).', MatrixQuestionRequest),
  questionOperation(
    'AddMultiChannelsOptinQuestion',
    'Marketing opt-in, multi channel (base fields + OptinChannels).',
    MultiChannelOptInQuestionRequest,
  ),
  questionOperation(
    'AddNameAndAddressQuestion',
    'Name and address question (base fields + name-and-address fields).',
    NameAndAddressQuestionRequest,
    ['Fields of ContactInformationField: not shown.', 'Fields of the name-and-address request after PrivacyPolicyText: not shown.'],
  ),
];

export const surveyApiFamily: Family = engagementFamily(
  'SurveyApi',
  'Saves survey definitions: each operation adds one question of the kind its name fixes.',
  seed000('1'),
  {
    statedOperationCount: 20,
    operations: SURVEY_API_OPERATIONS,
    notShown: [
      'The remaining SurveyApi operations (10 of the 20 in the family): not shown.',
      'Allowed values of QuestionType and QuestionSubType: not shown.',
      'Survey records and survey response records as stored or returned: not shown.',
    ],
  },
);
