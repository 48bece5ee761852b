// Contract tests of the SurveyApi question operations (seed 000 §2, §4.1, §7.3) and deprecations (§9).
// What the contract leaves open (required fields, enum completeness, code meanings) is tested as rules
// in contractFidelity.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type RunningSandbox } from '../../src/sandbox';
import type { SandboxDescriptor } from '../../src/sandbox/descriptor';
import { type Json, bearer, engagementPost, startSignedIn } from './helpers';

let sandbox: RunningSandbox;
let d: SandboxDescriptor;
let token: string;

before(async () => ({ sandbox, d, token } = await startSignedIn({ orders: 10 })));
after(() => sandbox.close());

const base = { ErrorMessage: 'Please answer', IsMandatory: true, OpCode: 42, PageID: 1, QuestionLabel: 'How was your stay?', QuestionPosition: 1, QuestionSubType: 'Single', QuestionType: 'Choice' };
const add = (operation: string, body: unknown) => engagementPost(d, token, `/api/SurveyApi/${operation}`, body);

const VALID: Record<string, Json> = {
  AddAllOptinQuestion: { ...base, OptinChoiceLabel: 'Yes please', OptoutChoiceLabel: 'No thanks' },
  AddCaptchaQuestion: base,
  AddChoiceQuestion: { ...base, Choices: [{ ID: 1, Label: 'Great', Order: 1 }, { ID: 2, Label: 'Poor', IsOther: false }], Preticked: false, RandomiseResponsesOrder: null },
  AddDateTimeQuestion: base,
  AddFeedbackScoreQuestion: { ...base, ScoreRange: 1, UseEmoticons: true },
  AddKnownQuestion: { ...base, KnownType: 3, DisplayRegionFilter: true, IsStaticLocations: false, SelectedOptions: [1, 2] },
  AddLabelQuestion: base,
  AddMatrixQuestion: { ...base, Rows: [{ Label: 'Room' }], Columns: [{ Label: 'Good' }, { Label: 'Bad' }] },
  AddMultiChannelsOptinQuestion: { ...base, OptinChannels: [0, 1, 2, 3] },
  AddNameAndAddressQuestion: { ...base, ContactInformationFields: [{}], CreateAsContact: true, PrivacyPolicyLink: 'https://example.test/privacy', PrivacyPolicyText: 'We care' },
};

void describe('SurveyApi question operations (seed 000 §2, §4.1, §7.3)', () => {
  void it('000 §4.1: each of the ten published operations answers HTTP 200 PostOutput with ResponseStatus=true and a new ID (rule 000-4.1-success)', async () => {
    const ids = new Set<number>();
    for (const [operation, body] of Object.entries(VALID)) {
      const { status, body: out } = await add(operation, body);
      assert.equal(status, 200, operation);
      assert.equal(out['ResponseStatus'], true, `${operation}: ${JSON.stringify(out)}`);
      assert.deepEqual(out['Errors'], []);
      assert.equal(typeof out['ID'], 'number');
      ids.add(out['ID'] as number);
    }
    assert.equal(ids.size, 10, 'every success allocates its own ID');
  });

  void it('000 §2.1: nullable base fields (IsMandatory, PageID, QuestionID, QuestionPosition) may be left out', async () => {
    const { body } = await add('AddLabelQuestion', { ErrorMessage: 'e', OpCode: 1, QuestionLabel: 'Label', QuestionSubType: 's', QuestionType: 't' });
    assert.equal(body['ResponseStatus'], true);
  });

  void it('000 §7.3 code 12: an empty body, {}, [] or null is "empty input parameter" (rule 000-4.1-empty-input)', async () => {
    for (const body of ['', '  ', '{}', 'null', '[]']) {
      const { status, body: out } = await add('AddChoiceQuestion', body);
      assert.equal(status, 200);
      assert.equal(out['ResponseStatus'], false);
      assert.deepEqual(out['Errors'], [{ ErrorCode: 12, ErrorDescription: 'empty input parameter' }], `body ${body}`);
    }
  });

  void it('000 §7.3 code 14: a QuestionID the service never allocated is "Invalid Question ID"; an allocated one is updated in place (rule 000-7.3-question-id)', async () => {
    const unknown = await add('AddLabelQuestion', { ...base, QuestionID: 999_999 });
    assert.deepEqual(unknown.body['Errors'], [{ ErrorCode: 14, ErrorDescription: 'Invalid Question ID' }]);
    const created = await add('AddLabelQuestion', base);
    const updated = await add('AddLabelQuestion', { ...base, QuestionID: created.body['ID'] as unknown });
    assert.equal(updated.body['ResponseStatus'], true);
    assert.equal(updated.body['ID'], created.body['ID']);
  });

  void it('000 §4.1: the question operations need a token (401 without one)', async () => {
    const response = await fetch(`${d.engagement.baseUrl}/api/SurveyApi/AddLabelQuestion`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(base) });
    assert.equal(response.status, 401);
  });

  void it('000 §4.1: the ten operations the contract does not show are not invented (404) (rule 000-4.1-unshown-operations)', async () => {
    const response = await fetch(`${d.engagement.baseUrl}/api/SurveyApi/AddRankingQuestion`, { method: 'POST', headers: bearer(token), body: JSON.stringify(base) });
    assert.equal(response.status, 404);
  });
});

void describe('deprecated operations (seed 000 §9)', () => {
  void it('000 §9: Contact and Survey operations and POST /api/Transaction/Post answer 404 naming the replacement (rule 000-9-deprecated)', async () => {
    const cases: [string, RegExp][] = [
      ['/api/Contact/Get', /Customer operations/],
      ['/api/Survey/AddQuestion', /SurveyApi operations/],
      ['/api/Transaction/Post', /PostOrder/],
    ];
    for (const [path, replacement] of cases) {
      const response = await fetch(`${d.engagement.baseUrl}${path}`, { method: 'POST', headers: bearer(token), body: '{}' });
      assert.equal(response.status, 404, path);
      assert.equal(response.headers.get('deprecation'), 'true');
      assert.match(String(((await response.json()) as Json)['Message']), replacement);
    }
  });
});
