// Adversarial review of 240e0e7 (a multipart body's `< ./file` line sends the file). withFileParts
// (src/core/run/bodyFileParts.ts) refuses a part whose decoded text holds U+FFFD, saying it is "not text in
// UTF-8": the sign it uses for bytes that did not decode. But U+FFFD is a character like any other, and a
// valid UTF-8 text may hold it (EF BF BD) — a CSV exported once through a wrong encoding carries them by
// the thousand. Such a file decodes without a single error, and the request naming it is not sent, with
// words that are false. The test decodes the file as the CLI's reader does (fatal: true shows it is valid
// UTF-8) and asks withFileParts for the body.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { withFileParts } from '../../src/core/run/bodyFileParts';
import { decodeBodyFile } from '../../src/core/text/bodyFile';

const BYTES = Buffer.from('name,city\nRen\uFFFDe,Z\uFFFDrich\n', 'utf8');
const BODY = '--B\nContent-Disposition: form-data; name="file"; filename="export.csv"\n\n< ./export.csv\n--B--\n';
const range = { start: { line: 3, character: 0 }, end: { line: 3, character: 14 } };

void describe('a multipart part holding U+FFFD in valid UTF-8', () => {
  void it('the file is valid UTF-8', () => {
    assert.doesNotThrow(() => new TextDecoder('utf-8', { fatal: true }).decode(BYTES));
  });

  void it('is sent as its text, not refused as "not text"', async () => {
    const result = await withFileParts({
      text: BODY,
      firstLine: 0,
      files: [{ path: './export.csv', substituteVariables: false, range, pathRange: range }],
      resolve: (text) => ({ text, unresolved: [] }),
      // Read as the one reader of included files reads a part (prepareRequest.ts includedText): as text only.
      part: (file) => Promise.resolve(decodeBodyFile(BYTES, file.encoding, true)),
    });
    assert.ok(!('problem' in result), `refused: ${'problem' in result ? result.problem : ''}`);
    assert.ok(result.text.includes('Ren\uFFFDe,Z\uFFFDrich'), result.text);
  });
});
