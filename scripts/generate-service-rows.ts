// Writes src/core/catalog/serviceRows.generated.ts: the Services view's first rows, projected from the
// catalog (CONTRACT_SERVICES) by serviceRow(), so the view can show them before the catalog loads.
// `--check` writes nothing and fails when the file is not what the catalog gives.
import { readFileSync, writeFileSync } from 'node:fs';
import { CONTRACT_SERVICES } from '../src/core/catalog';
import { serviceRowsModuleText } from './serviceRows';

const file = 'src/core/catalog/serviceRows.generated.ts';
const text = serviceRowsModuleText(CONTRACT_SERVICES);
let current = '';
try {
  current = readFileSync(file, 'utf8');
} catch {
  // absent: written below
}
if (current !== text) {
  if (process.argv.includes('--check')) {
    console.error(`generate-service-rows: ${file} is not what the catalog gives; run node scripts/build.mjs`);
    process.exit(1);
  }
  writeFileSync(file, text);
  console.log(`generate-service-rows: wrote ${file}`);
}
