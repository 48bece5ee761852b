export { CONTRACT_STEP, contractDriftStep } from './step';
export { contractViewOfFindings } from './view';
