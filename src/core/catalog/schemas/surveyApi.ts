// SurveyApi request and response bodies, field by field from seed 000 §2.1–2.4.
//
// Choices made where the contract is silent, so nobody has to guess later:
// - Which fields are required is not shown (§4.1), so every request field is optional in the schema.
//   The non-nullable fields of the §2.1 and §2.3 tables are flagged `sandboxRequired: true`: the
//   sandbox's `required-fields` choice (off unless switched on) answers code 1 without them. It is a
//   choice, not the contract: the language server mentions it as information only.
// - The fully specified shapes are strict objects (unknown keys are rejected) so that a typo such as
//   `QuestionLable` is flagged. The name-and-address shape is loose: its fields after PrivacyPolicyText
//   are not shown, and so are the fields of ContactInformationField.
// - Enumerated integers (ScoreRange, KnownType, OptinChannels) stay integers: whether the lists are
//   exhaustive is not shown, so other integers are accepted; the meanings ride along as metadata.
import { z } from 'zod';
import { builtOnFirstUse, documented, int32, seed000 } from './documented';

const s21 = seed000('2.1');
const s22 = seed000('2.2');
const s23 = seed000('2.3');
const s24 = seed000('2.4');

// ---- §2.1 base fields shared by every question-adding request ----


export const surveyQuestionBaseFields = builtOnFirstUse(() => ({
  ErrorMessage: documented(z.string().optional(), { description: 'error message', source: s21, sandboxRequired: true }),
  IsMandatory: documented(z.boolean().nullable().optional(), { description: 'question is mandatory', source: s21 }),
  OpCode: documented(int32().optional(), { description: 'survey identifier', source: s21, sandboxRequired: true }),
  PageID: documented(int32().nullable().optional(), { description: 'page number', source: s21 }),
  QuestionID: documented(int32().nullable().optional(), { description: 'question identifier', source: s21 }),
  QuestionLabel: documented(z.string().optional(), { description: 'question title', source: s21, sandboxRequired: true }),
  QuestionPosition: documented(int32().nullable().optional(), { description: 'question number (position)', source: s21 }),
  QuestionSubType: documented(z.string().optional(), {
    description: 'question sub-type (allowed values: not shown)',
    source: s21,
    sandboxRequired: true,
  }),
  QuestionType: documented(z.string().optional(), {
    description: 'question type (allowed values: not shown)',
    source: s21,
    sandboxRequired: true,
  }),
}));


// ---- §2.3 ChoiceItem ----

export const ChoiceItem = builtOnFirstUse(() => documented(
  z.strictObject({
    ID: documented(int32().nullable().optional(), { description: 'option identifier', source: s23 }),
    IsMaster: documented(z.boolean().nullable().optional(), { description: 'exclusive option', source: s23 }),
    IsOther: documented(z.boolean().nullable().optional(), { description: 'Other option', source: s23 }),
    IsRandom: documented(z.boolean().nullable().optional(), { description: "randomise this option's order", source: s23 }),
    Label: documented(z.string().optional(), { description: 'option text', source: s23, sandboxRequired: true }),
    Order: documented(int32().nullable().optional(), { description: 'option order', source: s23 }),
  }),
  { description: 'ChoiceItem: one response option', source: s23 },
));

// ---- §2.2 extra fields by question kind ----

export const SCORE_RANGE_MEANINGS = { 0: 'OneToFive', 1: 'ZeroToTen' } as const;
export const KNOWN_TYPE_MEANINGS = { 0: 'Location', 1: 'Category', 2: 'SubCategory', 3: 'PreferredSite' } as const;
export const OPTIN_CHANNEL_MEANINGS = { 0: 'Email', 1: 'SMS', 2: 'Mail', 3: 'Phone' } as const;

// Fields the table lists with a type but no meaning: the name is all there is.
const NO_MEANING = 'meaning not shown (only the name and type are published)';

const enumNote = 'whether the list is exhaustive, and the wire form (number or name), are not shown';

export const optInFields = builtOnFirstUse(() => ({
  OptinChoiceLabel: documented(z.string().optional(), { description: 'opt-in choice text', source: s22 }),
  OptoutChoiceLabel: documented(z.string().optional(), { description: 'opt-out choice text', source: s22 }),
}));

export const choiceFields = builtOnFirstUse(() => ({
  Choices: documented(z.array(ChoiceItem()).optional(), { description: 'response options (array of ChoiceItem)', source: s22 }),
  KnownNodeCodeFromTree: documented(int32().nullable().optional(), { description: 'existing node code from a tree', source: s22 }),
  Preticked: documented(z.boolean().nullable().optional(), { description: 'pre-tick all options', source: s22 }),
  RandomiseResponsesOrder: documented(z.boolean().nullable().optional(), { description: 'randomise option order', source: s22 }),
}));

export const feedbackScoreFields = builtOnFirstUse(() => ({
  ScoreRange: documented(int32().optional(), {
    description: `score range (0 = OneToFive, 1 = ZeroToTen; ${enumNote})`,
    source: s22,
    enumMeanings: SCORE_RANGE_MEANINGS,
  }),
  UseEmoticons: documented(z.boolean().nullable().optional(), { description: NO_MEANING, source: s22 }),
}));

