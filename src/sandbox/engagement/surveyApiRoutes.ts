// POST /api/SurveyApi/<Operation>: the ten published question operations (seed 000 §2, §4.1),
// answering PostOutput {ID, Errors, ResponseStatus} with HTTP 200. Bodies are checked with the
// catalog's own zod schemas (the ones the language server's JSON Schema comes from), never a second
// rule set, so catalog and sandbox agree by construction.
//
// Published rules (seed section in the request log):
// - §4.1: success is HTTP 200 with PostOutput, ResponseStatus=true;
// - §4.1, §7.3: an empty input parameter (no body, blank, {}, [] or null) gives code 12;
// - §2.1–2.3: the field types; §2.2: whether the enum lists are complete is not shown, so ScoreRange,
//   KnownType and OptinChannels take any int32 (the catalog's schemas say so); unknown fields are not
//   published as rejected, so they are ignored here (the language server flags them as typos).
// Sandbox choices (labelled in X-Sandbox-Choice; switchable per run or per request):
// - invalid-parameters (on): a documented field of the wrong JSON type, or a body that is not a JSON
//   object, is HTTP 404 — the published meaning "invalid parameters" (§7.1); off: the body is taken
//   as it is. Never code 16 ("Invalid response object" is about a response, not a request field).
// - required-fields (off): code 1 when a field flagged sandboxRequired in the catalog (the non-nullable
//   base fields, ChoiceItem.Label) is absent or null. Which fields are required is not shown (§4.1).
// - question-id-check (on): code 14 "Invalid Question ID" for a QuestionID the sandbox never allocated.
// Duplicate choice IDs are accepted: no published code means that (17 is "Invalid choice id").
import type { z } from 'zod';
import { ERROR_CATALOGUES } from '../../core/catalog/errorCatalogues';
import { SURVEY_API_OPERATIONS } from '../../core/catalog/engagement/surveyApi';
import { missingSandboxRequiredFields } from '../../core/catalog/sandboxRequired';
import type { RequestContext } from '../shared/context';
import type { Router } from '../shared/router';
import type { EngagementAuth } from './auth';

interface ApiCallError { ErrorCode: number; ErrorDescription: string }

function catalogueError(code: number, meaning?: string): ApiCallError {
  const entries = ERROR_CATALOGUES.SurveyApi.entries.filter((e) => e.code === code);
  const entry = entries.find((e) => meaning === undefined || e.description === meaning) ?? entries[0];
  return { ErrorCode: code, ErrorDescription: entry?.description ?? 'Internal Error' };
}

const isInt32 = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= -2147483648 && (v as number) <= 2147483647;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** "Empty input parameter": nothing, null, {} or []. */
function isEmptyInput(value: unknown): boolean {
  return value === null || (isObject(value) && Object.keys(value).length === 0) || (Array.isArray(value) && value.length === 0);
}

/** Paths of documented fields whose value the catalog schema rejects; unknown keys are not counted. */
function wronglyTyped(schema: z.ZodType, body: Record<string, unknown>): string[] {
  const parsed = schema.safeParse(body);
  if (parsed.success) return [];
  return parsed.error.issues
    .filter((issue) => issue.code !== 'unrecognized_keys')
    .map((issue) => issue.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i > 0 ? '.' : ''}${String(p)}`)).join('') || 'body');
}

export function addSurveyApiRoutes(router: Router, auth: EngagementAuth): void {
  const questions = new Map<number, string>();
  let nextId = 5001;
  for (const operation of SURVEY_API_OPERATIONS) {
    const schema = operation.requestBody;
    if (!operation.path || !schema) continue;
    const name = `SurveyApi/${operation.name}`;
    router.post(operation.path, async (ctx: RequestContext) => {
      if (!auth.authorize(ctx, name)) return;
      const fail = (errors: ApiCallError[]): void => ctx.json(200, { ID: 0, Errors: errors, ResponseStatus: false });
      const body = await ctx.jsonBody();
      if (body.kind === 'empty' || (body.kind === 'json' && isEmptyInput(body.value))) {
        ctx.rule({ seed: '000', section: '4.1' }, 'an empty input parameter gives code 12');
        return fail([catalogueError(12)]);
      }
      const invalidParameters = (what: string): void => {
        ctx.rule({ seed: '000', section: '7.1' }, '404: invalid parameters');
        ctx.choice('invalid-parameters');
        ctx.errorJson(404, { Message: `The request is invalid: ${what}.` });
      };
      if (body.kind === 'invalid' || !isObject(body.value)) {
        if (ctx.isOn('invalid-parameters')) return invalidParameters(body.kind === 'invalid' ? `the body is not JSON (${body.message})` : 'the body is not a JSON object');
        // Switched off: nothing readable was sent, which is an empty input parameter.
        ctx.rule({ seed: '000', section: '4.1' }, 'an empty input parameter gives code 12');
        return fail([catalogueError(12)]);
      }
      const value = body.value;
      const wrong = wronglyTyped(schema, value);
      if (wrong.length > 0 && ctx.isOn('invalid-parameters')) return invalidParameters(`wrong type for ${wrong.join(', ')}`);
      ctx.rule({ seed: '000', section: '2' }, 'fields read as the catalog schema types them');
      if (ctx.isOn('required-fields')) {
        ctx.choice('required-fields');
        const missing = missingSandboxRequiredFields(operation, value);
        if (missing.length > 0) {
          ctx.rule({ seed: '000', section: '7.3' }, 'code 1: Missing mandatory fields');
          const code1 = catalogueError(1);
          return fail([{ ...code1, ErrorDescription: `${code1.ErrorDescription}: ${missing.join(', ')}` }]);
        }
      }
      const questionId = value['QuestionID'];
      if (isInt32(questionId) && !questions.has(questionId) && ctx.isOn('question-id-check')) {
        ctx.rule({ seed: '000', section: '7.3' }, 'code 14: Invalid Question ID');
        ctx.choice('question-id-check');
        return fail([catalogueError(14, 'Invalid Question ID')]);
      }
      const id = isInt32(questionId) ? questionId : nextId++;
      questions.set(id, operation.name);
      ctx.rule({ seed: '000', section: '4.1' }, 'HTTP 200 with PostOutput');
      ctx.json(200, { ID: id, Errors: [], ResponseStatus: true });
    });
  }
}
