// Contract tests of the booking service's paging headers (seed 002).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type RunningSandbox, startSandbox } from '../../src/sandbox';
import type { SandboxDescriptor } from '../../src/sandbox/descriptor';

let sandbox: RunningSandbox;
let d: SandboxDescriptor;

before(async () => {
  sandbox = await startSandbox({ bookings: 61, bookingsPerPage: 20 });
  d = sandbox.descriptor;
});
after(() => sandbox.close());

const HEADERS = ['x-pagination-page', 'x-pagination-per-page', 'x-pagination-total-pages', 'x-pagination-total-results'];
const headersOf = (response: Response): number[] => HEADERS.map((h) => Number(response.headers.get(h)));

void describe('booking list (seed 002)', () => {
  void it('002 rule 1: the first response, without page, reports page 1 with the four X-Pagination-* headers (rule 002-first-page)', async () => {
    const response = await fetch(`${d.booking.baseUrl}/bookings`);
    assert.equal(response.status, 200);
    assert.deepEqual(headersOf(response), [1, 20, 4, 61]);
    assert.equal(((await response.json()) as unknown[]).length, 20);
  });

  void it('002 rule 2 / page-headers walk: page 2, 3, ... up to X-Pagination-Total-Pages gives every booking once (rule 002-walk)', async () => {
    const seen = new Set<string>();
    let totalPages = 1;
    for (let page = 1; page <= totalPages; page++) {
      const response = await fetch(`${d.booking.baseUrl}/bookings?page=${page}`);
      totalPages = Number(response.headers.get('x-pagination-total-pages'));
      for (const b of (await response.json()) as { bookingId: string }[]) seen.add(b.bookingId);
    }
    assert.equal(seen.size, d.samples.bookings);
  });

  void it('a page beyond the last is an empty array, still with the headers', async () => {
    const response = await fetch(`${d.booking.baseUrl}/bookings?page=9`);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), []);
    assert.deepEqual(headersOf(response), [9, 20, 4, 61]);
  });

  void it('page below 1 is 400 under the labelled booking-page-bounds choice; switched off it is page 1 (rule 002-page-bounds)', async () => {
    const refused = await fetch(`${d.booking.baseUrl}/bookings?page=0`);
    assert.equal(refused.status, 400);
    assert.equal(refused.headers.get('x-sandbox-choice'), 'booking-page-bounds');
    const first = await fetch(`${d.booking.baseUrl}/bookings?page=-3`, { headers: { 'x-sandbox-choice': 'booking-page-bounds=off' } });
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-pagination-page'), '1');
    assert.equal(first.headers.get('x-sandbox-choice'), 'booking-page-bounds');
    assert.equal((await fetch(`${d.booking.baseUrl}/bookings?page=two`)).status, 400, 'page is an integer');
  });
});
