// The panel's Contract section from a drift report, or from the exchange's 'contract' findings. Field
// names of a response pass through the caller's redaction like any other text (see `text`).
import type { ContractView } from '../../protocol/webviewMessages';
import type { Finding } from '../run/exchange';
import type { DriftFinding, DriftReport } from './drift';
import { CONTRACT_STEP } from './step';

export function contractViewOf(report: DriftReport, text: (s: string) => string = (s) => s): ContractView {
  return {
    ...(report.operationId ? { operation: report.operationId } : {}),
    findings: report.findings.map((f) => ({ kind: f.kind, path: text(f.path), message: text(f.message), section: f.section })),
    notChecked: report.notChecked.map(text),
  };
}

/**
 * From `result.findings` of an exchange run with contractDriftStep. Undefined for a response of no catalog
 * operation (there is no contract to show), or when the step did not run.
 */
export function contractViewOfFindings(operationId: string | undefined, findings: readonly Finding[], text: (s: string) => string = (s) => s): ContractView | undefined {
  const mine = findings.filter((f) => f.step === CONTRACT_STEP);
  if (mine.length === 0 || operationId === undefined) return undefined;
  const drift = mine.flatMap((f) => (isDrift(f.detail) ? [f.detail] : []));
  const notChecked = mine.filter((f) => !isDrift(f.detail)).map((f) => f.message.replace(/^not checked: /, ''));
  return contractViewOf({ operationId, findings: drift, notChecked }, text);
}

function isDrift(detail: unknown): detail is DriftFinding {
  return typeof detail === 'object' && detail !== null && 'path' in detail && 'section' in detail && 'kind' in detail;
}
