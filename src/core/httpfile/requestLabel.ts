// How a request of a .http file is named to the user, everywhere: its `# @name` (else its `###` title),
// or, unnamed, its place among the file's requests.
import type { HttpFile } from './model';

export function requestLabel(file: HttpFile, index: number): string {
  return file.requests.find((r) => r.index === index)?.name ?? `request ${index + 1}`;
}
