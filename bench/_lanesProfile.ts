// Profile helper, not one of `npm run bench` (bench/run.mjs skips names starting with _): readAnywhere over many small arrays in process, from this
// tree or another checkout's src (argv 5), wall and CPU time per read.
import { manySmallArrays } from './lib/bodyShapes';

async function main(): Promise<void> {
  const depth = Number(process.argv[2] ?? 1) as 1 | 2;
  const n = Number(process.argv[3] ?? 200000);
  const rounds = Number(process.argv[4] ?? 3);
  const root = process.argv[5] ?? `${import.meta.dirname}/..`;
  const { readAnywhere } = await import(`${root}/src/core/paging/anywhereFetch.ts`) as typeof import('../src/core/paging/anywhereFetch');
  const { rowsRule } = await import(`${root}/src/core/paging/rows.ts`) as typeof import('../src/core/paging/rows');
  const { body } = manySmallArrays(n, depth);
  const rule = rowsRule('none', {});
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t = performance.now();
    const c = process.cpuUsage();
    let lines = 0;
    const got = await readAnywhere(async (each) => {
      for (let i = 0; i < body.length; i += 65536) await each(Buffer.from(body.subarray(i, i + 65536)));
    }, (p) => rule.find(p), (_nd, k) => { lines += k; return Promise.resolve(); }, true, undefined);
    const ms = performance.now() - t;
    const cpu = process.cpuUsage(c);
    times.push((cpu.user + cpu.system) / 1000);
    if (got.streamed?.rowCount !== 2000 || lines !== 2000) throw new Error('wrong rows');
    console.log(`depth ${depth} n ${n}: ${ms.toFixed(0)} ms wall, cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms (${((cpu.user + cpu.system) / n).toFixed(2)} us/array)`);
  }
  times.sort((a, b) => a - b);
  console.log(`min cpu ${times[0]!.toFixed(0)} ms, median ${times[Math.floor(times.length / 2)]!.toFixed(0)} ms; load ${(await import('node:os')).loadavg()[0]!.toFixed(2)}`);
}
void main();
