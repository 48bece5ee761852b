// Types of extensionBundles.mjs for bench/activation.ts.
import type { BuildOptions } from 'esbuild';
export function extensionBundles(options: BuildOptions & { outdir: string }): BuildOptions[];
