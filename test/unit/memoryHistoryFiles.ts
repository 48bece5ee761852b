// Test helper: an in-memory HistoryFiles (the store's file port), its contents open to the test.
import type { HistoryFiles } from '../../src/core/history/store';

export function memoryHistoryFiles(): HistoryFiles & { readonly contents: Map<string, string> } {
  const contents = new Map<string, string>();
  return {
    contents,
    read: (name) => Promise.resolve(contents.get(name)),
    write: (name, text) => {
      contents.set(name, text);
      return Promise.resolve();
    },
    remove: (name) => {
      contents.delete(name);
      return Promise.resolve();
    },
    list: () => Promise.resolve([...contents.keys()]),
    size: (name) => {
      const text = contents.get(name);
      return Promise.resolve(text === undefined ? undefined : Buffer.byteLength(text, 'utf8'));
    },
  };
}
