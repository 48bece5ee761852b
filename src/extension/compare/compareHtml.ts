// The comparison view's HTML (vscode-free): the two sides named once, a summary per request (verdict,
// counts, what each side answered, what else differs), and a table of the differing records with a
// filter (added / removed / changed), each changed record showing its field change (several fold under
// the fields they touch), each pair opening in the diff editor. No script at all: filters are radio
// buttons and CSS, folding is <details>, actions are command links (the webview allows only the
// comparison's own commands). Every text from a response is escaped; nothing is ever HTML.
import type { FieldChange } from '../../core/compare/fieldChanges';
import { jsonText } from '../../core/json/numberText';

export interface CompareViewRecord {
  readonly index: number;
  /** The request it belongs to (its label). */
  readonly request: string;
  readonly kind: 'added' | 'removed' | 'changed';
  /** The key as text, or "(whole record)" for records matched by content. */
  readonly key: string;
  readonly fields: readonly FieldChange[];
}

export interface CompareView {
  readonly title: string;
  readonly sideA: string;
  readonly sideB: string;
  readonly state: 'running' | 'done' | 'stopped' | 'failed';
  readonly progress?: string;
  /** One a request compared, in order. */
  readonly summaries: readonly CompareViewSummary[];
  readonly records: readonly CompareViewRecord[];
  /** Differing records found in all (the table lists at most MAX_SHOWN). */
  readonly differing: number;
}

export interface CompareViewSummary {
  readonly request: string;
  readonly a: string;
  readonly b: string;
  readonly counts: string;
  readonly differs: boolean;
  readonly differences: readonly string[];
  /** Sent on neither side (`# @disabled`): why, in the line's words; nothing was compared. */
  readonly setAside?: string;
}

export const MAX_SHOWN = 500;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** A value as the service wrote it: a number JSON.parse would change is shown as its text (jsonText), never as a double. */
const shown = (value: unknown): string => (value === undefined ? '—' : jsonText(value) ?? 'null');

function commandLink(command: string, args: readonly unknown[], text: string, label: string): string {
  return `<a href="command:${command}?${encodeURIComponent(JSON.stringify(args))}" aria-label="${escapeHtml(label)}">${escapeHtml(text)}</a>`;
}

/** `amount: 1 → 2`, `note added: "x"`, `code removed: 7`, `n type changed: 1 → "1"` (side A → side B). */
function fieldItem(f: FieldChange): string {
  const value = (v: unknown): string => `<code>${escapeHtml(shown(v))}</code>`;
  const change = f.kind === 'added' ? ` added: ${value(f.after)}` : f.kind === 'removed' ? ` removed: ${value(f.before)}` : `${f.kind === 'type' ? ' type changed' : ''}: ${value(f.before)} → ${value(f.after)}`;
  return `<li><code class="path">${escapeHtml(f.path)}</code>${change}</li>`;
}

/** One field change is shown as it is; several fold under the fields they touch. */
function fieldChanges(fields: readonly FieldChange[]): string {
  if (fields.length === 0) return '';
  const list = `<ul class="fields">${fields.map(fieldItem).join('')}</ul>`;
  if (fields.length === 1) return list;
  const paths = fields.slice(0, 3).map((f) => `<code>${escapeHtml(f.path)}</code>`).join(', ');
  return `<details><summary>${fields.length} fields: ${paths}${fields.length > 3 ? '…' : ''}</summary>${list}</details>`;
}

function recordRow(r: CompareViewRecord, several: boolean): string {
  const open = commandLink('apiWorkbench.compareOpenPair', [r.index], 'Diff', `Open ${r.key} in the diff editor`);
  return `<tr class="${r.kind}"><td><span class="badge ${r.kind}">${r.kind}</span></td>${several ? `<td>${escapeHtml(r.request)}</td>` : ''}<td><code>${escapeHtml(r.key)}</code></td><td>${fieldChanges(r.fields)}</td><td class="pair">${open}</td></tr>`;
}

/** `A` and `B` beside what each holds: the sides named once at the top, and each request's answers. */
function sidesList(a: string, b: string, kind: 'sides' | 'side'): string {
  return `<dl class="${kind}"><dt>A</dt><dd>${escapeHtml(a)}</dd><dt>B</dt><dd>${escapeHtml(b)}</dd></dl>`;
}

function summaryRow(s: CompareViewSummary): string {
  if (s.setAside !== undefined) return `<tr><th scope="row">${escapeHtml(s.request)}</th><td><span class="verdict aside">set aside</span> <small>${escapeHtml(s.setAside)}</small></td></tr>`;
  const verdict = `<span class="verdict ${s.differs ? 'differ' : 'agree'}">${s.differs ? 'differ' : 'agree'}</span> <small class="counts">${escapeHtml(s.counts)}</small>`;
  const more = s.differences.length ? `<ul class="differences">${s.differences.map((d) => `<li>${escapeHtml(d)}</li>`).join('')}</ul>` : '';
  return `<tr><th scope="row">${escapeHtml(s.request)}</th><td>${verdict}${sidesList(s.a, s.b, 'side')}${more}</td></tr>`;
}

