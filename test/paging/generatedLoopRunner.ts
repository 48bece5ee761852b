// Test helper: runs a loop printed by `apiwb generate --paging` (TypeScript with tsx, Python
// with python3) with no options, and returns its verdict and rows ("failed" when it threw).
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

export interface LoopRun { readonly verdict: string; readonly rows: unknown[]; readonly error?: string }

export async function runGeneratedLoop(dir: string, code: string, lang: 'ts' | 'python', env: Record<string, string> = {}): Promise<LoopRun> {
  const environment = { ...process.env, ...env };
  if (lang === 'ts') {
    const name = /export async function (\w+)/.exec(code)![1]!;
    const module = join(dir, `loop-${name}.mts`);
    writeFileSync(module, code);
    const runner = join(dir, `run-${name}.mts`);
    writeFileSync(runner, [
      `import { ${name} } from ${JSON.stringify(module)};`,
      `try { const r = await ${name}({}); process.stdout.write(JSON.stringify({ rows: r.rows, verdict: r.verdict })); }`,
      'catch (error) { process.stdout.write(JSON.stringify({ rows: [], verdict: "failed", error: String(error) })); }',
    ].join('\n'));
    return JSON.parse((await exec(process.execPath, ['--import', 'tsx', runner], { cwd: ROOT, env: environment })).stdout) as LoopRun;
  }
  const name = /^def (walk_\w+)/m.exec(code)![1]!;
  const module = join(dir, `loop_${name}.py`);
  writeFileSync(module, code);
  const script = [
    'import importlib.util, json, sys',
    `spec = importlib.util.spec_from_file_location("loop", ${JSON.stringify(module)})`,
    'loop = importlib.util.module_from_spec(spec)',
    'spec.loader.exec_module(loop)',
    'try:',
    `    r = loop.${name}()`,
    '    sys.stdout.write(json.dumps({"rows": r["rows"], "verdict": r["verdict"]}))',
    'except Exception as error:',
    '    sys.stdout.write(json.dumps({"rows": [], "verdict": "failed", "error": str(error)}))',
  ].join('\n');
  return JSON.parse((await exec('python3', ['-c', script], { env: environment })).stdout) as LoopRun;
}
