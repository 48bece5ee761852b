// The panel's Export: writes the rows of the response it was pressed on (`responseId`): the paging session's
// rows (every page fetched so far) when it is that response, a response on disk read from there a batch at a
// time, else the table on screen (a History entry, an unpaged send). Through the redacting sink, as every
// file of rows is.
import * as vscode from 'vscode';
import { openFileSink, redactingSink, type SinkFormat } from '../../core/export';
import { formatRows } from '../../core/results/format';
import type { Redactor } from '../../core/secrets';
import type { ResultsPanel } from '../results/ResultsPanel';
import { csvFormulas } from '../settings';
import { shownRowsOf, type PagedSession } from './pagedSession';

export interface ExportFrom {
  readonly panel: ResultsPanel;
  /** The paging session, when it is the response's. */
  readonly session: PagedSession | undefined;
  readonly folder: vscode.Uri;
  readonly redactor: Redactor;
}

export async function exportShown({ panel, session, folder, redactor }: ExportFrom, format: SinkFormat, responseId: string): Promise<void> {
  const shown = panel.viewModel;
  if (!session && shown?.id !== responseId) {
    void vscode.window.showWarningMessage('API Workbench: that response is no longer the one shown; press Export again.');
    return;
  }
  const onDisk = panel.sourceOf(responseId);
  const rows = onDisk ? [] : session ? shownRowsOf(session) : [...(shown?.table?.rows ?? [])];
  await vscode.workspace.fs.createDirectory(folder);
  const name = (session?.name ?? 'response').replace(/[^\w.-]+/g, '_');
  const target = vscode.Uri.joinPath(folder, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.${format}`);
  // A fresh name, made exclusively (never through a link); formula cells neutralised unless the setting says raw.
  const sink = redactingSink(await openFileSink(format, target.fsPath, { exclusive: true, csvFormulas: csvFormulas() }), () => redactor);
  let written = rows.length;
  try {
    // A response on disk: every row read from there, a batch at a time (through the same redacting sink).
    if (onDisk) written = await onDisk.writeRows(sink);
    else await sink.writePage(rows);
  } finally {
    await sink.close();
  }
  void vscode.window.showInformationMessage(`API Workbench: ${formatRows(written)} written to ${vscode.workspace.asRelativePath(target)}.`);
}
