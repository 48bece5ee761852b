// LSP enum values the service needs, written out so the pure service imports only types from
// vscode-languageserver (no connection code comes with it).
export const CompletionItemKind = { Method: 2, Field: 5, Variable: 6, Property: 10, Value: 12, Keyword: 14, Snippet: 15, Reference: 18, EnumMember: 20, Operator: 24 } as const;
export const InsertTextFormat = { PlainText: 1, Snippet: 2 } as const;
export const DiagnosticSeverity = { Error: 1, Warning: 2, Information: 3, Hint: 4 } as const;
export const SymbolKind = { Module: 2, Method: 6, Function: 12 } as const;
export const DiagnosticTag = { Deprecated: 2 } as const;
