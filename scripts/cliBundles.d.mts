// Types of cliBundles.mjs for its TypeScript users (test/cli/sandboxEnv.ts, the benches).
import type { BuildOptions } from 'esbuild';
export interface CliBuild { outfile: string; minify?: boolean; sourcemap?: boolean; version?: string; logLevel?: BuildOptions['logLevel'] }
export function subcommandModules(): string[];
export function subcommandFile(outfile: string, module: string): string;
export function cliBuildOptions(options: CliBuild): BuildOptions[];
export function buildCliBundles(options: CliBuild): Promise<string[]>;
