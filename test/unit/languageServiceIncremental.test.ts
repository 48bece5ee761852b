// Incremental validation: a new version re-parses only the blocks whose text changed, and what it
// reports is exactly what a fresh pass over the same text reports (moved blocks keep their findings at
// their new lines; undefined variables follow the rest of the file).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCatalog } from '../../src/core/catalog';
import { blockBounds, blockStartOffsets, parseHttpFile, splitLines } from '../../src/core/httpfile';
import { BlockFindingsCache, createHttpLanguageService, HttpDocument, OperationIndex } from '../../src/server/service';
import { fromParser, requestDiagnostics } from '../../src/server/service/diagnostics';
import { validateDocument } from '../../src/server/service/validation';
import { ENVIRONMENT } from './languageServiceFixture';

const service = createHttpLanguageService(createCatalog());
service.setEnvironmentVariables(ENVIRONMENT);

const TEXT = [
  '@pageSize = 100',
  '',
  '### Orders',
  'GET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?ctcID={{ctcID}}&pageNumber=0&pageSize={{pageSize}}',
  'Authorization: Bearer {{$auth.token("engagement")}}',
  '',
  '### A question',
  '# @name q1',
  'POST {{engagement_base_url}}/api/SurveyApi/AddLabelQuestion',
  'Content-Type: application/json',
  '',
  '{ "OpCode": "one", "PageID": 1 }',
  '',
  '### Uses q1 and an unknown variable',
  'GET {{booking_base_url}}/bookings?page={{q1.response.body.$.ID}}&x={{nowhere}}',
  'Bad header line without colon',
  '',
].join('\n');

/** Runs a pass and counts the blocks it validated (the others came from the cache). */
function validate(text: string, version: number, cache = new BlockFindingsCache()): { diagnostics: ReturnType<typeof service.doValidate>; parsed: number } {
  const document = new HttpDocument('file:///t.http', version, text);
  const before = cache.validated;
  const steps = service.validationSteps(document, cache);
  for (;;) {
    const step = steps.next();
    if (step.done) return { diagnostics: step.value, parsed: cache.validated - before };
  }
}

void describe('incremental validation', () => {
  void it('finds something in every block of the fixture (so the comparisons below mean something)', () => {
    const { diagnostics } = validate(TEXT, 1);
    const lines = new Set(diagnostics.map((d) => d.range.start.line));
    for (const line of [3, 11, 14]) assert.ok(lines.has(line), `a diagnostic on line ${line}: ${JSON.stringify(diagnostics.map((d) => [d.range.start.line, d.code]))}`);
  });

  void it('after an edit inside one block, re-parses that block only and reports what a fresh pass reports', () => {
    const cache = new BlockFindingsCache();
    assert.equal(validate(TEXT, 1, cache).parsed, 4);
    const edited = TEXT.replace('"OpCode": "one"', '"OpCode": 1');
    const again = validate(edited, 2, cache);
    assert.equal(again.parsed, 1, 'only the edited block');
    assert.deepEqual(again.diagnostics, validate(edited, 3).diagnostics);
  });

  void it('moves the findings of unchanged blocks when lines are added above them', () => {
    const cache = new BlockFindingsCache();
    validate(TEXT, 1, cache);
    const edited = TEXT.replace('### Orders', '# a comment\n# and another\n### Orders');
    const again = validate(edited, 2, cache);
    assert.equal(again.parsed, 1, 'only the first block changed; the others moved down two lines');
    assert.deepEqual(again.diagnostics, validate(edited, 3).diagnostics);
    assert.ok(again.diagnostics.some((d) => d.range.start.line === 16), 'the last block\'s findings moved with it');
  });

  void it('recomputes undefined variables from the rest of the file: naming a request or defining a variable elsewhere clears them', () => {
    const cache = new BlockFindingsCache();
    const before = validate(TEXT, 1, cache).diagnostics.filter((d) => d.code === 'undefined-variable').map((d) => d.message);
    assert.ok(before.some((m) => m.includes("'nowhere'")));
    const defined = validate(TEXT.replace('@pageSize = 100', '@pageSize = 100\n@nowhere = 1'), 2, cache);
    assert.equal(defined.parsed, 1, 'only the first block changed');
    assert.ok(!defined.diagnostics.some((d) => d.message.includes("'nowhere'")), 'a variable defined in another block counts');
    const unnamed = validate(TEXT.replace('# @name q1', '# @name q2'), 3, cache).diagnostics;
    assert.ok(unnamed.some((d) => d.message.includes("No request named 'q1'")));
  });

  void it('system variables ({{$...}}) are never undefined, in whatever environment a kept block is checked again', () => {
    const own = createHttpLanguageService(createCatalog());
    const text = 'GET {{base}}/x?t={{$timestamp}}&a={{ $auth.token("engagement") }}&b={{$nope}}\n';
    const cache = new BlockFindingsCache();
    const undefinedNames = (environment: readonly string[]): string[] => {
      own.setEnvironmentVariables(environment);
      const steps = own.validationSteps(new HttpDocument('file:///s.http', 1, text), cache);
      for (;;) {
        const step = steps.next();
        if (step.done) return step.value.filter((d) => d.code === 'undefined-variable').map((d) => d.message);
      }
    };
    assert.deepEqual(undefinedNames([]), ["The variable 'base' is not defined in the active environment or the file."]);
    assert.deepEqual(undefinedNames(['base']), [], 'the block kept from the pass before, checked in another environment');
    assert.equal(cache.validated, 1);
  });

  void it('a pass driven slice by slice ends with what one pass at once reports', () => {
    const big = Array.from({ length: 400 }, () => TEXT.split('\n').slice(2).join('\n')).join('\n');
    const document = new HttpDocument('file:///big.http', 1, big);
    const steps = service.validationSteps(document);
    let result;
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) {
        result = step.value;
        break;
      }
    }
    assert.deepEqual(result, service.doValidate(new HttpDocument('file:///big.http', 2, big)));
    assert.ok(result.length >= 400 * 3);
  });

  // The fuzz suite checks the same on random documents; these are the line-break and separator cases.
  void it('cuts blocks where the parser does and reports what the whole-file parse reports, whatever the line breaks', () => {
    const context = { operations: new OperationIndex(createCatalog()) };
    const request = 'POST {{engagement_base_url}}/api/SurveyApi/AddLabelQuestion\nContent-Type: application/json\n\n{ "OpCode": "x", "Nope": 1 }\n';
    const texts = [
      '', '###', '###\n', '\n###', '####\n#####', TEXT, TEXT.replaceAll('\n', '\r\n'), TEXT.replaceAll('\n', '\r'),
      `${request}###\r${request}\r###\r\n${request}`, `### a\n${request}\n  ### not a separator\n{ "x": "###" }\n###`,
      `${request.replace('{ "OpCode"', '{\n###\n"OpCode"')}`, `x###\n###x\r\r###\n\n\n`, `${TEXT}\n`, TEXT.slice(0, -1),
    ];
    for (const text of texts) {
      const lines = splitLines(text);
      assert.deepEqual(blockStartOffsets(text), blockBounds(lines).map(([first]) => lines[first]?.offset), JSON.stringify(text));
      const file = parseHttpFile(text);
      const document = new HttpDocument('file:///t.http', 1, text);
      const expected = [...file.diagnostics.map(fromParser), ...file.requests.flatMap((r) => requestDiagnostics(document, r, context))];
      assert.deepEqual(validateDocument(new HttpDocument('file:///t.http', 1, text), context), expected, JSON.stringify(text));
    }
  });
});
