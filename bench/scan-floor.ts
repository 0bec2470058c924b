/**
 * The byte-scan floors of the throughput benchmark: one pass over the URL bytes that only counts
 * line feeds. No engine can classify a batch faster than it can read it once.
 *
 * - `countNewlinesJs`: a plain JS loop over a Uint8Array.
 * - `ScalarWasmScanner`: the same loop as a tiny WebAssembly module, assembled below byte by byte
 *   (one byte per step, no SIMD), so that the plain-WASM floor does not depend on the engine.
 * - The SIMD floor is the engine's own `countNewlines` export (see throughput.bench.ts).
 */
import { leb128, name, section } from "./wasm-binary.js";

/** Counts LF bytes with a JS loop. */
export function countNewlinesJs(bytes: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) count++;
  return count;
}

/**
 * `(module (memory (export "memory") 1) (func (export "count") (param $p i32) (param $n i32) (result i32) ...))`:
 * walks [p, p + n) one byte at a time and returns the number of LF bytes.
 */
function scalarScanModule(): Uint8Array<ArrayBuffer> {
  const I32 = 0x7f;
  const body = [
    0x01, 0x02, I32, //           locals: $end (2), $count (3)
    0x20, 0x00, 0x20, 0x01, 0x6a, 0x21, 0x02, //   $end = $p + $n
    0x02, 0x40, //                block
    0x03, 0x40, //                  loop
    0x20, 0x00, 0x20, 0x02, 0x4f, 0x0d, 0x01, //     br_if 1 ($p >= $end)
    0x20, 0x03, 0x20, 0x00, 0x2d, 0x00, 0x00, //     $count, i32.load8_u($p)
    0x41, 0x0a, 0x46, 0x6a, 0x21, 0x03, //           $count += (byte == 10)
    0x20, 0x00, 0x41, 0x01, 0x6a, 0x21, 0x00, //     $p += 1
    0x0c, 0x00, //                    br 0
    0x0b, //                        end loop
    0x0b, //                      end block
    0x20, 0x03, //                $count
    0x0b, //                      end
  ];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
    ...section(1, [0x01, 0x60, 0x02, I32, I32, 0x01, I32]), // type 0: (i32, i32) -> i32
    ...section(3, [0x01, 0x00]), // function 0 has type 0
    ...section(5, [0x01, 0x00, 0x01]), // one memory, min 1 page, no max
    ...section(7, [0x02, ...name("memory"), 0x02, 0x00, ...name("count"), 0x00, 0x00]),
    ...section(10, [0x01, ...leb128(body.length), ...body]),
  ]);
}

/** The plain-WASM floor: bytes copied into its own memory, then counted one byte per step. */
export class ScalarWasmScanner {
  readonly #memory: WebAssembly.Memory;
  readonly #count: (pointer: number, length: number) => number;

  constructor() {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(scalarScanModule()));
    this.#memory = instance.exports.memory as WebAssembly.Memory;
    this.#count = instance.exports.count as (pointer: number, length: number) => number;
  }

  /** Copies `bytes` to the start of memory (growing it when needed) and counts their LFs. */
  copyAndCount(bytes: Uint8Array): number {
    const missing = bytes.length - this.#memory.buffer.byteLength;
    if (missing > 0) this.#memory.grow(Math.ceil(missing / 65536));
    new Uint8Array(this.#memory.buffer).set(bytes, 0);
    return this.#count(0, bytes.length);
  }
}
