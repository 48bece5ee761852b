// The V8 flags of the subcommands that send requests (src/cli/main.ts sets them before their bundle is
// compiled; why each, there). Their own module: bench/lib/rawClient.mjs must set the same ones, and a
// test reads them here without running the CLI.

/**
 * V8's budget before it optimises a WebAssembly function (its default: 1 800 000; the largest it takes:
 * 2^31 - 1). It is spent by code size at every turn of a loop, so llhttp's parse loop spent 50 000 000 in
 * about six responses' headers: a run of five requests then compiled it (~70 ms of CPU, waited for at
 * exit). At the largest, it is optimised after about 250 responses.
 */
const WASM_TIERING_BUDGET = 2_147_483_647;

/** V8's budget of bytecode run between two looks at whether a JS function is hot (its default: 67 584). */
const INTERRUPT_BUDGET = 500_000;

/**
 * How much bytecode V8 inlines into one optimised function, in all (its default: 920). The row splitter's
 * scanner is one small handler per grammar state (src/core/export/jsonScanner.ts); with the default most
 * handlers stay calls, about 17 a row, and a 100 MB body scanned 25-40 % slower than the one 128-branch
 * function they replaced. At 4 000 the handlers are inlined into the loop again (bench/scannerRate.ts,
 * bundled: 1.89-2.06 ns/byte against 1.87-1.93 for the old function, 2.49-2.73 without the flag).
 */
const INLINED_BYTECODE_BUDGET = 4_000;

/**
 * How far V8 lets the old space grow past what the last full collection kept, in percent (its default
 * factor for a small heap with little collection time is up to 4x, i.e. 300). A streamed body's heap
 * stays small (~20 MB kept) while its short-lived objects (a lane per small array) are promoted at about
 * 60 MB/s: at 4x the old space reached 100-117 MB of garbage before each full collection, and one object
 * of 2.7 million small arrays peaked at 215-228 MiB RSS (issue 37: under 200). At 1.5x it is collected at
 * about 30-40 MB, each full collection of ~20 MB live costing a few ms, mostly concurrent marking.
 */
const HEAP_GROWING_PERCENT = 50;

export const REQUEST_SENDER_FLAGS = `--wasm-tiering-budget=${WASM_TIERING_BUDGET} --interrupt-budget=${INTERRUPT_BUDGET} --max-inlined-bytecode-size-cumulative=${INLINED_BYTECODE_BUDGET} --heap-growing-percent=${HEAP_GROWING_PERCENT}`;

/**
 * The built-in modules `apiwb run` and `apiwb import-openapi` load (undici's and the code cache's among
 * them), required by main.ts before it sets the flags: a flag set makes node's cached code of every
 * built-in module loaded after it unusable, and these then compiled from source (~15 ms of start-up).
 * test/cli/codeCache.test.ts fails when a run loads one that is not listed here.
 */
export const REQUEST_SENDER_BUILTINS: readonly string[] = [
  'node:assert', 'node:child_process', 'node:crypto', 'node:dgram', 'node:diagnostics_channel', 'node:fs/promises', 'node:http', 'node:http2', 'node:module',
  'node:net', 'node:os', 'node:perf_hooks', 'node:stream', 'node:timers/promises', 'node:tls', 'node:vm', 'node:zlib',
];
