/**
 * bench/throughput.svg, written by hand (no plotting library): URLs/s against the number of rules,
 * both axes log scale, one line per engine over the generated workloads, the real corpus files as
 * open markers, machine and Node version in the caption.
 */
import { describeMachine, type Machine, type ThroughputTaskId, type WorkloadResult } from "./measure.js";

interface Series {
  task: ThroughputTaskId;
  label: string;
  colour: string;
  dashed?: boolean;
}

const SERIES: readonly Series[] = [
  { task: "floor-simd", label: "floor: SIMD byte scan (copy + scan)", colour: "#9e9e9e", dashed: true },
  { task: "wasm-parallel", label: "WASM pool, 2 workers, classify(bytes)", colour: "#6a1b9a" },
  { task: "wasm-parallel-shared", label: "WASM pool, 2 workers, shared bytes", colour: "#6a1b9a", dashed: true },
  { task: "wasm-bytes", label: "WASM classify(bytes)", colour: "#1565c0" },
  { task: "wasm-strings", label: "WASM classify(string[])", colour: "#2e7d32" },
  { task: "wasm-single", label: "WASM isAllowed per URL", colour: "#ef6c00" },
  { task: "robots-parser", label: "robots-parser isAllowed", colour: "#c62828" },
  { task: "reference", label: "reference (TypeScript)", colour: "#795548" },
];

const WIDTH = 860;
const HEIGHT = 550;
const PLOT = { left: 80, top: 40, right: 560, bottom: 440 };

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function decadeLabel(exponent: number): string {
  const value = 10 ** exponent;
  if (value >= 1e9) return `${value / 1e9}G`;
  if (value >= 1e6) return `${value / 1e6}M`;
  if (value >= 1e3) return `${value / 1e3}k`;
  return String(value);
}

