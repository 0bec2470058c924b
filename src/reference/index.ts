/**
 * The pure-TypeScript reference implementation: same API as the WASM facade, written from the
 * specifications for readability, not speed. Used to check the WASM engine byte for byte.
 */
export { Robots } from "./robots.js";
export type * from "../types.js";
export { RobotsError, isRobotsError } from "../errors.js";
export type { RobotsErrorCode } from "../errors.js";

/** API parity with the WASM facade; the reference needs no initialisation. */
export async function init(..._args: unknown[]): Promise<void> {}

/** API parity with the WASM facade; the reference needs no initialisation. */
export function initSync(..._args: unknown[]): void {}
