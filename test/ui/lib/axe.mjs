// axe-core (the npm package) run inside a page or frame the tests drive: the results webview (in the
// browser test and in the real editor) and the API Workbench views of the workbench. The source is handed
// to the page as an expression through the DevTools protocol, so the webview's Content-Security-Policy
// (scripts by nonce only, no eval) stays as it ships. Every rule axe runs by default is on; a rule is
// switched off only through `disabled` below, each with its reason, and the test prints them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let source;

/** axe.min.js as text. */
export function axeSource() {
  source ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  return source;
}

/**
 * Rules switched off, and why. Only for markup that is not ours (the workbench's own widgets around our
 * views); the results panel runs with every rule on.
 */
export const WORKBENCH_RULES_OFF = {};

/**
 * Runs axe in `target` (a Playwright Page or Frame) on the elements `include` selects (default: the whole
 * document); resolves to the violations, [] when there is none.
 */
export async function axeViolations(target, { include, exclude, rulesOff = {} } = {}) {
  if (!(await target.evaluate(() => typeof globalThis.axe === 'object'))) await target.evaluate(axeSource());
  const rules = Object.fromEntries(Object.keys(rulesOff).map((id) => [id, { enabled: false }]));
  return target.evaluate(async ({ include, exclude, rules }) => {
    const context = include ? { include: [include], ...(exclude ? { exclude: [exclude] } : {}) } : document;
    const result = await globalThis.axe.run(context, { rules, resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 8).map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })),
      count: v.nodes.length,
    }));
  }, { include, exclude, rules });
}

/** One readable block per violation, for an assertion message. */
export function describeViolations(violations) {
  return violations.map((v) => `${v.id} (${v.impact}, ${v.count} node${v.count === 1 ? '' : 's'}): ${v.help}\n${v.nodes.map((n) => `  ${n.target}\n    ${String(n.summary).replace(/\n/g, '\n    ')}`).join('\n')}`).join('\n');
}
