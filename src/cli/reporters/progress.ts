// A one-line progress indicator on stderr, only when stderr is a terminal: CI logs stay clean.
import { terminalSafe } from '../../core/text/terminalText';

export interface Progress {
  /** False when nothing is shown (stderr is not a terminal): a caller need not build the text. */
  readonly visible: boolean;
  update(text: string): void;
  /** Erase the line before a summary line is printed. */
  clear(): void;
}

export function createProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return { visible: false, update: () => undefined, clear: () => undefined };
  let shown = false;
  return {
    visible: true,
    update(raw) {
      const text = terminalSafe(raw);
      const width = Math.max(20, (stream.columns || 80) - 1);
      stream.write(`\r\u001b[2K${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
      shown = true;
    },
    clear() {
      if (shown) stream.write('\r\u001b[2K');
      shown = false;
    },
  };
}

/** "[███░░░░░] 3/8 listConstituents · page 4 · 2 000 rows" */
export function progressText(done: number, total: number, label: string, detail = ''): string {
  const width = 12;
  const filled = total > 0 ? Math.round((done / total) * width) : 0;
  return `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${done}/${total} ${label}${detail ? ` · ${detail}` : ''}`;
}
