// apiwb: the command-line entry. Subcommands live in their own modules, loaded on use; this file only
// dispatches.
import { setFlagsFromString } from 'node:v8';
import { terminalSafe } from '../core/text/terminalText';
import { subcommands } from './subcommands';
import { VERSION } from './version';

export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v' || name === 'version') {
    process.stdout.write(`apiwb ${VERSION}\n`);
    return EXIT.ok;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = subcommands.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`apiwb: unknown command '${name}'\n\n${usage()}`);
    return EXIT.usage;
  }
  // undici parses HTTP/1.1 with llhttp, WebAssembly. V8 compiles it with its baseline compiler (Liftoff)
  // and then again, optimised, on background threads, which node waits for before the process may exit:
  // ~100 ms at the end of every `apiwb run`, however few its requests. Liftoff's code only (the CLI's one
  // WebAssembly module). Set before a subcommand bundle is compiled: V8's code cache is tied to the flags
  // (src/cli/codeCache.ts), and one set later would make every run's cached code rejected.
  setFlagsFromString('--liftoff-only');
  return (await command.load()).run(rest);
}

function usage(): string {
  const width = Math.max(...subcommands.map((c) => c.name.length));
  return [
    'Usage: apiwb <command> [options]    (apiwb --version: the version)',
    '',
    'Commands:',
    ...subcommands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run 'apiwb <command> --help' for a command's options.",
    '',
  ].join('\n');
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (error: unknown) => {
    process.stderr.write(`apiwb: ${terminalSafe(error instanceof Error ? error.message : String(error))}\n`);
    process.exitCode = EXIT.failure;
  },
);
