// Invariants (c) and (f): no block of a .http file is dropped without a word, and bad input loses
// nothing. A Postman raw body whose lines a .http file reads as something else than a body is imported as
// it is, with no warning: the written file then reads those lines as an assertion (`?? …`), an httpYac
// script block (`{{` … `}}`) or a recorded response (`HTTP/1.1 200 OK`), and the request sends an empty or
// cut body. The printer asks the parser's own list of lines that end a body (bodyEndingLine in
// src/core/httpfile/request.ts), so each such body is refused in words and any other line stays body.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHttpFile } from '../../src/core/httpfile/parser';
import { importPostmanCollection } from '../../src/core/interop/postman/importCollection';

const BODIES: Record<string, string> = {
  assertion: 'note: the service answers\n?? status == 200 means done\nend of note',
  script: 'template:\n{{\nname\n}}\nend',
  recorded: 'HTTP/1.1 200 OK\nthis text is what the service expects',
  recordedLater: 'first part\n\nHTTP/2 404 Not Found\nsecond part',
};

/** Lines that only look like structure: the parser reads them as body, so they are imported as written. */
const PLAIN_BODIES: Record<string, string> = {
  quoted: 'On Monday you wrote:\n> a quoted line\n>not a handler either',
  statusInText: 'the reply was\nHTTP/1.1 200 OK\nright after a body line',
};

void describe('a Postman raw body the .http grammar reads as structure', () => {
  const collection = {
    info: { name: 'c', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    item: Object.entries({ ...BODIES, ...PLAIN_BODIES }).map(([name, raw]) => ({ name, request: { method: 'POST', url: 'https://api.example.com/a', header: [{ key: 'Content-Type', value: 'text/plain' }], body: { mode: 'raw', raw } } })),
  };
  const imported = importPostmanCollection(JSON.stringify(collection), 'c.json');
  const file = parseHttpFile(imported.files[0]!.text);

  for (const [name, raw] of Object.entries(BODIES)) {
    void it(`${name}: sent as written, or said not imported`, () => {
      const request = file.requests.find((r) => r.name === name);
      assert.ok(request, `no request ${name}`);
      const sent = request.body?.kind === 'inline' ? request.body.text : '';
      const said = imported.warnings.some((w) => w.startsWith(`${name}:`));
      assert.ok(sent.trimEnd() === raw || said, `the body sent is ${JSON.stringify(sent)}, the Postman body ${JSON.stringify(raw)}, and no warning says so`);
    });
  }

  for (const [name, raw] of Object.entries(PLAIN_BODIES)) {
    void it(`${name}: body lines that end no body are sent as written, with no warning`, () => {
      const request = file.requests.find((r) => r.name === name);
      assert.equal(request?.body?.kind === 'inline' ? request.body.text : '', raw);
      assert.ok(!imported.warnings.some((w) => w.startsWith(`${name}:`)), JSON.stringify(imported.warnings));
    });
  }
});
