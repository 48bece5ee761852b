// The `.http` request file core: parse, print (lossless and normalised), resolve variables.
export * from './model';
export { parseHttpFile, parseBlock, parseBlocks, asOneBlock, blockBounds, blockStartOffsets, HTTP_METHODS } from './parser';
export { HttpPrintError, inlineBodyProblem, printHttpFile, printNormalizedHttpFile, toBlockSpecs, type BlockSpec } from './printer';
export { resolveVariables, resolveRequest, fileVariablesFor, type VariableScope, type NamedResponse } from './resolve';
export { evaluateJsonPath } from './jsonPathLite';
export { isSystemVariable } from './variables';
export { splitLines, containsPosition } from './lines';
