// The CLI's version: stamped into the bundle at build time (scripts/build.mjs, scripts/pack-cli.mjs);
// run from source it reads the product's package.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

declare const __APIWB_VERSION__: string | undefined;

function fromSource(): string {
  try {
    return (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export const VERSION: string = typeof __APIWB_VERSION__ === 'string' ? __APIWB_VERSION__ : fromSource();
