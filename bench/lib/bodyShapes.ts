// JSON bodies of every shape a single response comes in, at a given size, built in memory once: the rows
// one level down or at the top, three levels down (a style's items= path), one big object (a map of
// records), one big string, an array of numbers, and two rows, the first holding one value as large as the
// body (at the top, and one level down). Served by replayServer.ts, so the single-response bench measures
// the client on each shape.
export type ShapeName = 'array of row objects' | 'rows one level down' | 'rows three levels down' | 'one big object' | 'one big string' | 'array of numbers' | 'one row of one huge value' | 'one huge value one level down';

export const SHAPES: readonly ShapeName[] = ['array of row objects', 'rows one level down', 'rows three levels down', 'one big object', 'one big string', 'array of numbers', 'one row of one huge value', 'one huge value one level down'];

/** What the request of a shape says beside its URL: where a style finds rows three levels down. */
export const SHAPE_DIRECTIVES: Readonly<Partial<Record<ShapeName, string>>> = { 'rows three levels down': '# @paging generic items=result.data.page' };

/** The rows three levels down: siblings at every level, as an API's envelope has them. */
const DEEP_HEAD = '{"status":"ok","result":{"meta":{"count":null,"tags":["a","b"]},"data":{"kind":"page","page":[';
const DEEP_TAIL = '],"more":false},"took":12}}';

export function row(i: number): string {
  return `{"id":${i},"name":"Customer ${i} of the bench","city":"Springfield","amount":${(i % 997) * 1.25},"active":${i % 2 === 0},"code":"C-${(i * 7919) % 100000}"}`;
}

/** A body of about `megabytes` MB of the shape, and the rows the one rows rule finds in it (0: none). */
export function shapeBody(shape: ShapeName, megabytes: number): { body: Buffer; rows: number } {
  const target = megabytes * 1048576;
  const parts: string[] = [];
  let size = 0;
  let count = 0;
  const push = (text: string): void => {
    parts.push(text);
    size += text.length;
  };
  switch (shape) {
    case 'one big string': {
      const unit = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
      return { body: Buffer.from(`"${unit.repeat(Math.ceil(target / unit.length))}"`), rows: 0 };
    }
    case 'one row of one huge value':
      return { body: Buffer.from(`[{"id":0,"blob":"${'x'.repeat(target)}"},{"id":1}]`), rows: 2 };
    case 'one huge value one level down':
      return { body: Buffer.from(`{"Data":[{"id":0,"blob":"${'x'.repeat(target)}"},{"id":1}]}`), rows: 2 };
    case 'array of numbers':
      push('[');
      while (size < target) push(`${count ? ',' : ''}${count++ * 3 + 0.5}`);
      push(']');
      return { body: Buffer.from(parts.join('')), rows: count };
    case 'one big object':
      push('{');
      while (size < target) push(`${count ? ',' : ''}"r${String(count).padStart(8, '0')}":${row(count++)}`);
      push('}');
      return { body: Buffer.from(parts.join('')), rows: 0 };
    default: {
      const [head, tail] = shape === 'rows one level down' ? ['{"Data":[', ']}'] : shape === 'rows three levels down' ? [DEEP_HEAD, DEEP_TAIL] : ['[', ']'];
      push(head);
      while (size < target) push(`${count ? ',' : ''}${row(count++)}`);
      push(tail);
      return { body: Buffer.from(parts.join('')), rows: count };
    }
  }
}

/**
 * One object of `arrays` keys, each holding a short array of objects one level down (`"k0":[{…},{…}]`) or
 * two (`"k0":{"v":[{…}]}`), then a 2 000-row `Data` array: the rows the rule finds. Every small array is
 * a place the rows might be, so each is weighed as it passes.
 */
export function manySmallArrays(arrays: number, depth: 1 | 2): { body: Buffer; rows: number } {
  const parts: string[] = [];
  for (let i = 0; i < arrays; i++) parts.push(depth === 1 ? `"k${i}":[{"i":${i}},{"j":${i}}]` : `"k${i}":{"v":[{"i":${i}}]}`);
  const rows = 2000;
  const data: string[] = [];
  for (let i = 0; i < rows; i++) data.push(row(i));
  return { body: Buffer.from(`{${parts.join(',')},"Data":[${data.join(',')}]}`), rows };
}
