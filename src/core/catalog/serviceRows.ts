// The Services view's first level: what a service row shows (title, summary, auth, release), without its
// families and operations. The editor shows these rows before the catalog (zod schemas of every operation)
// is loaded, from CONTRACT_SERVICE_ROWS, which scripts/generate-service-rows.ts writes at build time from
// CONTRACT_SERVICES through serviceRow() (scripts/serviceRows.ts): one projection, never a hand-written
// copy (test/unit/serviceRows.test.ts fails when the generated file differs from what the catalog gives).
import type { Service } from './model';

export type ServiceRow = Pick<Service, 'id' | 'title' | 'summary' | 'auth' | 'release' | 'notShown'>;
