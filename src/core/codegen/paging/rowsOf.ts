// A generated loop's `rowsOf(body)` / `rows_of(body)`: the product's one rows rule (src/core/paging/
// rows.ts) printed in TypeScript and Python from the strategy's place (`loop.rows`, which is the
// strategy's own `rowsRule(...).place`) and the rule's constants, never from a description of its own:
//   1-2. the place's names (items= alone, else the style's), each read as readPath reads it: the first
//        holding an array; null there is no rows;
//   3.   nothing else when the place is fixed;
//   4.   a top-level array;
//   5.   the largest array of objects one or two levels down (an empty array counts; ties go to the
//        shallower, then the first), never a business-error list.
// Each step is printed with its number in rows.ts, so a reader can hold one against the other.
import type { PagingLoop } from '../../paging/loop';
import { ERROR_LIST_KEYS, ROWS_OBJECT_SHARE, ROWS_SAMPLE } from '../../paging/rows';
import { rowsWords } from './common';

const q = (text: string): string => JSON.stringify(text);
const list = (names: readonly string[]): string => `[${names.map(q).join(', ')}]`;

/** The named step's comment and the test that makes a null there "no rows". */
function namedStep(loop: PagingLoop): { readonly step: string; readonly comment: string; readonly nullIsEmpty: { readonly ts: string; readonly py: string } } {
  const { rows } = loop;
  return rows.path
    ? { step: '1', comment: 'items= says where the rows are: only there; null there is no rows.', nullIsEmpty: { ts: 'found === null', py: 'found is None' } }
    : {
      step: '2',
      comment: `The style's own ${rows.names.length > 1 ? 'names: the first holding an array' : 'field'}; null there (the key present) is no rows.`,
      nullIsEmpty: { ts: 'found === null && isRecord(body) && Object.hasOwn(body, name)', py: 'found is None and isinstance(body, dict) and name in body' },
    };
}

/** `rowsOf(body)` in TypeScript (uses the loop's `isRecord` and `Json`): the rows, or undefined when the body has none. */
export function typescriptRowsOf(loop: PagingLoop): string[] {
  const { rows } = loop;
  const named = namedStep(loop);
  const lines: string[] = [];
  if (rows.names.length > 0) {
    lines.push(
      '/** Reads a path as API Workbench does: first as one literal key (so "@odata.nextLink" works), then dotted; own fields only. */',
      'function readPath(value: unknown, path: string): unknown {',
      '  if (path === "" || path === "." || path === "$") return value;',
      '  if (!isRecord(value)) return undefined;',
      '  if (Object.hasOwn(value, path)) return value[path];',
      '  let current: unknown = value;',
      '  for (const part of path.split(".")) {',
      '    if (!isRecord(current)) return undefined;',
      '    current = Object.hasOwn(current, part) ? current[part] : undefined;',
      '  }',
      '  return current;',
      '}',
      '',
    );
  }
  if (!rows.fixed) {
    lines.push(
      '// Business-error lists are never rows.',
      `const ERROR_LISTS = new Set(${list(ERROR_LIST_KEYS)});`,
      '',
      `/** An array of objects: at least ${ROWS_OBJECT_SHARE * 100}% objects among its first ${ROWS_SAMPLE} items (an empty array counts). */`,
      'function mostlyObjects(items: unknown[]): boolean {',
      '  if (items.length === 0) return true;',
      `  const sample = items.slice(0, ${ROWS_SAMPLE});`,
      `  return sample.filter(isRecord).length / sample.length >= ${ROWS_OBJECT_SHARE};`,
      '}',
      '',
      '/** The largest array of objects one level down, then two; a tie keeps the one found first (the shallower). */',
      'function largestRowArray(body: Json): unknown[] | undefined {',
      '  let best: unknown[] | undefined;',
      '  const consider = (key: string, value: unknown): void => {',
      '    if (!Array.isArray(value) || ERROR_LISTS.has(key) || !mostlyObjects(value)) return;',
      '    if (!best || value.length > best.length) best = value;',
      '  };',
      '  for (const [key, value] of Object.entries(body)) consider(key, value);',
      '  for (const outer of Object.values(body)) if (isRecord(outer)) for (const [key, value] of Object.entries(outer)) consider(key, value);',
      '  return best;',
      '}',
      '',
    );
  }
  lines.push(`/** ${rowsWords(loop)} Its steps are numbered as that rule numbers them. */`, 'function rowsOf(body: unknown): unknown[] | undefined {');
  if (rows.names.length > 0) {
    lines.push(
      `  // ${named.step}. ${named.comment}`,
      `  for (const name of ${list(rows.names)}) {`,
      '    const found = readPath(body, name);',
      '    if (Array.isArray(found)) return found;',
      `    if (${named.nullIsEmpty.ts}) return [];`,
      '  }',
    );
  }
  if (rows.fixed) {
    lines.push('  // 3. The rows are there or nowhere: nothing else is looked at.', '  return undefined;');
  } else {
    lines.push(
      '  // 4. A top-level array.',
      '  if (Array.isArray(body)) return body;',
      '  // 5. Else the largest array of objects one or two levels down.',
      '  return isRecord(body) ? largestRowArray(body) : undefined;',
    );
  }
  lines.push('}');
  return lines;
}

