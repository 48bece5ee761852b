// The `.http` request file core: parse, print (lossless and normalised), resolve variables.
export * from './model';
export { parseHttpFile, parseBlock, parseBlocks, asOneBlock, blockStartOffsets, HTTP_METHODS } from './parser';
export { HttpPrintError, inlineBodyProblem, printNormalizedHttpFile, type BlockSpec } from './printer';
export { resolveRequest, type VariableScope } from './resolve';
export { isSystemVariable } from './variables';
export { requestLabel } from './requestLabel';
export { writtenRequestLine } from './writtenUrl';
export { splitLines, containsPosition } from './lines';
export { READ_DIRECTIVES } from './directives';
export { keptConstructName } from './foreign';
