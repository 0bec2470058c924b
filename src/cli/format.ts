/** Text helpers shared by the commands' human-readable output. */

/** Longest source line shown in context; longer lines are cut with an ellipsis. */
const SHOWN_LINE_CHARS = 120;

export function clip(text: string): string {
  return text.length > SHOWN_LINE_CHARS ? `${text.slice(0, SHOWN_LINE_CHARS - 1)}…` : text;
}

export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** "the group at line 3" / "the groups at lines 3 and 10". */
export function groupLines(lines: readonly number[]): string {
  if (lines.length === 1) return `the group at line ${lines[0]}`;
  return `the groups at lines ${lines.slice(0, -1).join(", ")} and ${lines[lines.length - 1]}`;
}
