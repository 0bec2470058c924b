/**
 * WebAssembly's types as the public declarations name them. TypeScript declares `WebAssembly` and
 * `BufferSource` only in its DOM and web-worker libraries, which Node projects often leave out: a
 * declaration naming them failed such a project's type check (or, with skipLibCheck, made the
 * parameter `any`). These take WebAssembly's own types where the project has them.
 */
type Globals = typeof globalThis;

/**
 * Bytes of a WebAssembly binary: an ArrayBuffer or a typed array over one. (BufferSource also
 * admits a DataView, which V8's WebAssembly refuses: init() refuses it too.)
 */
export type WasmBytes = ArrayBuffer | Int8Array | Uint8Array | Uint8ClampedArray | Int16Array | Uint16Array | Int32Array | Uint32Array |
  Float32Array | Float64Array | BigInt64Array | BigUint64Array;

/** A compiled `WebAssembly.Module`; `never` in a project without WebAssembly's types (it cannot make one anyway). */
export type WasmModule = Globals extends { WebAssembly: { Module: { prototype: infer Module } } } ? Module : never;

/** A `WebAssembly.Memory`, or what the package reads of one where the project has no WebAssembly types. */
export type WasmMemory = Globals extends { WebAssembly: { Memory: { prototype: infer Memory } } } ? Memory
  : { readonly buffer: ArrayBuffer | SharedArrayBuffer; grow(delta: number): number };
