// Language-service fixtures for every SurveyApi request shape (seed 000 §2, §4.1): completion, hover
// and each diagnostic kind. `|` marks the cursor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codes, completionLabels, completions, diagnostics, hoverText, MANDATORY, survey } from './languageServiceFixture';

interface Shape {
  readonly operation: string;
  /** Keys completion must offer in an otherwise complete body (extra fields of the shape). */
  readonly offers: readonly string[];
  /** Keys it must not offer (extra fields of other shapes). */
  readonly notOffered: readonly string[];
  /** A field to hover, and what the hover says. */
  readonly hover: { readonly field: string; readonly value: string; readonly says: readonly RegExp[] };
  /** A value of the wrong type for one field. */
  readonly wrongType: string;
  /** False for the name-and-address shape: its fields after PrivacyPolicyText are not shown. */
  readonly strict: boolean;
}

const BASE = ['ErrorMessage', 'IsMandatory', 'OpCode', 'PageID', 'QuestionID', 'QuestionLabel', 'QuestionPosition', 'QuestionSubType', 'QuestionType'];

const shapes: readonly Shape[] = [
  { operation: 'AddAllOptinQuestion', offers: ['OptinChoiceLabel', 'OptoutChoiceLabel'], notOffered: ['Choices'], hover: { field: 'OptinChoiceLabel', value: '"Yes"', says: [/opt-in choice text/, /`string`/, /customer-engagement contract §2\.2/] }, wrongType: '"OptoutChoiceLabel": 1', strict: true },
  { operation: 'AddCaptchaQuestion', offers: [], notOffered: ['Choices', 'ScoreRange'], hover: { field: 'OpCode', value: '12', says: [/survey identifier/, /integer int32/, /not nullable/, /code 1/, /customer-engagement contract §2\.1/] }, wrongType: '"OpCode": "12"', strict: true },
  { operation: 'AddChoiceQuestion', offers: ['Choices', 'KnownNodeCodeFromTree', 'Preticked', 'RandomiseResponsesOrder'], notOffered: ['Rows'], hover: { field: 'Preticked', value: 'true', says: [/pre-tick all options/, /boolean/, /, nullable/, /customer-engagement contract §2\.2/] }, wrongType: '"Preticked": "yes"', strict: true },
  { operation: 'AddDateTimeQuestion', offers: [], notOffered: ['OptinChannels'], hover: { field: 'QuestionLabel', value: '"Q"', says: [/question title/, /customer-engagement contract §2\.1/] }, wrongType: '"PageID": 1.5', strict: true },
  { operation: 'AddFeedbackScoreQuestion', offers: ['ScoreRange', 'UseEmoticons'], notOffered: ['KnownType'], hover: { field: 'ScoreRange', value: '0', says: [/0 — OneToFive/, /1 — ZeroToTen/, /integer int32/, /customer-engagement contract §2\.2/] }, wrongType: '"ScoreRange": "OneToFive"', strict: true },
  { operation: 'AddKnownQuestion', offers: ['KnownType', 'DisplayRegionFilter', 'IsStaticLocations', 'SelectedOptions'], notOffered: ['ScoreRange'], hover: { field: 'KnownType', value: '3', says: [/3 — PreferredSite/, /customer-engagement contract §2\.2/] }, wrongType: '"SelectedOptions": [1, "2"]', strict: true },
  { operation: 'AddLabelQuestion', offers: [], notOffered: ['Rows', 'Columns'], hover: { field: 'QuestionPosition', value: '2', says: [/question number \(position\)/, /, nullable/, /customer-engagement contract §2\.1/] }, wrongType: '"IsMandatory": 1', strict: true },
  { operation: 'AddMatrixQuestion', offers: ['Rows', 'Columns'], notOffered: ['Choices'], hover: { field: 'Rows', value: '[]', says: [/row choices/, /array of ChoiceItem/, /customer-engagement contract §2\.2/] }, wrongType: '"Columns": {}', strict: true },
  { operation: 'AddMultiChannelsOptinQuestion', offers: ['OptinChannels'], notOffered: ['OptinChoiceLabel'], hover: { field: 'OptinChannels', value: '[1]', says: [/marketing opt-in channels/, /array of integer int32/, /1 — SMS/] }, wrongType: '"OptinChannels": ["SMS"]', strict: true },
  { operation: 'AddNameAndAddressQuestion', offers: ['ContactInformationFields', 'CreateAsContact', 'IncorrectDetailsMessage', 'PrivacyPolicyLink', 'PrivacyPolicyText'], notOffered: ['Choices'], hover: { field: 'IncorrectDetailsMessage', value: '""', says: [/message shown if contact details are incorrect/, /customer-engagement contract §2\.2/] }, wrongType: '"CreateAsContact": "yes"', strict: false },
];

