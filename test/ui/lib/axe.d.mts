// Types of axe.mjs for the TypeScript browser test (test/unit/panelAccessibility.test.ts shares it).
export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly count: number;
  readonly nodes: readonly { readonly target: string; readonly summary: string }[];
}
interface Evaluates { evaluate<R, A>(fn: string | ((arg: A) => R | Promise<R>), arg?: A): Promise<R> }
export function axeSource(): string;
export const WORKBENCH_RULES_OFF: Readonly<Record<string, string>>;
export const WORKBENCH_EXCLUDE: string;
export function axeViolations(target: Evaluates, options?: { include?: string; exclude?: string; rulesOff?: Readonly<Record<string, string>> }): Promise<AxeViolation[]>;
export function describeViolations(violations: readonly AxeViolation[]): string;
