// Runs the language service once over a small file of its own before the server answers `initialize`:
// V8 compiles a function the first time it runs, and what the service runs on a file's first slice
// (the parser, the contract checks, the body walk, a publication's encoding) cost a file that had just
// opened several ms more than the slice itself. Paid here, at start, it is not paid while a user waits
// for a file's first diagnostics. The file touches no disk and no user's text; what it finds is dropped.
import type { HttpLanguageService } from './service';
import { HttpDocumentCache } from './service';

const SAMPLE = [
  '@pageSize = 100',
  '',
  '### A question',
  '# @name question',
  'POST {{engagement_base_url}}/api/SurveyApi/AddFeedbackScoreQuestion',
  'Authorization: Bearer {{$auth.token("engagement")}}',
  'Content-Type: application/json',
  '',
  '{',
  '  "OpCode": 1,',
  '  "PageID": 1,',
  '  "QuestionLabel": "How was your stay?",',
  '  "ScoreRange": 1,',
  '  "Choices": [ { "Label": "Suite", "Order": 1 } ]',
  '}',
  '',
  '### Orders',
  'GET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer',
  '  ?ctcID={{ctcID}}',
  '  &pageSize={{pageSize}}',
  '',
  '### A payment',
  'POST {{fundraising_base_url}}/v1/transactions',
  'X-API-Key: {{tenant_code}}',
  'Content-Type: application/json',
  '',
  '{ "giftAid": { "addDeclaration": true }, "utmSource": "{{question.response.body.$.ID}}" }',
  '',
].join('\n');

/** Validates, completes and outlines SAMPLE once (what a file's open runs first), keeping nothing. */
export function warmUp(service: HttpLanguageService): void {
  const document = new HttpDocumentCache().get('untitled:warm-up.http', 1, () => SAMPLE);
  const steps = service.validationSteps(document);
  for (let step = steps.next(); !step.done; step = steps.next()) step.value.partial();
  JSON.stringify(service.doComplete(document, { line: 10, character: 3 }));
}
