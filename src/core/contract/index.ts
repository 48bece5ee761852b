export {
  ARRAY_ITEMS_CHECKED,
  MAX_FINDINGS,
  checkContract,
  citeSeed,
  type ContractResponse,
  type DriftFinding,
  type DriftKind,
  type DriftReport,
} from './drift';
export { PAGING_CONTRACT, type PagingNames } from './pagingContract';
export { CONTRACT_STEP, contractDriftStep, type ContractFindingDetail } from './step';
export { contractViewOf, contractViewOfFindings } from './view';
