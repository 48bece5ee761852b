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
 * Rules switched off for the API Workbench views, and why. Only where the markup is the workbench's own
 * rendering of our tree items; the results panel runs with every rule on.
 */
export const WORKBENCH_RULES_OFF = {
  'label-content-name-mismatch':
    "The workbench draws a tree item's label and description as adjacent spans with only a CSS margin between " +
    "them, so axe reads the visible text as 'Transaction3 operations', which no accessible name can contain. " +
    'Our names start with the visible label and go on with the description ("Transaction, 3 operations"); ' +
    'test/editor/suite/servicesTree.test.ts checks them.',
};

/**
 * Parts of the workbench inside the views' container that are not ours, left out of the views' check.
 * `.pane-header`: the workbench's collapsible section header (a role=button holding its own action bar),
 * which axe reports as nested-interactive in every extension's views.
 */
export const WORKBENCH_EXCLUDE = '.pane-header';

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
    // A check that looked at nothing (a selector that matched no element) must not pass as clean.
    if (result.passes.length + result.violations.length === 0) throw new Error(`axe checked nothing in ${include ?? 'the document'}`);
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
