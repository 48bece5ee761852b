// Test helper, THE runner of a loop printed by `apiwb generate --paging`: the TypeScript type-checked as a
// user's strict project would (tsc) and run with tsx, the Python with python3. It returns the rows the loop
// handed to its page callback (onPage / on_page), the rows it returned, and its verdict: "failed" when it
// raised its PagingError. Anything else it throws (a TypeError, a KeyError) is a broken loop, never a
// verdict: the run fails with it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

export interface LoopRun {
  readonly verdict: string;
  /** The rows handed to the page callback, in order. */
  readonly rows: unknown[];
  /** The rows the loop returned (absent when it raised). */
  readonly returned?: unknown[];
  readonly error?: string;
}

export interface LoopOptions {
  /** Added to the process environment (the loop reads its secrets there). */
  readonly env?: Record<string, string>;
  /** The loop's own page cap (maxPages / max_pages). */
  readonly maxPages?: number;
}

let runs = 0;

/** Type-checks a generated module as a user's strict project would. */
function typeCheck(file: string): void {
  const program = ts.createProgram([file], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')], skipLibCheck: true, noUncheckedIndexedAccess: true });
  const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  assert.deepEqual(problems, [], `${file} type-checks`);
}

function typescriptRunner(dir: string, code: string, id: string, maxPages: number | undefined): string {
  const name = /export async function (\w+)/.exec(code)![1]!;
  const module = join(dir, `loop-${id}.mts`);
  writeFileSync(module, code);
  typeCheck(module);
  const runner = join(dir, `run-${id}.mts`);
  writeFileSync(runner, [
    `import { ${name}, PagingError } from ${JSON.stringify(module)};`,
    'const kept: unknown[] = [];',
    `try { const r = await ${name}({ onPage: (rows) => { kept.push(...rows); }${maxPages ? `, maxPages: ${maxPages}` : ''} }); process.stdout.write(JSON.stringify({ rows: kept, returned: r.rows, verdict: r.verdict })); }`,
    'catch (error) { if (!(error instanceof PagingError)) throw error; process.stdout.write(JSON.stringify({ rows: kept, verdict: "failed", error: String(error) })); }',
  ].join('\n'));
  return runner;
}

function pythonScript(dir: string, code: string, id: string, maxPages: number | undefined): string {
  const name = /^def (walk_\w+)/m.exec(code)![1]!;
  const module = join(dir, `loop_${id}.py`);
  writeFileSync(module, code);
  return [
    'import importlib.util, json, sys',
    `spec = importlib.util.spec_from_file_location("loop", ${JSON.stringify(module)})`,
    'loop = importlib.util.module_from_spec(spec)',
    'spec.loader.exec_module(loop)',
    'kept = []',
    'try:',
    `    r = loop.${name}(on_page=lambda rows, page: kept.extend(rows)${maxPages ? `, max_pages=${maxPages}` : ''})`,
    '    sys.stdout.write(json.dumps({"rows": kept, "returned": r["rows"], "verdict": r["verdict"]}))',
    'except loop.PagingError as error:',
    '    sys.stdout.write(json.dumps({"rows": kept, "verdict": "failed", "error": str(error)}))',
  ].join('\n');
}

/** Runs a generated loop written to `dir` (see the top). */
export async function runGeneratedLoop(dir: string, code: string, lang: 'ts' | 'python', options: LoopOptions = {}): Promise<LoopRun> {
  const id = `${process.pid}-${runs++}`;
  const env = { ...process.env, ...options.env };
  const { stdout } = lang === 'ts'
    ? await exec(process.execPath, ['--import', 'tsx', typescriptRunner(dir, code, id, options.maxPages)], { cwd: ROOT, env, maxBuffer: 64 << 20 })
    : await exec('python3', ['-c', pythonScript(dir, code, id, options.maxPages)], { env, maxBuffer: 64 << 20 });
  const run = JSON.parse(stdout) as LoopRun;
  // A loop that returned hands every row it returns to its callback, in order.
  if (run.returned) assert.deepEqual(run.rows, run.returned, `${lang}: the rows returned are the rows handed to the page callback`);
  return run;
}
