// Contract drift as a step of the exchange (src/core/run/exchange.ts): each finding of checkContract
// becomes one Finding of step 'contract'. The CLI's --check-contract makes them failures (exit 1); the
// editor shows them as warnings in the panel's Contract section. A response of no catalog operation
// gives one note saying nothing was checked, never silence that could read as "no drift".
import type { ExchangeStep, Finding } from '../run/exchange';
import type { Operation } from '../catalog';
import { checkContract, type ContractResponse } from './drift';

export const CONTRACT_STEP = 'contract';

export function contractDriftStep(severity: 'failure' | 'warning' = 'warning'): ExchangeStep {
  return { name: CONTRACT_STEP, run: (view) => contractFindings(view.operation, { status: view.response.status, headers: view.response.headers, body: view.body }, severity) };
}

/** The step's findings for one response (a stored response is checked by the same words: compare/storedSide.ts). */
export function contractFindings(op: Operation | undefined, response: ContractResponse, severity: 'failure' | 'warning'): Finding[] {
  if (!op) {
    return [{ step: CONTRACT_STEP, severity: 'note', message: 'not checked: the request matches no operation of the catalog', detail: { kind: 'not-checked' } }];
  }
  const report = checkContract(op, response);
  const findings: Finding[] = report.findings.map((finding) => ({
    step: CONTRACT_STEP,
    severity,
    message: `${finding.path}: ${finding.message} (${finding.section})`,
    detail: finding,
  }));
  for (const note of report.notChecked) {
    findings.push({ step: CONTRACT_STEP, severity: 'note', message: `not checked: ${note}`, detail: { kind: 'not-checked' } });
  }
  return findings;
}