for (const shape of shapes) {
  const op = shape.operation;

  void test(`${op}: completion offers the shape's keys not yet present, with type`, () => {
    const labels = completionLabels(survey(op, `{\n  "OpCode": 12,\n  |\n}`));
    for (const key of [...BASE.filter((k) => k !== 'OpCode'), ...shape.offers]) assert.ok(labels.includes(key), `${key} in ${labels.join(',')}`);
    assert.ok(!labels.includes('OpCode'), 'a present key is not offered again');
    for (const key of shape.notOffered) assert.ok(!labels.includes(key), `${key} is not a field of ${op}`);
  });

  void test(`${op}: hover on ${shape.hover.field} gives meaning, type, nullability and seed section`, () => {
    const text = hoverText(survey(op, `{\n  ${MANDATORY.replace(`"${shape.hover.field}": `, '"_": ')},\n  "${shape.hover.field.slice(0, 2)}|${shape.hover.field.slice(2)}": ${shape.hover.value}\n}`));
    for (const pattern of shape.hover.says) assert.match(text, pattern);
  });

  void test(`${op}: hover on the request line names the operation and what the contract does not show`, () => {
    const text = hoverText(`POST {{engagement_base_url}}/api/Survey|Api/${op}\n`);
    assert.match(text, new RegExp(`engagement/SurveyApi/${op}`));
    assert.match(text, /path: published/);
    assert.match(text, /Not shown by the contract/);
  });

  void test(`${op}: a complete body has no diagnostic`, () => {
    assert.deepEqual(codes(survey(op, `{ ${MANDATORY} }`)), []);
  });

  void test(`${op}: unknown field ${shape.strict ? 'is a warning' : 'is accepted (fields after PrivacyPolicyText are not shown)'}`, () => {
    const found = diagnostics(survey(op, `{ ${MANDATORY}, "QuestionLable": "typo" }`)).filter((d) => d.code === 'unknown-field');
    if (!shape.strict) return assert.deepEqual(found, []);
    assert.equal(found.length, 1);
    assert.match(found[0]?.message ?? '', /Unknown field 'QuestionLable'.*Did you mean 'QuestionLabel'/);
    const keyStart = '{ '.length + MANDATORY.length + ', '.length;
    assert.deepEqual(found[0]?.range, { start: { line: 4, character: keyStart }, end: { line: 4, character: keyStart + '"QuestionLable"'.length } });
  });

  void test(`${op}: wrong type (${shape.wrongType})`, () => {
    const found = diagnostics(survey(op, `{ ${MANDATORY}, ${shape.wrongType} }`));
    assert.deepEqual(found.map((d) => d.code), ['wrong-type']);
    assert.match(found[0]?.message ?? '', /Wrong type for '.+': expected/);
  });

  void test(`${op}: absent non-nullable base fields are information only (required fields: not shown)`, () => {
    const found = diagnostics(survey(op, '{ "OpCode": 12 }')).filter((d) => d.code === 'missing-mandatory');
    assert.equal(found.length, 1);
    assert.equal(found[0]?.severity, 3);
    assert.match(found[0]?.message ?? '', /Not set: ErrorMessage, QuestionLabel, QuestionSubType, QuestionType .*not shown \(customer-engagement contract §4\.1\).*required-fields choice/);
  });

  void test(`${op}: an empty body or none (code 12 would follow)`, () => {
    assert.deepEqual(codes(survey(op, '{}')), ['empty-body']);
    assert.deepEqual(codes(`POST {{engagement_base_url}}/api/SurveyApi/${op}\n`), ['empty-body']);
    assert.match(diagnostics(survey(op, '{ }'))[0]?.message ?? '', /code 12 \(empty input parameter\)/);
  });

  void test(`${op}: invalid JSON is reported at its offset`, () => {
    const found = diagnostics(survey(op, `{\n  "OpCode": 12\n  "QuestionLabel": "Q"\n}`));
    assert.equal(found[0]?.code, 'invalid-json');
    assert.deepEqual(found[0]?.range.start, { line: 6, character: 2 });
  });
}

void test('AddChoiceQuestion: ChoiceItem keys inside Choices items', () => {
  const labels = completionLabels(survey('AddChoiceQuestion', '{\n  "Choices": [\n    { "Label": "Suite", | }\n  ]\n}'));
  assert.deepEqual(labels, ['ID', 'IsMaster', 'IsOther', 'IsRandom', 'Order']);
});

void test('AddChoiceQuestion: hover inside a ChoiceItem comes from §2.3', () => {
  const text = hoverText(survey('AddChoiceQuestion', '{ "Choices": [ { "Is|Master": true } ] }'));
  assert.match(text, /exclusive option/);
  assert.match(text, /customer-engagement contract §2\.3/);
});

