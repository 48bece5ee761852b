// Where the language server's contract citations open. The client may say (initializationOptions
// `contractReference`: `command`, a VS Code command that opens a section, and `directory`, the file URI
// of the shipped reference); otherwise the server finds docs/contracts/ beside its own bundle. Hovers
// link with the command when given, else with file URIs at the heading's line; diagnostics get a code
// description (a file URI at the line) only when the client supports it.
import { closeSync, existsSync, openSync, readSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { InitializeParams } from 'vscode-languageserver';
import { commandLinker, fileLinker, CONTRACT_DOCUMENTS, CONTRACT_REFERENCE_DIR, type CitationLinker } from '../core/reference';
import type { CitationLinks } from './service';

/** The reference folder at or above `start` (dist/ → the package; src/server/ → the repository). */
export function locateContractReference(start: string): string | undefined {
  let from = start;
  try { from = realpathSync(start); } catch { /* a folder that is not there finds nothing below */ }
  for (let dir = from, i = 0; i < 6; i++, dir = dirname(dir)) {
    const candidate = join(dir, CONTRACT_REFERENCE_DIR);
    if (existsSync(join(candidate, CONTRACT_DOCUMENTS['000'].file))) return candidate;
    if (dirname(dir) === dir) break;
  }
  return undefined;
}

const MAX_REFERENCE_BYTES = 512 * 1024;

function readReference(directory: string): (file: string) => string | undefined {
  return (file) => {
    try {
      const fd = openSync(join(directory, file), 'r');
      try {
        const buffer = Buffer.alloc(MAX_REFERENCE_BYTES);
        const length = readSync(fd, buffer, 0, buffer.length, 0);
        return buffer.subarray(0, length).toString('utf8');
      } finally {
        closeSync(fd);
      }
    } catch {
      return undefined;
    }
  };
}

/** The links for this client; `located` is the folder found beside the server (undefined: none). */
export function citationLinksFor(params: Pick<InitializeParams, 'initializationOptions' | 'capabilities'>, located: string | undefined): CitationLinks {
  const given = (params.initializationOptions as { contractReference?: unknown } | null | undefined)?.contractReference;
  const options = typeof given === 'object' && given !== null ? given as Record<string, unknown> : {};
  const command = typeof options.command === 'string' && /^[\w.-]{1,100}$/.test(options.command) ? options.command : undefined;
  let directory = located;
  if (typeof options.directory === 'string' && options.directory.startsWith('file:')) {
    try { directory = fileURLToPath(options.directory); } catch { /* keep the located one */ }
  }
  const files: CitationLinker | undefined = directory ? fileLinker(pathToFileURL(directory).href, readReference(directory)) : undefined;
  const codeDescription = params.capabilities.textDocument?.publishDiagnostics?.codeDescriptionSupport === true;
  return {
    markdown: command ? commandLinker(command) : files,
    ...(codeDescription && files ? { diagnostics: files } : {}),
  };
}
