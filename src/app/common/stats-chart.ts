import { createCanvas } from "@napi-rs/canvas";
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartItem,
  Legend,
  LinearScale,
  Title,
} from "chart.js";
import type { DieSizeStats } from "../../rules/dice-stats.js";

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Title);

/** The chart's size: one panel per die size, stacked. */
export const CHART_WIDTH = 800;
export const CHART_PANEL_HEIGHT = 280;
/** At most this many die sizes are drawn (the most rolled ones); the embed lists them all. */
export const CHART_MAX_PANELS = 4;

export const chartHeight = (panels: number) => CHART_PANEL_HEIGHT * Math.min(panels, CHART_MAX_PANELS);

export interface ChartLabels {
  observed: string;
  expected: string;
  /** The title of one die size's panel, e.g. "d6 — 120 dice". */
  title(stats: DieSizeStats): string;
}

/**
 * A PNG bar chart of how often each face came up against a fair die's expectation, one panel per
 * die size (chart.js drawn on a native canvas).
 */
export function renderDiceChart(sizes: readonly DieSizeStats[], labels: ChartLabels): Uint8Array {
  const panels = sizes.slice(0, CHART_MAX_PANELS);
  const canvas = createCanvas(CHART_WIDTH, chartHeight(panels.length));
  const page = canvas.getContext("2d");
  page.fillStyle = "#ffffff";
  page.fillRect(0, 0, canvas.width, canvas.height);
  panels.forEach((stats, index) => {
    const panel = createCanvas(CHART_WIDTH, CHART_PANEL_HEIGHT);
    const chart = new Chart(panel.getContext("2d") as unknown as ChartItem, {
      type: "bar",
      data: {
        labels: stats.faceCounts.map((_, face) => String(face + 1)),
        datasets: [
          { label: labels.observed, data: stats.faceCounts, backgroundColor: "#5865f2" },
          {
            label: labels.expected,
            data: stats.faceCounts.map(() => stats.expectedPerFace),
            backgroundColor: "#b9bbbe",
          },
        ],
      },
      options: {
        responsive: false,
        animation: false,
        devicePixelRatio: 1,
        plugins: { title: { display: true, text: labels.title(stats) } },
        scales: { y: { beginAtZero: true } },
      },
    });
    page.drawImage(panel, 0, index * CHART_PANEL_HEIGHT);
    chart.destroy();
  });
  return new Uint8Array(canvas.toBuffer("image/png"));
}
