// Test helper: a `show` and its `showRest` decoded whole, as the host's tests read what the panel is
// sent (the webview decodes them as they come, src/webview/main.ts).
import { decodeShowRest, decodeViewModelHead, type ProtocolLog, type ResultsViewModel, type ResultsViewModelWire, type ShowRestMessage } from '../../src/protocol/webviewMessages';

export function decodeViewModel(wire: ResultsViewModelWire, rest: ShowRestMessage | undefined, log: ProtocolLog): ResultsViewModel | undefined {
  const decoded = decodeViewModelHead(wire, log);
  if (!decoded) return undefined;
  if (!decoded.restFollows) return decoded.viewModel;
  if (!rest) {
    log(`a 'show' of ${decoded.rowCount} rows came without the rest of them`);
    return undefined;
  }
  const tail = decodeShowRest({ id: decoded.viewModel.id, pending: decoded.pending }, rest);
  if (!tail.ok) {
    log(tail.reason);
    return undefined;
  }
  const { table } = decoded.viewModel;
  return { ...decoded.viewModel, body: rest.body, ...(table ? { table: { ...table, columns: rest.columns, rows: table.rows.concat(tail.rows) } } : {}) };
}