export function throughputChart(results: readonly WorkloadResult[], info: Machine, urlCount: number): string {
  const generated = results.filter((result) => result.kind === "generated" && result.rules > 0);
  const corpus = results.filter((result) => result.kind === "corpus" && result.rules > 0);
  const plotted = [...generated, ...corpus];
  const values = plotted.flatMap((result) => result.throughput.filter((row) => SERIES.some((s) => s.task === row.task)).map((row) => row.urlsPerSecond));
  const rules = plotted.map((result) => result.rules);
  const xMin = Math.floor(Math.log10(Math.min(...rules)));
  const xMax = Math.ceil(Math.log10(Math.max(...rules)));
  // Half a decade of headroom above the highest point keeps it clear of the workload labels.
  const yMin = Math.floor(Math.log10(Math.min(...values)));
  const yMax = Math.ceil(Math.log10(Math.max(...values)) + 0.5);
  const x = (count: number) => PLOT.left + ((Math.log10(count) - xMin) / (xMax - xMin)) * (PLOT.right - PLOT.left);
  const y = (rate: number) => PLOT.bottom - ((Math.log10(rate) - yMin) / (yMax - yMin)) * (PLOT.bottom - PLOT.top);
  const point = (value: number) => value.toFixed(1);

  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="Helvetica, Arial, sans-serif" font-size="12">`);
  out.push(`<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`);
  out.push(`<text x="${PLOT.left}" y="24" font-size="15" font-weight="bold">robots.txt matching throughput against file size (single thread unless noted)</text>`);

  // Grid and axes.
  for (let exponent = yMin; exponent <= yMax; exponent++) {
    const at = point(y(10 ** exponent));
    out.push(`<line x1="${PLOT.left}" y1="${at}" x2="${PLOT.right}" y2="${at}" stroke="#e0e0e0"/>`);
    out.push(`<text x="${PLOT.left - 8}" y="${at}" text-anchor="end" dominant-baseline="middle">${decadeLabel(exponent)}</text>`);
  }
  for (let exponent = xMin; exponent <= xMax; exponent++) {
    const at = point(x(10 ** exponent));
    out.push(`<line x1="${at}" y1="${PLOT.top}" x2="${at}" y2="${PLOT.bottom}" stroke="#e0e0e0"/>`);
    out.push(`<text x="${at}" y="${PLOT.bottom + 18}" text-anchor="middle">${decadeLabel(exponent)}</text>`);
  }
  out.push(`<rect x="${PLOT.left}" y="${PLOT.top}" width="${PLOT.right - PLOT.left}" height="${PLOT.bottom - PLOT.top}" fill="none" stroke="#424242"/>`);
  out.push(`<text x="${(PLOT.left + PLOT.right) / 2}" y="${PLOT.bottom + 40}" text-anchor="middle">allow/disallow rules in the robots.txt (log scale)</text>`);
  out.push(`<text transform="translate(22 ${(PLOT.top + PLOT.bottom) / 2}) rotate(-90)" text-anchor="middle">URLs per second (log scale)</text>`);
  for (const result of generated) {
    out.push(`<text x="${point(x(result.rules))}" y="${PLOT.top + 14}" text-anchor="middle" fill="#616161">${escapeXml(result.name)}</text>`);
  }
  for (const result of corpus) {
    out.push(`<text x="${point(x(result.rules))}" y="${PLOT.top + 28}" text-anchor="middle" fill="#616161" font-style="italic">${escapeXml(result.name.replace("corpus-", ""))}</text>`);
  }

  // One line per engine over the generated files; open markers for the real files.
  for (const series of SERIES) {
    const points = generated
      .map((result) => ({ rules: result.rules, row: result.throughput.find((row) => row.task === series.task) }))
      .filter((entry) => entry.row !== undefined && entry.row.urlsPerSecond > 0);
    if (points.length > 1) {
      const path = points.map((entry, i) => `${i === 0 ? "M" : "L"}${point(x(entry.rules))},${point(y(entry.row!.urlsPerSecond))}`).join(" ");
      out.push(`<path d="${path}" fill="none" stroke="${series.colour}" stroke-width="2"${series.dashed ? ' stroke-dasharray="6 4"' : ""}/>`);
    }
    for (const entry of points) {
      out.push(`<circle cx="${point(x(entry.rules))}" cy="${point(y(entry.row!.urlsPerSecond))}" r="3.5" fill="${series.colour}"/>`);
    }
    for (const result of corpus) {
      const row = result.throughput.find((candidate) => candidate.task === series.task);
      if (row === undefined || row.urlsPerSecond <= 0) continue;
      out.push(`<circle cx="${point(x(result.rules))}" cy="${point(y(row.urlsPerSecond))}" r="4.5" fill="#ffffff" stroke="${series.colour}" stroke-width="1.5"/>`);
    }
  }

  // Legend.
  let legendY = PLOT.top + 10;
  for (const series of SERIES) {
    out.push(`<line x1="${PLOT.right + 24}" y1="${legendY}" x2="${PLOT.right + 54}" y2="${legendY}" stroke="${series.colour}" stroke-width="2"${series.dashed ? ' stroke-dasharray="6 4"' : ""}/>`);
    out.push(`<circle cx="${PLOT.right + 39}" cy="${legendY}" r="3.5" fill="${series.colour}"/>`);
    out.push(`<text x="${PLOT.right + 62}" y="${legendY}" dominant-baseline="middle">${escapeXml(series.label)}</text>`);
    legendY += 22;
  }
  if (corpus.length > 0) {
    legendY += 6;
    out.push(`<circle cx="${PLOT.right + 39}" cy="${legendY}" r="4.5" fill="#ffffff" stroke="#424242" stroke-width="1.5"/>`);
    out.push(`<text x="${PLOT.right + 62}" y="${legendY}" dominant-baseline="middle">real files of the corpus (${escapeXml(corpus.map((result) => result.name.replace("corpus-", "")).join(", "))})</text>`);
  }

  // Caption: what was measured, where.
  const caption = [
    `Warm medians, ${urlCount.toLocaleString("en-US")} URLs per batch (robots-parser, the reference and isAllowed on a prefix), google profile, agent Googlebot.`,
    escapeXml(describeMachine(info)),
  ];
  caption.forEach((line, i) => out.push(`<text x="${PLOT.left}" y="${HEIGHT - 32 + i * 16}" fill="#424242" font-size="11">${line}</text>`));
  out.push("</svg>");
  return out.join("\n") + "\n";
}
