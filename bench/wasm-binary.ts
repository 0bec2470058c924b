/**
 * Pieces of the WebAssembly binary format, for modules assembled byte by byte: the scan floor's
 * tiny module (scan-floor.ts) and the tests' modules that only look like the engine.
 */

/** Unsigned LEB128, as section and vector sizes are written. */
export function leb128(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
}

/** A section: its id, then its content's size and the content. */
export function section(id: number, content: number[]): number[] {
  return [id, ...leb128(content.length), ...content];
}

/** A name (an export's, an import's): its length, then its bytes (ASCII names only). */
export function name(text: string): number[] {
  return [...leb128(text.length), ...Array.from(text, (char) => char.charCodeAt(0))];
}
