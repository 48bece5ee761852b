// Types of secretScan.mjs for the TypeScript editor suites (secretsAtRest.test.ts shares its scan).
export interface SecretNeedle { readonly label: string; readonly value: string }
export interface SecretFinding { readonly file: string; readonly label: string }
export function scanForSecrets(options: { dirs: readonly string[]; needles: readonly SecretNeedle[]; installed?: Readonly<Record<string, string>> }):
  Promise<{ files: number; skipped: number; searched: string[]; findings: SecretFinding[] }>;
