// Types of testCounts.mjs for the TypeScript test of the runner (test/unit/testRunner.test.ts).
export interface TestCounts { passed: number; failed: number; skipped: number }
export function countLine(line: string, into: TestCounts): void;
