// The Services view's first rows are shown before the catalog loads, from CONTRACT_SERVICE_ROWS, which the
// build generates from the catalog. These tests fail when the two could differ.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_SERVICES, createCatalog } from '../../src/core/catalog';
import { serviceRow, serviceRowsModuleText } from '../../scripts/serviceRows';
import { CONTRACT_SERVICE_ROWS } from '../../src/core/catalog/serviceRows.generated';
import { importOpenApiText, withOverlay } from '../../src/core/openapi';

const root = join(import.meta.dirname, '..', '..');

void describe('the Services view\'s precomputed first rows', () => {
  void it('are the file the generator writes from the catalog today (a stale file fails here)', () => {
    const onDisk = readFileSync(join(root, 'src', 'core', 'catalog', 'serviceRows.generated.ts'), 'utf8');
    assert.equal(onDisk, serviceRowsModuleText(CONTRACT_SERVICES));
  });

  void it('are the catalog\'s services, in order, with every field a service row shows', () => {
    assert.deepEqual(CONTRACT_SERVICE_ROWS, CONTRACT_SERVICES.map(serviceRow));
    assert.deepEqual(CONTRACT_SERVICE_ROWS.map((row) => row.id), createCatalog().services.map((s) => s.id));
    for (const [i, row] of CONTRACT_SERVICE_ROWS.entries()) {
      const service = CONTRACT_SERVICES[i]!;
      assert.deepEqual(
        { id: row.id, title: row.title, summary: row.summary, auth: row.auth, release: row.release },
        { id: service.id, title: service.title, summary: service.summary, auth: service.auth, release: service.release },
      );
    }
  });

  void it('stay the rows of the catalog with an imported OpenAPI overlay (imports change operations, not services)', () => {
    const imported = importOpenApiText(readFileSync(join(root, 'test', 'fixtures', 'openapi', 'campaigns-3.1.json'), 'utf8'), 'campaigns-3.1.json');
    const services = withOverlay(CONTRACT_SERVICES, imported);
    assert.notDeepEqual(services.flatMap((s) => s.families.flatMap((f) => f.operations)).length, CONTRACT_SERVICES.flatMap((s) => s.families.flatMap((f) => f.operations)).length);
    assert.deepEqual(services.map(serviceRow), [...CONTRACT_SERVICE_ROWS]);
  });

  void it('leave out families and operations (what only the catalog gives)', () => {
    for (const row of CONTRACT_SERVICE_ROWS) assert.deepEqual(Object.keys(row).sort(), ['auth', 'id', 'notShown', 'release', 'summary', 'title'].filter((k) => k !== 'release' || row.release));
  });
});
