// The one home of contract citations: how a section of a published contract is named to the user
// ("customer-engagement contract §4.2 rule 5") and where it opens — the contract reference shipped with
// the product in docs/contracts/ (one Markdown file per service, a heading per contract section).
// Hovers, tree tooltips, completion documentation and diagnostics all go through here.

/** Which published contract: 000 customer engagement, 001 fundraising, 002 booking. */
export type ContractId = '000' | '001' | '002';

/** A section of a contract: "2.1", "4.2", "Endpoints"; `detail` narrows it inside the section ("rule 5"). */
export interface Citation {
  readonly seed: ContractId;
  readonly section: string;
  readonly detail?: string;
}

/** Folder of the reference inside the extension (and the repository). */
export const CONTRACT_REFERENCE_DIR = 'docs/contracts';

export const CONTRACT_DOCUMENTS: Readonly<Record<ContractId, { readonly file: string; readonly name: string }>> = {
  '000': { file: 'engagement.md', name: 'customer-engagement contract' },
  '001': { file: 'fundraising.md', name: 'fundraising contract' },
  '002': { file: 'booking.md', name: 'booking contract' },
};

/** "customer-engagement contract §4.2 rule 5", "booking contract, Endpoints". */
export function citationLabel(citation: Citation): string {
  const { name } = CONTRACT_DOCUMENTS[citation.seed];
  const where = /^\d/.test(citation.section) ? `${name} §${citation.section}` : `${name}, ${citation.section}`;
  return citation.detail ? `${where} ${citation.detail}` : where;
}

export function isContractId(value: unknown): value is ContractId {
  return value === '000' || value === '001' || value === '002';
}

/** A citation handed over untrusted (a command argument): undefined unless it has the expected shape. */
export function parseCitation(value: unknown): Citation | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { seed, section, detail } = value as Record<string, unknown>;
  if (!isContractId(seed) || typeof section !== 'string' || !/^(\d+(\.\d+)*|[A-Za-z][A-Za-z ]{0,40})$/.test(section)) return undefined;
  return { seed, section, ...(typeof detail === 'string' && detail.length <= 40 ? { detail } : {}) };
}

/** A heading of the reference: its 0-based line and the anchor a Markdown preview gives it. */
export interface ReferenceSection {
  readonly heading: string;
  readonly line: number;
  readonly anchor: string;
}

/**
 * The heading of a section in a reference document's text: "§4.2 …" for "4.2"; for "4.2.1" (no heading
 * of its own) the nearest enclosing one; "Endpoints …" for a named section. Undefined when absent.
 */
export function findSection(text: string, section: string): ReferenceSection | undefined {
  const headings = text.split(/\r?\n/).flatMap((line, index) => {
    const m = /^#{2,3} (.+)$/.exec(line);
    return m?.[1] ? [{ heading: m[1].trim(), line: index }] : [];
  });
  const numbered = /^\d+(\.\d+)*$/.test(section);
  for (let wanted = section; wanted; wanted = numbered ? wanted.replace(/\.?\d+$/, '') : '') {
    const found = headings.find((h) => (numbered ? h.heading.startsWith(`§${wanted} `) : h.heading.toLowerCase().startsWith(wanted.toLowerCase())));
    if (found) return { ...found, anchor: headingAnchor(found.heading) };
    if (!numbered) break;
  }
  return undefined;
}

/** The id a Markdown preview (VS Code's, GitHub's) gives a heading: lower case, punctuation dropped, spaces as '-'. */
export function headingAnchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** Where a citation opens, as a URI for a Markdown link or a diagnostic's code description; undefined: no link. */
export type CitationLinker = (citation: Citation) => string | undefined;

/** A `command:` URI running `command` with the citation (VS Code; the hover or tooltip must trust the command). */
export function commandLinker(command: string): CitationLinker {
  return (citation) => `command:${command}?${encodeURIComponent(JSON.stringify([{ seed: citation.seed, section: citation.section }]))}`;
}

/**
 * A file URI of the reference document with the heading's line (`…/engagement.md#L42`), which any editor
 * opens at the section. `read` returns a document's text (undefined when it cannot be read: no link then).
 */
export function fileLinker(directoryUri: string, read: (file: string) => string | undefined): CitationLinker {
  const texts = new Map<string, string | undefined>();
  return (citation) => {
    const { file } = CONTRACT_DOCUMENTS[citation.seed];
    if (!texts.has(file)) texts.set(file, read(file));
    const text = texts.get(file);
    const found = text === undefined ? undefined : findSection(text, citation.section);
    return found ? `${directoryUri.replace(/\/+$/, '')}/${file}#L${found.line + 1}` : undefined;
  };
}

/** The citation as Markdown: a link when there is somewhere to open, its label otherwise. */
export function citationMarkdown(citation: Citation, linker: CitationLinker | undefined): string {
  const href = linker?.(citation);
  return href ? `[${citationLabel(citation)}](${href})` : citationLabel(citation);
}

// "seed 000 §4.2 rule 5", "seed 001 §5.1", "seed 002 §Endpoints", as written in the catalog's own text.
// § is written \u00a7: esbuild keeps a regular expression's characters as they are, and the CLI bundles
// stay all ASCII (src/core/files/codeCache.ts reads an ASCII bundle without UTF-8 decoding).
const WRITTEN = /\bseed (00[012]),? (?:\u00a7(\d+(?:\.\d+)*)|\u00a7?(Endpoints))(?: (rule \d+))?/g;

function rewrite(text: string, render: (citation: Citation) => string): string {
  return text.replace(WRITTEN, (_all, seed: ContractId, number: string | undefined, named: string | undefined, detail: string | undefined) =>
    render({ seed, section: number ?? named ?? '', ...(detail ? { detail } : {}) }));
}

/** The first citation written in a text, if any. */
export function firstCitation(text: string): Citation | undefined {
  let found: Citation | undefined;
  rewrite(text, (citation) => {
    found ??= citation;
    return '';
  });
  return found;
}

/** Free text with every written citation named in the product's words (plain text: diagnostics, the panel). */
export function citationsAsText(text: string): string {
  return rewrite(text, citationLabel);
}

/** Free Markdown with every written citation turned into a link to its section. */
export function citationsAsMarkdown(text: string, linker: CitationLinker | undefined): string {
  return rewrite(text, (citation) => citationMarkdown(citation, linker));
}