export const knownValueFields = builtOnFirstUse(() => ({
  KnownType: documented(int32().optional(), {
    description: `kind of known value (0 = Location, 1 = Category, 2 = SubCategory, 3 = PreferredSite; ${enumNote})`,
    source: s22,
    enumMeanings: KNOWN_TYPE_MEANINGS,
  }),
  DisplayRegionFilter: documented(z.boolean().nullable().optional(), {
    description: 'show region and sub-region as a filter for Location/PreferredSite questions',
    source: s22,
  }),
  IsStaticLocations: documented(z.boolean().nullable().optional(), {
    description: 'automatically show new locations in Location/PreferredSite questions',
    source: s22,
  }),
  SelectedOptions: documented(z.array(int32()).optional(), {
    description: 'options to display; default is all options',
    source: s22,
  }),
}));

export const matrixFields = builtOnFirstUse(() => ({
  Rows: documented(z.array(ChoiceItem()).optional(), { description: 'row choices (array of ChoiceItem)', source: s22 }),
  Columns: documented(z.array(ChoiceItem()).optional(), { description: 'column choices (array of ChoiceItem)', source: s22 }),
}));

export const multiChannelOptInFields = builtOnFirstUse(() => ({
  OptinChannels: documented(
    z.array(
      documented(int32(), {
        description: `opt-in channel (0 = Email, 1 = SMS, 2 = Mail, 3 = Phone; ${enumNote})`,
        source: s22,
        enumMeanings: OPTIN_CHANNEL_MEANINGS,
      }),
    ).optional(),
    { description: 'marketing opt-in channels (0 = Email, 1 = SMS, 2 = Mail, 3 = Phone)', source: s22 },
  ),
}));

export const nameAndAddressFields = builtOnFirstUse(() => ({
  ContactInformationFields: documented(z.array(z.unknown()).optional(), {
    description: 'array of ContactInformationField (fields of ContactInformationField: not shown)',
    source: s22,
  }),
  CreateAsContact: documented(z.boolean().nullable().optional(), { description: NO_MEANING, source: s22 }),
  CreateAsMasterContact: documented(z.boolean().nullable().optional(), { description: NO_MEANING, source: s22 }),
  FlagContactAsOptedIn: documented(z.boolean().nullable().optional(), { description: NO_MEANING, source: s22 }),
  IncorrectDetailsMessage: documented(z.string().optional(), {
    description: 'message shown if contact details are incorrect',
    source: s22,
  }),
  PrePopulateContactDetails: documented(z.boolean().nullable().optional(), { description: NO_MEANING, source: s22 }),
  PrivacyPolicyLink: documented(z.string().optional(), { description: NO_MEANING, source: s22 }),
  PrivacyPolicyText: documented(z.string().optional(), { description: NO_MEANING, source: s22 }),
}));

// ---- request shapes (§2.2 table, §4.1 "Request shape" column) ----

const shape = <T extends z.ZodRawShape>(title: string, fields: T) =>
  documented(z.strictObject({ ...surveyQuestionBaseFields(), ...fields }), { description: title, source: s22 });

export const BaseQuestionRequest = builtOnFirstUse(() => documented(z.strictObject(surveyQuestionBaseFields()), {
  description: 'survey question: base fields only (captcha, date/time, label)',
  source: s21,
}));
export const OptInQuestionRequest = builtOnFirstUse(() => shape('survey question: base fields + opt-in labels', optInFields()));
export const ChoiceQuestionRequest = builtOnFirstUse(() => shape('survey question: base fields + choice fields', choiceFields()));
export const FeedbackScoreQuestionRequest = builtOnFirstUse(() => shape('survey question: base fields + score fields', feedbackScoreFields()));
export const KnownQuestionRequest = builtOnFirstUse(() => shape('survey question: base fields + known-value fields', knownValueFields()));
export const MatrixQuestionRequest = builtOnFirstUse(() => shape('survey question: base fields + Rows, Columns', matrixFields()));
export const MultiChannelOptInQuestionRequest = builtOnFirstUse(() => shape('survey question: base fields + OptinChannels', multiChannelOptInFields()));
export const NameAndAddressQuestionRequest = builtOnFirstUse(() => documented(
  z.looseObject({ ...surveyQuestionBaseFields(), ...nameAndAddressFields() }),
  {
    description: 'survey question: base fields + name-and-address fields (fields after PrivacyPolicyText: not shown)',
    source: s22,
  },
));

// ---- §2.4 response ----

export const APICallError = builtOnFirstUse(() => documented(
  z.object({
    ErrorCode: documented(int32(), { description: 'the error code (SurveyApi catalogue, seed 000 §7.3)', source: s24 }),
    ErrorDescription: documented(z.string(), { description: 'the error description', source: s24 }),
  }),
  { description: 'APICallError', source: s24 },
));

export const PostOutput = builtOnFirstUse(() => documented(
  z.object({
    ID: documented(int32(), { description: 'identifier', source: s24 }),
    Errors: documented(z.array(APICallError()), { description: 'errors, if any', source: s24 }),
    ResponseStatus: documented(z.boolean(), {
      description: 'true when the action was treated successfully, false when there is an error',
      source: s24,
    }),
  }),
  { description: 'PostOutput: response of every question-adding operation', source: s24 },
));
