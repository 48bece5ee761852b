// Incremental validation: a new version re-parses only the blocks whose text changed, and what it
// reports is exactly what a fresh pass over the same text reports (moved blocks keep their findings at
// their new lines; undefined variables follow the rest of the file).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCatalog } from '../../src/core/catalog';
import { blockStartOffsets, parseHttpFile, splitLines } from '../../src/core/httpfile';
import { blockBounds } from '../../src/core/httpfile/parser';
import { BlockFindingsCache, createHttpLanguageService, HttpDocument } from '../../src/server/service';
import { OperationIndex } from '../../src/server/service/operations';
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

  void it('finds blocks that moved (not where they were in the pass before) by their text, and reports what a fresh pass reports', () => {
    const cache = new BlockFindingsCache();
    const blocks = TEXT.split(/(?=^###)/m);
    assert.equal(validate(TEXT, 1, cache).parsed, blocks.length);
    // The two middle blocks swapped: neither is at its index, nor as far from the end, as before.
    const swapped = [blocks[0], blocks[2], blocks[1], ...blocks.slice(3)].join('');
    const again = validate(swapped, 2, cache);
    assert.ok(again.parsed <= 1, `at most the first block away from its place is validated again (${again.parsed})`);
    assert.deepEqual(again.diagnostics, validate(swapped, 3).diagnostics);
  });

  void it('a block that was the last one is validated again when a block comes after it (the last block holds one more line)', () => {
    const cache = new BlockFindingsCache();
    validate(TEXT, 1, cache);
    const appended = `${TEXT}### Added\nGET {{booking_base_url}}/bookings?page=1\n`;
    const again = validate(appended, 2, cache);
    assert.equal(again.parsed, 2, 'the old last block and the new one');
    assert.deepEqual(again.diagnostics, validate(appended, 3).diagnostics);
    // And back: the block that is last again is not taken from where it was an inner block.
    const back = validate(TEXT, 4, cache);
    assert.equal(back.parsed, 1);
    assert.deepEqual(back.diagnostics, validate(TEXT, 5).diagnostics);
  });

  void it('keeps what a pass left unfinished (a newer version came first) for the next pass', () => {
    const big = Array.from({ length: 300 }, (_, i) => `### Block ${i}\nPOST {{engagement_base_url}}/api/SurveyApi/AddLabelQuestion\nContent-Type: application/json\n\n{ "OpCode": ${i}, "PageID": "p${i}" }\n`).join('');
    const cache = new BlockFindingsCache();
    const steps = service.validationSteps(new HttpDocument('file:///big.http', 1, big), cache);
    steps.next(); // one slice (or the whole pass, on a fast machine), then the pass is dropped
    const done = cache.validated;
    assert.ok(done > 0);
    const edited = big.replace('"OpCode": 299', '"OpCode": "x"');
    const again = validate(edited, 2, cache);
    assert.ok(again.parsed <= 300 - done + 1, `only the blocks the dropped pass did not reach, and the edited one (${again.parsed}, ${done} done before)`);
    assert.deepEqual(again.diagnostics, validate(edited, 3).diagnostics);
  });

  void it('after any sequence of edits, some passes really left unfinished, reports what a fresh pass reports', () => {
    // The clock moves 3 ms a read, so a pass yields every few blocks and a dropped pass is unfinished.
    const realNow = performance.now.bind(performance);
    let clock = 0;
    (performance as { now: () => number }).now = () => (clock += 3);
    try {
      let seed = 99;
      // The high bits of the generator: its low bits repeat within a few draws.
      const random = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return Math.floor(seed / 65536) % n; };
      const pieces = [
        '### Orders\nGET {{engagement_base_url}}/api/Transaction/GetOrdersByCustomer?ctcID={{ctcID}}&pageNumber=0\n',
        '### Q\n# @name q1\nPOST {{engagement_base_url}}/api/SurveyApi/AddLabelQuestion\nContent-Type: application/json\n\n{ "OpCode": "one" }\n',
        '### Q\n# @name q1\nPOST {{engagement_base_url}}/api/SurveyApi/AddLabelQuestion\nContent-Type: application/json\n\n{ "OpCode": "one" }',
        '### Uses q1\nGET {{booking_base_url}}/bookings?page={{q1.response.body.$.ID}}&x={{nowhere}}\nBad header\n',
        '### Multi\nPOST {{booking_base_url}}/bookings\nX-A: {{ a1 }}\n\n{\n  "x": "{{b2}}",\n  "y": {{c3}}\n}\n',
        '### Multi\r\nPOST {{booking_base_url}}/bookings\r\nX-A: {{ a1 }}\r\n\r\n{\r\n  "x": "{{b2}}"\r\n}\r\n',
        '### CR\rPOST {{booking_base_url}}/bookings\rX-A: {{ a1 }}\r\r{ "z": "{{cr}}" }\r',
        // Unterminated: its range reaches the file's last line when it is the last block, not otherwise.
        '### P\n< {%\nfoo\n', '### P\n< {%\nfoo\n\n',
        '@nowhere = 1\n', '@a1 = 2\n', '### Empty\n', '###\r\nGET /x\r\n', 'GET {{booking_base_url}}/bookings?page=0\n\n', '###\n', '### T\nGET {{open\n', '/* c\n',
        '### B\nPOST /x\n\n{ "a": 1 }\n\n\n',
      ];
      const fresh = (text: string, version: number): ReturnType<typeof service.doValidate> => {
        const steps = service.validationSteps(new HttpDocument('file:///f.http', version, text), new BlockFindingsCache());
        for (;;) {
          const step = steps.next();
          if (step.done) return step.value;
        }
      };
      let unfinished = 0;
      let compared = 0;
      let undefinedChecked = 0;
      for (let trial = 0; trial < 40; trial++) {
        let blocks = Array.from({ length: 5 + random(30) }, () => pieces[random(pieces.length)]!);
        const cache = new BlockFindingsCache();
        for (let version = 1; version <= 40; version++) {
          const edit = random(7);
          if (edit === 0) blocks.splice(random(blocks.length + 1), 0, pieces[random(pieces.length)]!);
          else if (edit === 1 && blocks.length > 1) blocks.splice(random(blocks.length), 1);
          else if (edit === 2) { const [moved] = blocks.splice(random(blocks.length), 1); blocks.splice(random(blocks.length + 1), 0, moved!); }
          else if (edit === 3) { const k = random(blocks.length); blocks[k] = blocks[k]!.replace(/\d|one|q1/, String(random(9))); }
          else if (edit === 4 && blocks.length > 1) { const i = random(blocks.length); const j = random(blocks.length); [blocks[i], blocks[j]] = [blocks[j]!, blocks[i]!]; }
          else if (edit === 5) blocks = [...blocks, blocks[random(blocks.length)]!];
          else blocks = [...blocks].reverse();
          const text = blocks.join('').slice(0, random(4) === 0 ? -1 : undefined);
          const steps = service.validationSteps(new HttpDocument('file:///f.http', version, text), cache);
          // Half the passes are dropped after one to three slices (a newer version came).
          const drop = random(2) === 0 ? 1 + random(3) : Number.POSITIVE_INFINITY;
          let step = steps.next();
          for (let slices = 1; !step.done && slices < drop; slices++) step = steps.next();
          if (!step.done) {
            unfinished++;
            continue;
          }
          compared++;
          assert.deepEqual(step.value, fresh(text, version), JSON.stringify(text));
          const references = parseHttpFile(text).requests.flatMap((r) => r.references);
          for (const d of step.value.filter((x) => x.code === 'undefined-variable')) {
            undefinedChecked++;
            assert.ok(references.some((r) => JSON.stringify(r.nameRange) === JSON.stringify(d.range)), `at a name: ${JSON.stringify([d.range, text])}`);
          }
        }
      }
      assert.ok(unfinished > 100 && compared > 100 && undefinedChecked > 1000, `the test exercised what it claims: ${JSON.stringify({ unfinished, compared, undefinedChecked })}`);
    } finally {
      (performance as { now: () => number }).now = realNow;
    }
  });

  void it('reports an undefined variable at its name, on whichever line of its block it is, after the block moved', () => {
    const block = '### Refs\nGET {{booking_base_url}}/x?a={{ one }}&b={{$timestamp}}\nX-Two: {{two}}\n\n{ "three": "{{three}}", "four": {{four.response.body.$.id}} }\n';
    const cache = new BlockFindingsCache();
    const names = (text: string, version: number): Array<[string | number | undefined, number, number, number, number]> => {
      const file = parseHttpFile(text);
      const references = file.requests.flatMap((r) => r.references).filter((r) => ['one', 'two', 'three', 'four.response.body.$.id'].includes(r.name));
      assert.equal(references.length, 4);
      const reported = validate(text, version, cache).diagnostics.filter((d) => d.code === 'undefined-variable');
      assert.deepEqual(reported.map((d) => d.range), references.map((r) => r.nameRange), 'each at its name');
      return reported.map((d) => [d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character]);
    };
    names(block, 1);
    names(`@x = 1\n\n### Above\nGET {{booking_base_url}}/y\n\n${block}`, 2);
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
