// The completion benchmark's workload (kept in a folder so bench/run.mjs does not run it as a bench):
// a 5 000-line `.http` file of requests across the three services, and cursor positions inside bodies
// and URLs where completion is asked.
import { parseHttpFile } from '../../src/core/httpfile';
import { percentile } from '../lib/measure';

const SURVEY_SHAPES: ReadonlyArray<[string, string]> = [
  ['AddChoiceQuestion', '  "Choices": [\n    { "Label": "Suite", "Order": 1, "IsOther": false },\n    { "Label": "Double", "Order": 2 }\n  ],\n  "Preticked": false,'],
  ['AddFeedbackScoreQuestion', '  "ScoreRange": 1,\n  "UseEmoticons": true,'],
  ['AddKnownQuestion', '  "KnownType": 3,\n  "SelectedOptions": [1, 2, 3],'],
  ['AddMatrixQuestion', '  "Rows": [ { "Label": "Room" } ],\n  "Columns": [ { "Label": "Good" }, { "Label": "Bad" } ],'],
  ['AddMultiChannelsOptinQuestion', '  "OptinChannels": [0, 1],'],
];

function surveyRequest(i: number): string {
  const [operation, extra] = SURVEY_SHAPES[i % SURVEY_SHAPES.length] ?? ['AddLabelQuestion', ''];
  return [
    `### Question ${i}`,
    `# @name q${i}`,
    `POST {{engagement_base_url}}/api/SurveyApi/${operation}`,
    'Authorization: Bearer {{$auth.token("engagement")}}',
    'Content-Type: application/json',
    '',
    '{',
    '  "ErrorMessage": "",',
    `  "OpCode": ${i},`,
    '  "PageID": 1,',
    `  "QuestionLabel": "Question number ${i}",`,
    `  "QuestionPosition": ${i % 20},`,
    '  "QuestionSubType": "",',
    extra,
    '  "QuestionType": ""',
    '}',
    '',
  ].join('\n');
}

const OTHERS: ReadonlyArray<(i: number) => string> = [
  (i) => `### Orders ${i}\nGET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer\n  ?ctcID={{ctcID}}\n  &pageNumber=${(i % 9) + 1}\n  &pageSize=100\nAuthorization: Bearer {{$auth.token("engagement")}}\n`,
  (i) => `### Leads ${i}\nPOST {{engagement_base_url}}/api/SalesLeads/GetLeads\nContent-Type: application/json\n\n{\n  "CtcID": ${i},\n  "BrandID": 2,\n  "PageSize": 50,\n  "Offset": 0\n}\n`,
  (i) => `### Payment ${i}\nPOST {{fundraising_base_url}}/v1/transactions\nX-API-Key: {{tenant_code}}\nContent-Type: application/json\n\n{\n  "giftAid": { "addDeclaration": true, "declarationMethod": "online" },\n  "allocations": [ { "canRecoverTax": true } ],\n  "utmSource": "newsletter"\n}\n`,
  (i) => `### Bookings ${i}\nGET {{booking_base_url}}/bookings?page=${(i % 5) + 1}\n`,
];

/** At least `minLines` lines; every fifth request is not a SurveyApi one. */
export function buildLargeHttpFile(minLines = 5000): string {
  const parts: string[] = ['@pageSize = 100', ''];
  let lines = 2;
  for (let i = 0; lines < minLines; i++) {
    const part = i % 5 === 4 ? (OTHERS[(i / 5) % OTHERS.length | 0] ?? OTHERS[0])?.(i) ?? '' : surveyRequest(i);
    parts.push(part);
    lines += part.split('\n').length;
  }
  return parts.join('\n');
}

export interface CompletionPoint {
  readonly line: number;
  readonly character: number;
  readonly kind: 'body-key' | 'body-value' | 'url';
  /** The JSON body text of the request (for the JSON.parse baseline); '' for URL points. */
  readonly body: string;
}

/** Deterministic pseudo-random positions: after a body key's line start, after a `": `, or in a URL. */
export function completionPoints(text: string, count: number, seed = 7): CompletionPoint[] {
  const file = parseHttpFile(text);
  const candidates: CompletionPoint[] = [];
  for (const request of file.requests) {
    const body = request.body?.kind === 'inline' ? request.body.text : '';
    const url = request.requestLine.urlRange;
    candidates.push({ line: url.start.line, character: url.end.character, kind: 'url', body: '' });
    if (request.body?.kind !== 'inline') continue;
    for (let line = request.body.range.start.line + 1; line < request.body.range.end.line; line++) {
      const lineText = file.lines[line]?.text ?? '';
      const colon = lineText.indexOf('": ');
      if (colon !== -1) candidates.push({ line, character: colon + 3, kind: 'body-value', body });
      if (/^\s+"/.test(lineText)) candidates.push({ line, character: lineText.indexOf('"'), kind: 'body-key', body });
    }
  }
  let state = seed;
  const next = (): number => { state = (state * 1103515245 + 12345) % 2147483648; return state; };
  return Array.from({ length: count }, () => candidates[next() % candidates.length] ?? candidates[0]).filter((p): p is CompletionPoint => p !== undefined);
}

export function summary(samples: readonly number[]): { p50: number; p95: number; max: number } {
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), max: samples.length === 0 ? 0 : Math.max(...samples) };
}
