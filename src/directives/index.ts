/** Indexing directives: robots meta tags and X-Robots-Tag headers (re-exported by src/index.ts). */
export { IndexingDirectives, extractMetaTags, type PageSource } from "./page.js";
export { xRobotsTagValues } from "./headers.js";
export { parseDirectiveDate } from "./dates.js";
export { MAX_PAGE_BYTES } from "./scan.js";
export type * from "./types.js";
