// Fields the product treats as mandatory: the non-nullable SurveyApi base fields (flagged
// `mandatory: true` in their metadata; see schemas/surveyApi.ts for why). Code 1 ("Missing mandatory
// fields") exists but the exact required sets are not shown, so this is advice for diagnostics and
// the sandbox, never a schema rejection.
import type { Operation } from './model';
import { requestBodyJsonSchema } from './jsonSchema';

export function mandatoryFields(op: Operation): readonly string[] {
  const schema = requestBodyJsonSchema(op);
  return Object.entries(schema?.properties ?? {})
    .filter(([, property]) => typeof property === 'object' && property.mandatory === true)
    .map(([name]) => name);
}

/** Mandatory fields absent from a body, or present as null. A non-object body lacks all of them. */
export function missingMandatoryFields(op: Operation, body: unknown): readonly string[] {
  const record = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  return mandatoryFields(op).filter((name) => record[name] === undefined || record[name] === null);
}
