/** ANSI colour for a terminal: only when the stream is a TTY, never with NO_COLOR (no-color.org) or TERM=dumb. */

export interface Palette {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

function wrap(open: number, close: number): (text: string) => string {
  return (text) => `\x1b[${open}m${text}\x1b[${close}m`;
}

const COLOURS: Palette = {
  red: wrap(31, 39),
  green: wrap(32, 39),
  yellow: wrap(33, 39),
  cyan: wrap(36, 39),
  bold: wrap(1, 22),
  dim: wrap(2, 22),
};

const identity = (text: string): string => text;
const PLAIN: Palette = { red: identity, green: identity, yellow: identity, cyan: identity, bold: identity, dim: identity };

export function paletteFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Palette {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== "";
  return stream.isTTY === true && !noColor && env.TERM !== "dumb" ? COLOURS : PLAIN;
}
