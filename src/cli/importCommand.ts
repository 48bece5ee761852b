// `apiwb import-openapi <url|file>`: imports an OpenAPI 3.0/3.1 JSON document, prints what it adds to
// and enriches in the catalog, and with --out writes the overlay file the extension can load.
// Exit codes: 0 imported; 2 usage error or a document that cannot be imported (the message names it).
import { constants } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { CONTRACT_SERVICES } from '../core/catalog';
import type { ServiceId } from '../core/catalog/model';
import { fileFaultWords } from '../core/files/outputs';
import { commandFiles } from './keptPlaces';
import { closeHttpAgents } from '../core/http/client';
import { importCounts, importOpenApiText, importOpenApiUrl, importSummary, OpenApiImportError, overlayFileText, type OpenApiImport } from '../core/openapi';
import { Redactor } from '../core/secrets/redact';
import { terminalSafe } from '../core/text/terminalText';
import type { Subcommand } from './subcommands';
import { faultText } from '../core/text/faultText';

const HELP = `Usage: apiwb import-openapi <url|file> [options]

Imports an OpenAPI 3.0 or 3.1 document (JSON), e.g. the fundraising service's /openapi/v1.json, and
reports the operations it adds to the catalog and the contract operations it enriches.

Options:
  --service NAME   the service the document describes: fundraising (default), engagement or booking
  --out FILE       write the overlay (operations with their JSON Schemas) to FILE
  --help           this text

Exit codes: 0 imported, 2 usage error or a document that cannot be imported.
`;

export interface CommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const PROCESS_IO: CommandIo = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) };
const SERVICES: readonly ServiceId[] = ['fundraising', 'engagement', 'booking'];

export const importOpenApiSubcommand: Subcommand = {
  run: (args) => runImportOpenApi(args, PROCESS_IO),
};

export async function runImportOpenApi(args: readonly string[], io: CommandIo): Promise<number> {
  // Everything printed goes through the Redactor: a fault quotes the URL given, its password and a
  // secret-named query parameter (`?api_key=`) included.
  const redactor = new Redactor();
  const shown = (text: string): string => terminalSafe(redactor.text(text));
  let location: string;
  let service: ServiceId;
  let out: string | undefined;
  try {
    const parsed = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: true,
      options: { service: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    if (parsed.values.help) {
      io.stdout(HELP);
      return 0;
    }
    if (parsed.positionals.length !== 1) throw new Error('give exactly one URL or file');
    location = parsed.positionals[0] ?? '';
    const name = parsed.values.service ?? 'fundraising';
    if (!SERVICES.includes(name as ServiceId)) throw new Error(`--service must be one of ${SERVICES.join(', ')} (got '${name}')`);
    service = name as ServiceId;
    out = parsed.values.out;
  } catch (error) {
    io.stderr(`apiwb import-openapi: ${shown(faultText(error))}\n\n${HELP}`);
    return 2;
  }
  // The overlay is an output as --out of a run is (src/core/files/outputs.ts): never the document read,
  // a link or a folder; claimed before the document is fetched.
  try {
    if (out) {
      const files = commandFiles();
      if (!/^https?:\/\//i.test(location)) files.input(location, 'the document imported');
      files.claim(out, '--out');
    }
  } catch (error) {
    io.stderr(`apiwb import-openapi: ${shown(faultText(error))}\n`);
    return 2;
  }
  let imported: OpenApiImport;
  try {
    imported = /^https?:\/\//i.test(location)
      ? await importOpenApiUrl(location, { service })
      : importOpenApiText(await readText(location), location, { service });
  } catch (error) {
    io.stderr(`apiwb import-openapi: ${shown(faultText(error))}\n`);
    return 2;
  } finally {
    await closeHttpAgents();
  }
  const counts = importCounts(imported, CONTRACT_SERVICES);
  // The document's title, operation ids and warnings are the server's text: printed terminal-safe.
  io.stdout(`${shown(importSummary(imported, counts))}\n`);
  for (const id of counts.added) io.stdout(`  + ${shown(id)}\n`);
  for (const warning of imported.warnings) io.stderr(`warning: ${shown(warning)}\n`);
  if (out) {
    try {
      // Never through a link put there since the claim.
      await writeFile(out, overlayFileText(imported), { flag: constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0) });
    } catch (error) {
      io.stderr(`apiwb import-openapi: ${shown(fileFaultWords(error, out))}\n`);
      return 2;
    }
    io.stdout(`Overlay written to ${shown(out)}\n`);
  }
  return 0;
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new OpenApiImportError(path, code === 'ENOENT' ? 'no such file.' : `cannot be read (${code ?? String(error)}).`);
  }
}
