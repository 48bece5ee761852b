// A pass's parts (what a server publishes of a file it has just opened, slice by slice): each holds the
// findings of exactly the blocks done so far, as the whole pass reports them, less the undefined
// variables (which depend on blocks not yet read: a variable may be defined below its use); the pass
// ends with what one pass at once reports. Oracle: the whole pass, filtered to the blocks done.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver';
import { createCatalog } from '../../src/core/catalog';
import { createHttpLanguageService, HttpDocument } from '../../src/server/service';
import { ENVIRONMENT } from './languageServiceFixture';

const service = createHttpLanguageService(createCatalog());
service.setEnvironmentVariables(ENVIRONMENT);

const block = (i: number): string => [
  `### Question ${i}`,
  `# @name q${i}`,
  'POST {{engagement_base_url}}/api/SurveyApi/AddLabelQuestion',
  'Content-Type: application/json',
  '',
  `{ "OpCode": "one", "PageId": 1, "QuestionLabel": "{{laterVariable}} {{nowhere}}" }`,
  '',
  `### Uses q${i + 1}, named below`,
  `GET {{booking_base_url}}/bookings?page={{q${i + 1}.response.body.$.ID}}`,
  'Bad header line without colon',
  '',
].join('\n');

/** Enough blocks for many slices; the variable its blocks use is defined only at the end. */
const TEXT = `${Array.from({ length: 1500 }, (_, i) => block(i)).join('\n')}\n### Variables\n@laterVariable = 1\n`;

void describe('a validation pass in parts', () => {
  void it('each part holds the findings of the blocks done, as the whole reports them, less the undefined variables', () => {
    const document = new HttpDocument('file:///parts.http', 1, TEXT);
    const whole = service.doValidate(new HttpDocument('file:///parts.http', 1, TEXT));
    const codes = new Set(whole.map((d) => d.code));
    for (const code of ['wrong-type', 'case-mismatch', 'undefined-variable']) assert.ok(codes.has(code), `the fixture finds ${code}: ${[...codes].join(', ')}`);
    assert.ok(!whole.some((d) => d.message.includes("'laterVariable'")), 'a variable defined below its use is defined');
    const firstLines = document.blockTexts.firstLines;
    const steps = service.validationSteps(document);
    const parts: Diagnostic[][] = [];
    let step = steps.next();
    for (; !step.done; step = steps.next()) {
      const { blocksDone, blockCount } = step.value;
      assert.equal(blockCount, firstLines.length);
      assert.ok(blocksDone > 0 && blocksDone <= blockCount, `${blocksDone} of ${blockCount}`);
      const boundary = firstLines[blocksDone] ?? Infinity;
      const part = step.value.partial();
      assert.deepEqual(part, whole.filter((d) => d.code !== 'undefined-variable' && d.range.start.line < boundary), `the part of ${blocksDone} blocks`);
      parts.push(part);
    }
    assert.ok(parts.length >= 2, `${parts.length} parts: the pass ran in slices`);
    assert.ok(parts[0]!.length > 0 && parts[0]!.length < whole.length, 'the first part is findings of the top of the file, not all');
    assert.deepEqual(step.value, whole, 'the pass ends with the whole file');
  });

  void it('a part asked later holds only the blocks done when it was yielded, and asking it changes nothing', () => {
    const document = new HttpDocument('file:///late.http', 1, TEXT);
    const whole = service.doValidate(new HttpDocument('file:///late.http', 1, TEXT));
    const steps = service.validationSteps(document);
    const first = steps.next();
    assert.ok(!first.done);
    let step = steps.next();
    for (let i = 0; i < 3 && !step.done; i++) step = steps.next();
    const boundary = document.blockTexts.firstLines[first.value.blocksDone]!;
    assert.deepEqual(first.value.partial(), whole.filter((d) => d.code !== 'undefined-variable' && d.range.start.line < boundary));
    for (; !step.done; step = steps.next()) step.value.partial();
    assert.deepEqual(step.value, whole);
  });
});
