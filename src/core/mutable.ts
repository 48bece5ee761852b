// The writable form of a readonly type, for an object set one property at a time before it is handed out
// as that type. The hot paths of a run (the exchange, the walker, `apiwb run`'s outcome) build their
// objects so: in V8 each property after a spread in an object literal is defined through the runtime.

export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
