// The panel's sentences (live region and paging bar) and which cell values the detail view opens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageAnnouncement, pagingTail, responseAnnouncement } from '../../src/core/results/announcements';
import { expandable } from '../../src/core/results/cells';

void test('a response is announced as status, rows and paging, in that order', () => {
  assert.equal(responseAnnouncement({ status: 200, statusText: 'OK', rowCount: 100, paging: { canContinue: true } }), '200 OK, 100 rows, more pages');
  assert.equal(responseAnnouncement({ status: 200, statusText: 'OK', rowCount: 1, paging: { canContinue: false, endReason: 'last page reached' } }), '200 OK, 1 row, last page reached');
  assert.equal(responseAnnouncement({ status: 204, statusText: 'No Content' }), '204 No Content');
  assert.equal(responseAnnouncement({ status: 200, statusText: '', rowCount: 0, paging: { canContinue: false } }), '200, 0 rows');
});

void test('a failure in the body and an auth explanation are part of the sentence', () => {
  assert.equal(responseAnnouncement({ status: 200, statusText: 'OK', businessFailure: true }), '200 OK, business failure reported in the body');
  assert.equal(responseAnnouncement({ status: 401, statusText: 'Unauthorized', authProblem: 'Not signed in' }), '401 Unauthorized, Not signed in');
});

void test('a page appended says which page, what it added and the total', () => {
  assert.equal(pageAnnouncement(2, 50, 100, { canContinue: true }), 'Page 2: 50 rows added, 100 rows in all, more pages');
  assert.equal(pageAnnouncement(3, 0, 100, { canContinue: false }), 'Page 3: 0 rows added, 100 rows in all');
});

void test('the paging tail: an end reason wins over "more pages"; nothing when neither is known', () => {
  assert.equal(pagingTail({ canContinue: true, endReason: 'stopped; can resume' }), 'stopped; can resume');
  assert.equal(pagingTail({ canContinue: true }), 'more pages');
  assert.equal(pagingTail({ canContinue: false }), '');
});

void test('the detail view opens non-empty objects and arrays and strings longer than a cell', () => {
  assert.equal(expandable({ a: 1 }), true);
  assert.equal(expandable([1]), true);
  assert.equal(expandable({}), false);
  assert.equal(expandable([]), false);
  assert.equal(expandable('x'.repeat(201)), true);
  assert.equal(expandable('x'.repeat(200)), false);
  assert.equal(expandable(42), false);
  assert.equal(expandable(null), false);
  assert.equal(expandable(undefined), false);
});
