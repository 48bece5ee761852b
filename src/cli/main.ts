// apiwb: the command-line entry. Subcommands live in their own modules, loaded on use; this file only
// dispatches.
import { setFlagsFromString } from 'node:v8';
import { terminalSafe } from '../core/text/terminalText';
import { subcommands } from './subcommands';
import { REQUEST_SENDER_BUILTINS, REQUEST_SENDER_FLAGS } from './v8Flags';
import { VERSION } from './version';
import { faultText } from '../core/text/faultText';

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
    process.stderr.write(`apiwb: unknown command '${terminalSafe(name)}'\n\n${usage()}`);
    return EXIT.usage;
  }
  // undici parses HTTP/1.1 with llhttp, WebAssembly. V8 runs it on baseline code (Liftoff) and soon
  // compiles it again, optimised, on background threads, which node waits for before the process may
  // exit: ~100 ms at the end of every `apiwb run` of a few requests. With the largest budget V8 takes
  // (~1 200 times its default; see v8Flags.ts), a run of up to a couple of hundred requests ends on
  // baseline code and a long one (a thousand requests) is still optimised. Set before a subcommand
  // bundle is compiled: V8's code cache is tied to the flags (src/core/files/codeCache.ts), and one set
  // later would make every run's cached code rejected. Only for the subcommands that send requests: a
  // flag set voids node's cached code of the built-in modules loaded after it (so they are loaded
  // before, below).
  // With them, an interrupt budget ~7 times V8's default: each request of a run executes a little of a
  // lot of code (prepare, send, read, judge, report), and with the default V8 optimised much of it with
  // TurboFan, on background threads that took ~40 % of a 1 000-request run's CPU (2 cores shared with
  // the servers); now only what stays hot is optimised, a little later (CPU of that run ~1.25 → ~0.9 s).
  // Set in the same place, for the same reason (the code cache's flag hash): set after the bundle's
  // compile, or only on some runs, it made the cached code rejected and rewritten on the next run.
  // The built-in modules such a subcommand loads are loaded first, while node's cached code of them is
  // still valid (~15 ms of start-up; test/cli/codeCache.test.ts checks that none is loaded after).
  if (command.sendsRequests) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- by name, before the flags (above)
    for (const id of REQUEST_SENDER_BUILTINS) require(id);
    setFlagsFromString(REQUEST_SENDER_FLAGS);
  }
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
    process.stderr.write(`apiwb: ${terminalSafe(faultText(error))}\n`);
    process.exitCode = EXIT.failure;
  },
);
