// POST /api/SurveyApi/<Operation>: the ten published question operations (seed 000 §2, §4.1),
// answering PostOutput {ID, Errors, ResponseStatus} with HTTP 200.
//
// Sandbox rules (the contract does not say which fields are required):
// - mandatory = the non-nullable base fields of §2.1: ErrorMessage, OpCode, QuestionLabel,
//   QuestionSubType, QuestionType (and Label inside a ChoiceItem); missing, null or blank → code 1;
// - an empty, `{}`, `null`, non-object or unparsable body → code 12 (empty input parameter);
// - a documented field of the wrong type, or an enum (ScoreRange, KnownType, OptinChannels) outside
//   its published values → code 16 (the catalogue's "Invalid response object": the request object
//   cannot be read; the catalogue has no closer code);
// - QuestionID naming no question this sandbox allocated → code 14 (its "Invalid Question ID" meaning);
// - two choices with the same ID → code 17;
// - success: ResponseStatus=true, ID = a newly allocated question id (or the given QuestionID).
import { ERROR_CATALOGUES } from '../../core/catalog/errorCatalogues';
import type { RequestContext } from '../shared/context';
import type { Router } from '../shared/router';
import type { EngagementAuth } from './auth';

type FieldType = 'string' | 'int' | 'bool' | 'int[]' | 'choices' | 'object[]';
interface FieldSpec { readonly type: FieldType; readonly mandatory?: boolean; readonly enum?: readonly number[] }
type Shape = Readonly<Record<string, FieldSpec>>;

const BASE: Shape = {
  ErrorMessage: { type: 'string', mandatory: true },
  IsMandatory: { type: 'bool' },
  OpCode: { type: 'int', mandatory: true },
  PageID: { type: 'int' },
  QuestionID: { type: 'int' },
  QuestionLabel: { type: 'string', mandatory: true },
  QuestionPosition: { type: 'int' },
  QuestionSubType: { type: 'string', mandatory: true },
  QuestionType: { type: 'string', mandatory: true },
};

const CHOICE_ITEM: Shape = {
  ID: { type: 'int' }, IsMaster: { type: 'bool' }, IsOther: { type: 'bool' }, IsRandom: { type: 'bool' },
  Label: { type: 'string', mandatory: true }, Order: { type: 'int' },
};

export const SURVEY_OPERATIONS: Readonly<Record<string, Shape>> = {
  AddAllOptinQuestion: { OptinChoiceLabel: { type: 'string' }, OptoutChoiceLabel: { type: 'string' } },
  AddCaptchaQuestion: {},
  AddChoiceQuestion: {
    Choices: { type: 'choices' }, KnownNodeCodeFromTree: { type: 'int' }, Preticked: { type: 'bool' },
    RandomiseResponsesOrder: { type: 'bool' },
  },
  AddDateTimeQuestion: {},
  AddFeedbackScoreQuestion: { ScoreRange: { type: 'int', enum: [0, 1] }, UseEmoticons: { type: 'bool' } },
  AddKnownQuestion: {
    KnownType: { type: 'int', enum: [0, 1, 2, 3] }, DisplayRegionFilter: { type: 'bool' },
    IsStaticLocations: { type: 'bool' }, SelectedOptions: { type: 'int[]' },
  },
  AddLabelQuestion: {},
  AddMatrixQuestion: { Rows: { type: 'choices' }, Columns: { type: 'choices' } },
  AddMultiChannelsOptinQuestion: { OptinChannels: { type: 'int[]', enum: [0, 1, 2, 3] } },
  AddNameAndAddressQuestion: {
    ContactInformationFields: { type: 'object[]' }, CreateAsContact: { type: 'bool' },
    CreateAsMasterContact: { type: 'bool' }, FlagContactAsOptedIn: { type: 'bool' },
    IncorrectDetailsMessage: { type: 'string' }, PrePopulateContactDetails: { type: 'bool' },
    PrivacyPolicyLink: { type: 'string' }, PrivacyPolicyText: { type: 'string' },
  },
};

interface ApiCallError { ErrorCode: number; ErrorDescription: string }