/** `rows_of(body)` in Python: the rows, or None when the body has none. */
export function pythonRowsOf(loop: PagingLoop): string[] {
  const { rows } = loop;
  const named = namedStep(loop);
  const lines: string[] = [];
  if (rows.names.length > 0) {
    lines.push(
      'MISSING = object()  # what read_path returns for a path the body does not have (JSON null is None)',
      '',
      '',
      'def read_path(value, path):',
      '    """Reads a path as API Workbench does: first as one literal key (so "@odata.nextLink" works), then dotted."""',
      '    if path in ("", ".", "$"):',
      '        return value',
      '    if not isinstance(value, dict):',
      '        return MISSING',
      '    if path in value:',
      '        return value[path]',
      '    current = value',
      '    for part in path.split("."):',
      '        if not isinstance(current, dict):',
      '            return MISSING',
      '        current = current.get(part, MISSING)',
      '    return current',
      '',
      '',
    );
  }
  if (!rows.fixed) {
    lines.push(
      '# Business-error lists are never rows.',
      `ERROR_LISTS = {${ERROR_LIST_KEYS.map(q).join(', ')}}`,
      '',
      '',
      'def js_keys(obj):',
      '    """An object\'s keys in the order JavaScript (so API Workbench) lists them: integer keys ascending first."""',
      '    def index(key):',
      '        return int(key) if key.isascii() and key.isdigit() and str(int(key)) == key and int(key) < 2**32 - 1 else None',
      '    indices = sorted((index(k), k) for k in obj if index(k) is not None)',
      '    return [k for _, k in indices] + [k for k in obj if index(k) is None]',
      '',
      '',
      'def mostly_objects(items):',
      `    """An array of objects: at least ${ROWS_OBJECT_SHARE * 100}% objects among its first ${ROWS_SAMPLE} items (an empty array counts)."""`,
      '    if len(items) == 0:',
      '        return True',
      `    sample = items[:${ROWS_SAMPLE}]`,
      `    return sum(1 for item in sample if isinstance(item, dict)) / len(sample) >= ${ROWS_OBJECT_SHARE}`,
      '',
      '',
      'def largest_row_array(body):',
      '    """The largest array of objects one level down, then two; a tie keeps the one found first (the shallower)."""',
      '    candidates = [(key, body[key]) for key in js_keys(body)]',
      '    for outer in [body[key] for key in js_keys(body)]:',
      '        if isinstance(outer, dict):',
      '            candidates += [(key, outer[key]) for key in js_keys(outer)]',
      '    best = None',
      '    for key, value in candidates:',
      '        if not isinstance(value, list) or key in ERROR_LISTS or not mostly_objects(value):',
      '            continue',
      '        if best is None or len(value) > len(best):',
      '            best = value',
      '    return best',
      '',
      '',
    );
  }
  lines.push('def rows_of(body):', `    """${rowsWords(loop)} Its steps are numbered as that rule numbers them."""`);
  if (rows.names.length > 0) {
    lines.push(
      `    # ${named.step}. ${named.comment}`,
      `    for name in ${list(rows.names)}:`,
      '        found = read_path(body, name)',
      '        if isinstance(found, list):',
      '            return found',
      `        if ${named.nullIsEmpty.py}:`,
      '            return []',
    );
  }
  if (rows.fixed) {
    lines.push('    # 3. The rows are there or nowhere: nothing else is looked at.', '    return None');
  } else {
    lines.push(
      '    # 4. A top-level array.',
      '    if isinstance(body, list):',
      '        return body',
      '    # 5. Else the largest array of objects one or two levels down.',
      '    return largest_row_array(body) if isinstance(body, dict) else None',
    );
  }
  return lines;
}
