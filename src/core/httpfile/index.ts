// The `.http` request file core: parse, print (lossless and normalised), resolve variables.
export * from './model';
export { parseHttpFile, parseBlock, blockBounds, blockStartOffsets, isSeparatorLine, HTTP_METHODS } from './parser';
export { HttpPrintError, inlineBodyProblem, printHttpFile, printNormalizedHttpFile, toBlockSpecs, type BlockSpec, type RequestSpec } from './printer';
export {
  resolveVariables, resolveRequest, fileVariablesFor, fileVariableNames,
  type VariableScope, type NamedResponse, type DynamicVariableResolver, type ResolvedText, type ResolvedRequest,
  type UnresolvedVariable, type UnresolvedReason,
} from './resolve';
export { evaluateJsonPath, parseJsonPath } from './jsonPathLite';
export { isSystemVariable } from './variables';
export { splitLines, offsetAt, positionAt, containsPosition, comparePositions } from './lines';
