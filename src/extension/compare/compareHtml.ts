// The comparison view's HTML (vscode-free): a summary per side, the counts, what else differs, and a
// table of the differing records with a filter (added / removed / changed), each changed record
// expanding to its field changes, each pair opening in the diff editor. No script at all: filters are
// radio buttons and CSS, expansion is <details>, actions are command links (the webview allows only
// the comparison's own commands). Every text from a response is escaped; nothing is ever HTML.
import type { FieldChange } from '../../core/compare/fieldChanges';

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
}

export const MAX_SHOWN = 500;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

const shown = (value: unknown): string => (value === undefined ? '—' : JSON.stringify(value) ?? 'null');

function commandLink(command: string, args: readonly unknown[], text: string, label: string): string {
  return `<a href="command:${command}?${encodeURIComponent(JSON.stringify(args))}" aria-label="${escapeHtml(label)}">${escapeHtml(text)}</a>`;
}

function recordRow(r: CompareViewRecord, several: boolean): string {
  const open = commandLink('apiWorkbench.compareOpenPair', [r.index], 'Open in diff editor', `Open ${r.key} in the diff editor`);
  const fields = r.fields.length === 0 ? '' : `<details><summary>${r.fields.length} field change${r.fields.length === 1 ? '' : 's'}</summary><table class="fields"><thead><tr><th scope="col">field</th><th scope="col">change</th><th scope="col">side A</th><th scope="col">side B</th></tr></thead><tbody>${
    r.fields.map((f) => `<tr><td><code>${escapeHtml(f.path)}</code></td><td>${f.kind === 'type' ? 'type changed' : f.kind}</td><td><code>${escapeHtml(shown(f.before))}</code></td><td><code>${escapeHtml(shown(f.after))}</code></td></tr>`).join('')
  }</tbody></table></details>`;
  return `<tr class="${r.kind}"><td><span class="badge ${r.kind}">${r.kind}</span></td>${several ? `<td>${escapeHtml(r.request)}</td>` : ''}<td><code>${escapeHtml(r.key)}</code></td><td>${fields}</td><td>${open}</td></tr>`;
}

function summaryRow(s: CompareViewSummary): string {
  const verdict = `<span class="verdict ${s.differs ? 'differ' : 'agree'}">${s.differs ? 'differ' : 'agree'}</span><br><small>${escapeHtml(s.counts)}</small>`;
  const more = s.differences.length ? `<ul class="differences">${s.differences.map((d) => `<li>${escapeHtml(d)}</li>`).join('')}</ul>` : '';
  return `<tr><th scope="row">${escapeHtml(s.request)}</th><td>${verdict}${more}</td><td>${escapeHtml(s.a)}</td><td>${escapeHtml(s.b)}</td></tr>`;
}

export function compareHtml(view: CompareView, nonce: string, cspSource: string): string {
  const count = (kind: string): number => view.records.filter((r) => r.kind === kind).length;
  const state = view.state === 'running' ? `Comparing… ${escapeHtml(view.progress ?? '')} ${commandLink('apiWorkbench.compareStop', [], 'Stop', 'Stop the comparison (keeps what was compared)')}`
    : view.state === 'stopped' ? (view.progress ? `Stopped: ${escapeHtml(view.progress)}.` : 'Stopped: what both sides had fetched was compared.')
    : view.state === 'failed' ? `Failed: ${escapeHtml(view.progress ?? '')}` : 'Done.';
  const summary = view.summaries.length === 0 ? '' : `
  <section aria-label="Summary per request">
    <table class="summary">
      <thead><tr><th scope="col">request</th><th scope="col">verdict</th><th scope="col">A · ${escapeHtml(view.sideA)}</th><th scope="col">B · ${escapeHtml(view.sideB)}</th></tr></thead>
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
  label { margin-right: 1em; }
  .records td:nth-child(2) code { white-space: nowrap; }
  a { color: var(--vscode-textLink-foreground); }
  #f-added:checked ~ table tbody tr:not(.added),
  #f-removed:checked ~ table tbody tr:not(.removed),
  #f-changed:checked ~ table tbody tr:not(.changed) { display: none; }
  table.fields tr { display: table-row !important; }
</style></head>
<body>
  <h1>${escapeHtml(view.title)}</h1>
  <p role="status">${state}</p>
  ${summary}
  ${table}
</body></html>`;
}
