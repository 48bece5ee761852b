// The booking service (seed 002): only its paged list is published; no authentication is shown.
import type { ChoiceSettings } from '../shared/choices';
import type { PageFaultRegistry } from '../shared/faults';
import { type RunningOrigin, startOrigin } from '../shared/origin';
import type { RateLimiter } from '../shared/rateLimit';
import { Router } from '../shared/router';
import { type BookingData, addBookingRoutes } from './bookingRoutes';

export async function startBooking(port: number, data: BookingData, pageFaults: PageFaultRegistry, choices: ChoiceSettings, limiter?: RateLimiter): Promise<RunningOrigin> {
  const router = new Router();
  addBookingRoutes(router, data);
  return startOrigin({
    name: 'booking',
    port,
    router,
    pageFaults,
    choices,
    // Seed 002 shows no paths, methods or error bodies: the 404 and its body are the sandbox's.
    notFound: (ctx) => ctx.errorJson(404, { error: `no endpoint ${ctx.method} ${ctx.path}` }),
    ...(limiter ? { rateLimit: { limiter, refuse: (ctx, detail, headers) => ctx.errorJson(429, { error: `Too Many Requests: ${detail}` }, headers) } } : {}),
  });
}
