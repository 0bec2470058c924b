export { init, initSync, type WasmSource } from "./init.js";
export { Robots } from "./robots.js";
export { RobotsError, isRobotsError, type RobotsErrorCode } from "./errors.js";
export { DEFAULT_MAX_BYTES } from "./options.js";
export { parseCrawlDelay, parseRequestRate } from "./records.js";
export { encodeUrl } from "./normalize.js";
export type * from "./types.js";
