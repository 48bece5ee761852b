export { ARRAY_ITEMS_CHECKED, checkContract, type DriftKind } from './drift';
export { CONTRACT_STEP, contractDriftStep } from './step';
export { contractViewOf, contractViewOfFindings } from './view';
