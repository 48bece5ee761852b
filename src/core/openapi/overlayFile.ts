// The overlay as a file: an OpenApiImport is plain JSON (imported operations carry JSON Schema, never
// zod), so `apiwb import-openapi --out` and the extension's workspace storage write it as it is and
// read it back here, checked, for a refresh-free restart.
import type { Operation } from '../catalog/model';
import type { OpenApiImport } from './importer';
import { OpenApiImportError } from './errors';

export const OVERLAY_FILE_VERSION = 1;

export function overlayFileText(imported: OpenApiImport): string {
  return `${JSON.stringify({ apiWorkbenchOverlay: OVERLAY_FILE_VERSION, ...imported }, null, 2)}\n`;
}

const SERVICES = new Set(['engagement', 'fundraising', 'booking']);

/** Reads an overlay file written by overlayFileText; throws OpenApiImportError naming `path`. */
export function readOverlayFile(text: string, path: string): OpenApiImport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new OpenApiImportError(path, 'not an API Workbench overlay file (not JSON).');
  }
  const record = value as Record<string, unknown> | null;
  if (!record || typeof record !== 'object' || record['apiWorkbenchOverlay'] !== OVERLAY_FILE_VERSION) {
    throw new OpenApiImportError(path, `not an API Workbench overlay file (version ${OVERLAY_FILE_VERSION} expected).`);
  }
  const operations = record['operations'];
  const valid = typeof record['source'] === 'string' && SERVICES.has(String(record['service'])) && Array.isArray(operations)
    && operations.every((op: unknown) => {
      const o = op as Record<string, unknown> | null;
      return !!o && typeof o['id'] === 'string' && typeof o['method'] === 'string' && typeof o['path'] === 'string' && o['origin'] === 'import';
    });
  if (!valid) throw new OpenApiImportError(path, 'the overlay file is damaged (source, service or operations missing); import the document again.');
  const { apiWorkbenchOverlay: _version, ...imported } = record;
  const restored = imported as unknown as OpenApiImport;
  return { ...restored, warnings: Array.isArray(restored.warnings) ? restored.warnings : [], operations: operations as Operation[] };
}