export function compareHtml(view: CompareView, nonce: string, cspSource: string): string {
  const count = (kind: string): number => view.records.filter((r) => r.kind === kind).length;
  const state = view.state === 'running' ? `Comparing… ${escapeHtml(view.progress ?? '')} ${commandLink('apiWorkbench.compareStop', [], 'Stop', 'Stop the comparison (keeps what was compared)')}`
    : view.state === 'stopped' ? (view.progress ? `Stopped: ${escapeHtml(view.progress)}.` : 'Stopped: what both sides had fetched was compared.')
    : view.state === 'failed' ? `Failed: ${escapeHtml(view.progress ?? '')}` : 'Done.';
  const summary = view.summaries.length === 0 ? '' : `
  <section aria-label="Summary per request">
    <table class="summary">
      <thead><tr><th scope="col">request</th><th scope="col">verdict</th></tr></thead>
      <tbody>${view.summaries.map(summaryRow).join('')}</tbody>
    </table>
  </section>`;
  const more = view.differing > view.records.length ? `<p>The first ${view.records.length} of ${view.differing} differing records are listed; <code>apiwb compare --out</code> writes them all.</p>` : '';
  const several = new Set(view.records.map((r) => r.request)).size > 1 || view.summaries.length > 1;
  const table = view.records.length === 0 ? (view.summaries.length ? '<p>No differing records.</p>' : '') : `
  <section aria-label="Differing records">
    <input type="radio" name="filter" id="f-all" checked><label for="f-all">All (${view.records.length})</label>
    <input type="radio" name="filter" id="f-added"><label for="f-added">Added (${count('added')})</label>
    <input type="radio" name="filter" id="f-removed"><label for="f-removed">Removed (${count('removed')})</label>
    <input type="radio" name="filter" id="f-changed"><label for="f-changed">Changed (${count('changed')})</label>
    <table class="records">
      <thead><tr><th scope="col">difference</th>${several ? '<th scope="col">request</th>' : ''}<th scope="col">key</th><th scope="col">fields</th><th scope="col">pair</th></tr></thead>
      <tbody>${view.records.map((r) => recordRow(r, several)).join('')}</tbody>
    </table>
    ${more}
  </section>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource} 'nonce-${nonce}';">
<title>${escapeHtml(view.title)}</title>
<style nonce="${nonce}">
  body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 1em; }
  h1 { font-size: 1.25em; margin: .6em 0 .2em; }
  section { margin-top: .8em; }
  td.pair, th[scope="row"] { white-space: nowrap; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0 8px; margin: 0; }
  dt { font-weight: bold; }
  dd { margin: 0; overflow-wrap: anywhere; }
  dl.sides { margin: 0 0 .4em; }
  dl.side { margin-top: 2px; }
  details summary { cursor: pointer; }
  ul.fields { margin: 0; padding: 0; list-style: none; }
  ul.fields code { overflow-wrap: break-word; }
  table { border-collapse: collapse; width: 100%; margin-top: .5em; }
  th, td { text-align: left; padding: 2px 8px; border-bottom: 1px solid var(--vscode-panel-border, #8884); vertical-align: top; }
  .badge { padding: 0 6px; border-radius: 3px; }
  .badge.added { background: var(--vscode-diffEditor-insertedTextBackground, #2a2); }
  .badge.removed { background: var(--vscode-diffEditor-removedTextBackground, #a22); }
  .badge.changed { background: var(--vscode-editorWarning-background, #aa2); outline: 1px solid var(--vscode-editorWarning-foreground, #aa2); }
  .verdict { font-weight: bold; }
  .verdict.differ { color: var(--vscode-editorWarning-foreground); }
  .differences { margin: 2px 0 0; padding-left: 1.2em; }
  small { opacity: .85; }
  small.counts { display: block; }
  label { margin-right: 1em; }
  .records td:nth-child(2) code { white-space: nowrap; }
  a { color: var(--vscode-textLink-foreground); }
  #f-added:checked ~ table tbody tr:not(.added),
  #f-removed:checked ~ table tbody tr:not(.removed),
  #f-changed:checked ~ table tbody tr:not(.changed) { display: none; }
</style></head>
<body>
  <h1>${escapeHtml(view.title)}</h1>
  ${sidesList(view.sideA, view.sideB, 'sides')}
  <p role="status">${state}</p>
  ${summary}
  ${table}
</body></html>`;
}