void test('AddChoiceQuestion: a wrong type deep inside a ChoiceItem is found', () => {
  const found = diagnostics(survey('AddChoiceQuestion', `{ ${MANDATORY}, "Choices": [ { "Label": "a" }, { "Order": "first" } ] }`));
  assert.deepEqual(found.map((d) => d.code), ['wrong-type']);
  assert.match(found[0]?.message ?? '', /'Choices\.1\.Order'/);
});

void test('AddMatrixQuestion: ChoiceItem keys inside Rows and Columns', () => {
  assert.ok(completionLabels(survey('AddMatrixQuestion', '{ "Rows": [ { | } ] }')).includes('IsOther'));
  assert.ok(completionLabels(survey('AddMatrixQuestion', '{ "Columns": [ { | } ] }')).includes('Label'));
});

void test('AddFeedbackScoreQuestion: ScoreRange values with their meaning', () => {
  assert.deepEqual(completionLabels(survey('AddFeedbackScoreQuestion', '{ "ScoreRange": | }')), ['0 — OneToFive', '1 — ZeroToTen']);
});

void test('AddKnownQuestion: KnownType values with their meaning', () => {
  assert.deepEqual(completionLabels(survey('AddKnownQuestion', '{ "KnownType": | }')), ['0 — Location', '1 — Category', '2 — SubCategory', '3 — PreferredSite']);
});

void test('AddMultiChannelsOptinQuestion: OptinChannels items with their meaning', () => {
  assert.deepEqual(completionLabels(survey('AddMultiChannelsOptinQuestion', '{ "OptinChannels": [0, |] }')), ['0 — Email', '1 — SMS', '2 — Mail', '3 — Phone']);
});

void test('nullable booleans complete true, false and null', () => {
  assert.deepEqual(completionLabels(survey('AddChoiceQuestion', '{ "Preticked": | }')), ['true', 'false', 'null']);
});

void test('an empty body position offers the documented skeleton', () => {
  const labels = completionLabels('POST {{engagement_base_url}}/api/SurveyApi/AddMatrixQuestion\nContent-Type: application/json\n\n|');
  assert.deepEqual(labels, ['{ } AddMatrixQuestion body']);
});

void test('a {{variable}} as a JSON value is accepted as any type', () => {
  assert.deepEqual(codes(survey('AddFeedbackScoreQuestion', `{ ${MANDATORY}, "ScoreRange": {{score}} }`)), ['undefined-variable']);
});

// ---- the first hour: completion in a body that is already complete ----
const feedback = 'POST {{engagement_base_url}}/api/SurveyApi/AddFeedbackScoreQuestion\nContent-Type: application/json\n\n';

void test('a key already written is never offered again, also while a new key is being typed before it', () => {
  const offered = (body: string) => completionLabels(feedback + body).filter((l) => ['OpCode', 'QuestionLabel', 'ScoreRange', 'UseEmoticons'].includes(l));
  // `"` typed (auto-closed or not) on a line of its own: the keys before and after it are present.
  assert.deepEqual(offered('{\n  "OpCode": 1,\n  "|"\n  "QuestionLabel": "x",\n  "ScoreRange": 0\n}\n'), ['UseEmoticons']);
  assert.deepEqual(offered('{\n  "OpCode": 1,\n  "|\n  "QuestionLabel": "x",\n  "ScoreRange": 0\n}\n'), ['UseEmoticons']);
  assert.deepEqual(offered('{\n  "|"\n  "OpCode": 1,\n  "QuestionLabel": "x"\n}\n'), ['ScoreRange', 'UseEmoticons']);
  assert.deepEqual(offered('{\n  "OpCode": 1, "Sc|" "QuestionLabel": "x"\n}\n'), ['ScoreRange', 'UseEmoticons']);
  // A key of a nested object does not count for the outer one.
  const choice = 'POST {{engagement_base_url}}/api/SurveyApi/AddChoiceQuestion\nContent-Type: application/json\n\n';
  assert.ok(completionLabels(`${choice}{ "Choices": [{ "Label": "a" }], "|" }\n`).includes('QuestionLabel'));
  assert.ok(!completionLabels(`${choice}{ "Choices": [{ "Label": "a", "|" }] }\n`).includes('Label'));
});

void test('enum values: a short detail; the meaning and every value in the (wrapping) documentation', () => {
  const items = completions(`${feedback}{ "ScoreRange": | }\n`).filter((i) => i.label.includes(' — '));
  assert.deepEqual(items.map((i) => [i.label, i.detail]), [['0 — OneToFive', 'ScoreRange = 0'], ['1 — ZeroToTen', 'ScoreRange = 1']]);
  const doc = items[0]?.documentation as { kind: string; value: string } | undefined;
  assert.equal(doc?.kind, 'markdown');
  assert.match(doc?.value ?? '', /score range[\s\S]*`1 — ZeroToTen`[\s\S]*customer-engagement contract §2\.2/);
});
