// A History entry's request is found in its file by the text written (requestNow.ts): a `***` the
// Redactor left stands for a hidden value. A body written with a run of asterisks (a masked placeholder,
// a rule line) is recorded with many `***` in a row; finding it again among the file's requests must stay
// quick whatever the other requests hold, as the panel asks it on every Send (the earlier responses): the
// text is read once, never by a pattern whose gaps side by side share its characters every way.
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

void test('a recorded body of 10 000 asterisks is found among twins that differ after the run, or in its length', () => {
  const stars = '*'.repeat(10_000);
  const recorded = `POST http://api.test/notes\n\n{"note": "${stars}"}\n`;
  // A twin whose run ends in another character, one whose run is too short for the masks, then the request.
  const file = parseHttpFile(`POST http://api.test/notes\n\n{"note": "${stars}${stars}"]\n\n###\n\nPOST http://api.test/notes\n\n{"note": "${'*'.repeat(3332)}"}\n\n###\n\n${recorded}`);
  const entry = { origin: { file: 'file:///notes.http', index: 2, twin: 0 }, source: recorded };
  assert.deepEqual(entriesOfRequest([entry], 'file:///notes.http', file, 2), [entry]);
  assert.deepEqual(entriesOfRequest([entry], 'file:///notes.http', file, 0), []);
  assert.deepEqual(entriesOfRequest([entry], 'file:///notes.http', file, 1), [], '3333 masks stand for 3333 characters at least');
});

void test('masks in a row stand for one value: never across a quote, nor in a request line across a blank or &', () => {
  const file = parseHttpFile('POST http://api.test/notes\n\n{"a": "x", "b": "y"}\n\n###\n\nGET http://api.test/q?x=1&y=2\n');
  const body = { origin: { file: 'file:///n.http', index: 0, twin: 0 }, source: 'POST http://api.test/notes\n\n{"a": "******"}\n' };
  assert.deepEqual(entriesOfRequest([body], 'file:///n.http', file, 0), []);
  const line = { origin: { file: 'file:///n.http', index: 1, twin: 0 }, source: 'GET http://api.test/q?x=******\n' };
  assert.deepEqual(entriesOfRequest([line], 'file:///n.http', file, 1), []);
  const three = parseHttpFile('POST http://api.test/n\n\n{"a": "1", "b": "2", "x": "", "c": "3"}\n\n###\n\nPOST http://api.test/n\n\n{"a": "1", "b": "2", "c": "3"}\n');
  const fields = { origin: { file: 'file:///n.http', index: 1, twin: 0 }, source: 'POST http://api.test/n\n\n{"a": "***", "b": "***", "c": "***"}\n' };
  assert.deepEqual(entriesOfRequest([fields], 'file:///n.http', three, 1), [fields], 'each mask its own value, the text between them in order');
  assert.deepEqual(entriesOfRequest([fields], 'file:///n.http', three, 0), [], 'a field more is another body');
});

void test('a request line with a long run of asterisks is matched against a differing twin', () => {
  // The unnamed request's line is matched the same way as its body (a search for `*` in a query).
  const stars = '*'.repeat(10_000);
  const recorded = `GET http://api.test/search?q=${stars}x\n`;
  const file = parseHttpFile(`GET http://api.test/search?q=${stars}${stars}y\n\n###\n\n${recorded}`);
  const entry = { origin: { file: 'file:///s.http', index: 1, twin: 0 }, source: recorded };
  assert.deepEqual(entriesOfRequest([entry], 'file:///s.http', file, 1), [entry]);
  assert.deepEqual(entriesOfRequest([entry], 'file:///s.http', file, 0), []);
});
