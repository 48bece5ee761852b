// PLACEHOLDER results panel (issue 6 replaces it).
export {};
