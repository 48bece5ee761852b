// A History entry's request is found in its file by the text written (requestNow.ts): a `***` the
// Redactor left stands for a hidden value. A body written with a run of asterisks (a masked placeholder,
// a rule line) is recorded with many `***` in a row; finding it again among the file's requests must stay
// quick whatever the other requests hold, as the panel asks it on every Send (the earlier responses).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseHttpFile } from '../../src/core/httpfile';
import { entriesOfRequest } from '../../src/core/history/requestNow';

void test('a recorded body of asterisks is matched against a differing twin in linear time', () => {
  const recorded = `POST http://api.test/notes\n\n{"note": "${'*'.repeat(27)}"}\n`;
  // The file now: the request sent, then another unnamed POST to the same URL with another body.
  const file = parseHttpFile(`${recorded}\n###\n\nPOST http://api.test/notes\n\n{"note": "${'*'.repeat(54)}"]\n`);
  const entry = { origin: { file: 'file:///notes.http', index: 0, twin: 0 }, source: recorded };
  const started = performance.now();
  const found = entriesOfRequest([entry], 'file:///notes.http', file, 0);
  const took = performance.now() - started;
  assert.deepEqual(found, [entry], 'the entry is the first request\'s');
  assert.ok(took < 1000, `finding one entry took ${Math.round(took)} ms (the match backtracks over every way to cut the stars)`);
});
