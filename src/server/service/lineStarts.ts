// Where a text's lines start, cut as the parser's splitLines cuts them (\n, \r\n, a lone \r): the one
// rule the server's block-kept text (blockText.ts, blockTree.ts) and its documents count lines by.

/** Offsets of the line starts of a text (0 first). */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  if (!text.includes('\r')) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    return starts;
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/** How many lines `text` breaks (as lineStartsOf cuts them), without making their offsets. */
export function lineBreaksIn(text: string): number {
  let breaks = 0;
  if (!text.includes('\r')) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) breaks++;
    return breaks;
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) breaks++;
  }
  return breaks;
}
