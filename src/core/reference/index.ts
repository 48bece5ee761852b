export {
  citationLabel, citationMarkdown, citationsAsMarkdown, citationsAsText, commandLinker, fileLinker, findSection, firstCitation, headingAnchor,
  isContractId, parseCitation, CONTRACT_DOCUMENTS, CONTRACT_REFERENCE_DIR,
  type Citation, type CitationLinker, type ContractId, type ReferenceSection,
} from './citations';