function catalogueError(code: number, meaning?: string): ApiCallError {
  const entries = ERROR_CATALOGUES.SurveyApi.entries.filter((e) => e.code === code);
  const entry = entries.find((e) => meaning === undefined || e.description === meaning) ?? entries[0];
  return { ErrorCode: code, ErrorDescription: entry?.description ?? 'Internal Error' };
}

const isInt32 = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= -2147483648 && (v as number) <= 2147483647;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks one object against a shape: the names of missing mandatory fields and of wrong ones. */
function check(body: Record<string, unknown>, shape: Shape, prefix = ''): { missing: string[]; wrong: string[] } {
  const missing: string[] = [];
  const wrong: string[] = [];
  for (const [name, spec] of Object.entries(shape)) {
    const value = body[name];
    const path = `${prefix}${name}`;
    if (value === undefined || value === null || (spec.type === 'string' && typeof value === 'string' && value.trim() === '')) {
      if (spec.mandatory) missing.push(path);
      continue;
    }
    const enumOk = (n: number): boolean => spec.enum === undefined || spec.enum.includes(n);
    switch (spec.type) {
      case 'string': if (typeof value !== 'string') wrong.push(path); break;
      case 'bool': if (typeof value !== 'boolean') wrong.push(path); break;
      case 'int': if (!isInt32(value) || !enumOk(value)) wrong.push(path); break;
      case 'int[]': if (!Array.isArray(value) || !value.every((v) => isInt32(v) && enumOk(v))) wrong.push(path); break;
      case 'object[]': if (!Array.isArray(value) || !value.every(isObject)) wrong.push(path); break;
      case 'choices':
        if (!Array.isArray(value)) { wrong.push(path); break; }
        value.forEach((item, i) => {
          if (!isObject(item)) { wrong.push(`${path}[${i}]`); return; }
          const inner = check(item, CHOICE_ITEM, `${path}[${i}].`);
          missing.push(...inner.missing);
          wrong.push(...inner.wrong);
        });
        break;
    }
  }
  return { missing, wrong };
}

function duplicateChoiceIds(body: Record<string, unknown>): boolean {
  for (const name of ['Choices', 'Rows', 'Columns']) {
    const items = body[name];
    if (!Array.isArray(items)) continue;
    const ids = items.map((c) => (isObject(c) ? c['ID'] : undefined)).filter(isInt32);
    if (new Set(ids).size !== ids.length) return true;
  }
  return false;
}

export function addSurveyApiRoutes(router: Router, auth: EngagementAuth): void {
  const questions = new Map<number, string>();
  let nextId = 5001;
  for (const [operation, extra] of Object.entries(SURVEY_OPERATIONS)) {
    const shape: Shape = { ...BASE, ...extra };
    router.post(`/api/SurveyApi/${operation}`, async (ctx: RequestContext) => {
      if (!auth.authorize(ctx, `SurveyApi/${operation}`)) return;
      const fail = (errors: ApiCallError[]): void => ctx.json(200, { ID: 0, Errors: errors, ResponseStatus: false });
      const body = await ctx.jsonBody();
      if (body.kind !== 'json' || !isObject(body.value) || Object.keys(body.value).length === 0) {
        fail([catalogueError(12)]);
        return;
      }
      const value = body.value;
      const { missing, wrong } = check(value, shape);
      const errors: ApiCallError[] = [];
      if (missing.length > 0) errors.push({ ...catalogueError(1), ErrorDescription: `${catalogueError(1).ErrorDescription}: ${missing.join(', ')}` });
      if (wrong.length > 0) errors.push({ ...catalogueError(16), ErrorDescription: `${catalogueError(16).ErrorDescription}: ${wrong.join(', ')}` });
      if (errors.length > 0) return fail(errors);
      const questionId = value['QuestionID'];
      if (isInt32(questionId) && !questions.has(questionId)) return fail([catalogueError(14, 'Invalid Question ID')]);
      if (duplicateChoiceIds(value)) return fail([catalogueError(17)]);
      const id = isInt32(questionId) ? questionId : nextId++;
      questions.set(id, operation);
      ctx.json(200, { ID: id, Errors: [], ResponseStatus: true });
    });
  }
}
