// Fixture helpers for the language-service tests: a `|` in the text marks the cursor.
import type { Diagnostic, MarkupContent } from 'vscode-languageserver';
import { createCatalog } from '../../src/core/catalog';
import { createHttpLanguageService, HttpDocument } from '../../src/server/service';

const catalog = createCatalog();

export const ENVIRONMENT = ['engagement_base_url', 'fundraising_base_url', 'booking_base_url', 'tenant_code', 'ctcID'];

/** 'none': the client has not said which environment is active. */
function service(environment: readonly string[] | 'none' = ENVIRONMENT) {
  const s = createHttpLanguageService(catalog);
  s.setEnvironmentVariables(environment === 'none' ? undefined : environment);
  return s;
}

export function withCursor(fixture: string): { text: string; position: { line: number; character: number } } {
  const at = fixture.indexOf('|');
  if (at === -1) throw new Error('fixture without a | cursor');
  const text = fixture.slice(0, at) + fixture.slice(at + 1);
  const before = text.slice(0, at).split('\n');
  return { text, position: { line: before.length - 1, character: before.at(-1)?.length ?? 0 } };
}

export function completionLabels(fixture: string): string[] {
  return completions(fixture).map((i) => i.label);
}

export function completions(fixture: string) {
  const { text, position } = withCursor(fixture);
  return service().doComplete(new HttpDocument('file:///t.http', 1, text), position).items;
}

export function hoverText(fixture: string): string {
  const { text, position } = withCursor(fixture);
  const hover = service().doHover(new HttpDocument('file:///t.http', 1, text), position);
  return hover ? (hover.contents as MarkupContent).value : '';
}

export function diagnostics(text: string, environment: readonly string[] | 'none' = ENVIRONMENT): Diagnostic[] {
  return service(environment).doValidate(new HttpDocument('file:///t.http', 1, text));
}

export function codes(text: string): string[] {
  return diagnostics(text).map((d) => String(d.code));
}

export function outline(text: string) {
  const s = service();
  const document = new HttpDocument('file:///t.http', 1, text);
  return { lenses: s.codeLenses(document), symbols: s.documentSymbols(document), folds: s.foldingRanges(document) };
}

/** A SurveyApi request with a JSON body. */
export function survey(operation: string, body: string): string {
  return `POST {{engagement_base_url}}/api/SurveyApi/${operation}\nAuthorization: Bearer {{$auth.token("engagement")}}\nContent-Type: application/json\n\n${body}\n`;
}

/** The five base fields the catalog flags as mandatory, so a body is otherwise complete. */
export const MANDATORY = '"ErrorMessage": "", "OpCode": 12, "QuestionLabel": "Q", "QuestionSubType": "", "QuestionType": ""';
