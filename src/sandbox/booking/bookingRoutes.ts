// GET /bookings?page= (path not published: inferred), page-headers style (seed 002): every answer
// carries X-Pagination-Page, -Per-Page, -Total-Pages and -Total-Results. Published: no page = page 1
// (rule 1); pages 2, 3 ... up to Total-Pages (rule 2). Sandbox choice booking-page-bounds (the bounds
// of page are not shown): a page past the last is an empty array with the headers; page below 1 → 400
// (switched off: answered as page 1). A page that is not an integer is a 400 either way (page is an
// integer, rule 1).
import { intBetween, pick, rowRandom } from '../shared/prng';
import type { Router } from '../shared/router';

const GUESTS = ['A. Archer', 'B. Bauer', 'C. Costa', 'D. Dubois', 'E. Evans', 'F. Fischer'];
const ROOMS = ['Single', 'Double', 'Twin', 'Suite'];
const DAY_MS = 86_400_000;

export interface BookingData { readonly seed: number; readonly total: number; readonly perPage: number }

function booking(seed: number, index: number): Record<string, unknown> {
  const r = rowRandom(seed, 'booking', index);
  const arrival = Date.UTC(2026, 0, 1) + index * DAY_MS / 4;
  const nights = intBetween(r, 1, 7);
  return {
    bookingId: `BK-${String(index + 1).padStart(6, '0')}`,
    guestName: pick(r, GUESTS),
    roomType: pick(r, ROOMS),
    arrivalDate: new Date(arrival).toISOString().slice(0, 10),
    nights,
    departureDate: new Date(arrival + nights * DAY_MS).toISOString().slice(0, 10),
    status: r() < 0.9 ? 'Confirmed' : 'Cancelled',
  };
}

/** Which bookings the next release changes (the rest are the same). */
export const nextReleaseChangesBooking = (index: number): boolean => index % 40 === 5;

function nextBooking(record: Record<string, unknown>, index: number): Record<string, unknown> {
  return nextReleaseChangesBooking(index) ? { ...record, status: record['status'] === 'Confirmed' ? 'Cancelled' : 'Confirmed' } : record;
}

export function addBookingRoutes(router: Router, data: BookingData): void {
  router.get('/bookings', async (ctx) => {
    const raw = ctx.query.get('page');
    let page = raw === null || raw === '' ? 1 : /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
    ctx.rule({ seed: '002', section: 'Endpoints' }, 'page selects the results page; the four X-Pagination headers');
    if (Number.isNaN(page)) {
      ctx.json(400, { error: 'page must be an integer' });
      return;
    }
    if (page < 1) {
      ctx.choice('booking-page-bounds');
      if (ctx.isOn('booking-page-bounds')) {
        ctx.json(400, { error: 'page must be an integer of at least 1' });
        return;
      }
      page = 1;
    }
    const totalPages = Math.ceil(data.total / data.perPage);
    const headers = {
      'x-pagination-page': page,
      'x-pagination-per-page': data.perPage,
      'x-pagination-total-pages': totalPages,
      'x-pagination-total-results': data.total,
    };
    if (await ctx.pageFault('page-headers', page)) return;
    if (page > totalPages) ctx.choice('booking-page-bounds');
    const items = [];
    // The next release (choice release-next, src/sandbox/README.md): a booking at index 5 mod 40 has the other status.
    const next = ctx.isOn('release-next');
    if (next) ctx.choice('release-next');
    for (let i = (page - 1) * data.perPage; i < Math.min(data.total, page * data.perPage); i++) items.push(next ? nextBooking(booking(data.seed, i), i) : booking(data.seed, i));
    ctx.json(200, items, headers);
  });
}
