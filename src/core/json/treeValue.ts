// The value of a parsed JSON-with-comments tree (jsonc-parser's, which the env files are read into), as
// parse() would give it but for numbers: a number whose String() is not its text as written
// (12345678901234567890, 1.50, 1E2) is a NumberText holding that text, as parseKeepingNumbers gives
// one of a JSON line (./numberText.ts). A key given twice keeps its last value; every key, `__proto__`
// too, is a field of its own, as JSON.parse makes it.
import type { Node } from 'jsonc-parser';
import { NumberText } from './numberText';

/** The value of `node` of a tree parsed from `text` (its depth measured before: this walk recurses). */
export function treeValue(node: Node, text: string): unknown {
  switch (node.type) {
    case 'object': {
      const object: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (key === undefined || value === undefined) continue;
        Object.defineProperty(object, String(key.value), { value: treeValue(value, text), enumerable: true, writable: true, configurable: true });
      }
      return object;
    }
    case 'array': return (node.children ?? []).map((item) => treeValue(item, text));
    case 'number': {
      const written = text.slice(node.offset, node.offset + node.length);
      return String(node.value) === written ? node.value as number : new NumberText(written);
    }
    default: return node.value as unknown;
  }
}
