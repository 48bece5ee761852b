// What an OpenAPI import did, in one sentence the editor and the CLI both print: how many of the document's
// operations were added to the tree, how many enriched a contract operation of the same method and path
// (the tree marks those "enriched by import"), and how many left everything as it was (an operation that
// matches a deprecated contract operation keeps the contract's). Counts with their plurals.
import type { Service } from '../catalog/model';
import { formatCountOf } from '../results/format';
import type { OpenApiImport } from './importer';
import { mergeOverlays } from './overlay';

export interface ImportCounts {
  readonly operations: number;
  readonly added: readonly string[];
  readonly enriched: readonly string[];
  readonly unchanged: number;
}

/** The counts of one document merged into `services` (the contract's), alone. */
export function importCounts(imported: OpenApiImport, services: readonly Service[]): ImportCounts {
  const { report } = mergeOverlays(services, [imported]);
  const operations = imported.operations.length;
  return { operations, added: report.added, enriched: report.enriched, unchanged: Math.max(0, operations - report.added.length - report.enriched.length) };
}

/** "10 operations read from “Fundraising API” (OpenAPI 3.1.0): 0 added, 10 enriched (…), 0 unchanged." */
export function importSummary(imported: OpenApiImport, counts: ImportCounts): string {
  const from = imported.title ? `“${imported.title}”` : imported.source;
  return `${formatCountOf(counts.operations, 'operation')} read from ${from} (OpenAPI ${imported.openapi}): `
    + `${counts.added.length} added (marked "imported" in the Services tree), ${counts.enriched.length} enriched (contract operations of the same method and path, marked "enriched by import"), `
    + `${counts.unchanged} unchanged.`;
}
