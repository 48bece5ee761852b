// JSON.stringify(value, null, 2), but only up to `limit` characters. The panel shows at most the first
// million characters of a body; pretty-printing a 100 000-row page in full to keep 3 % of it took ~400 ms.
// A number kept as the server wrote it (NumberText: 12345678901234567890, 1.10) is written as that text.
import { NumberText } from '../json/numberText';

/** Thrown to end the walk once the limit is reached (an Error: nothing but errors is thrown). */
const STOP = new Error('limit reached');

export function prettyJsonPrefix(value: unknown, limit: number): { text: string; complete: boolean } {
  const out: string[] = [];
  let length = 0;
  const push = (chunk: string) => {
    out.push(chunk);
    length += chunk.length;
    if (length > limit) throw STOP;
  };
  const write = (v: unknown, indent: string): void => {
    if (v === null || typeof v !== 'object') {
      push(JSON.stringify(v) ?? 'null');
      return;
    }
    if (v instanceof NumberText) return push(v.text);
    if (typeof (v as { toJSON?: unknown }).toJSON === 'function') {
      write((v as { toJSON: () => unknown }).toJSON(), indent);
      return;
    }
    const inner = `${indent}  `;
    if (Array.isArray(v)) {
      if (v.length === 0) return push('[]');
      push('[\n');
      for (let i = 0; i < v.length; i++) {
        push(inner);
        write(v[i], inner);
        push(i < v.length - 1 ? ',\n' : '\n');
      }
      return push(`${indent}]`);
    }
    const entries = Object.entries(v).filter(([, item]) => item !== undefined && typeof item !== 'function');
    if (entries.length === 0) return push('{}');
    push('{\n');
    entries.forEach(([key, item], i) => {
      push(`${inner}${JSON.stringify(key)}: `);
      write(item, inner);
      push(i < entries.length - 1 ? ',\n' : '\n');
    });
    push(`${indent}}`);
  };
  try {
    write(value, '');
    return { text: out.join(''), complete: true };
  } catch (e) {
    if (e !== STOP) throw e;
    return { text: out.join('').slice(0, limit), complete: false };
  }
}
