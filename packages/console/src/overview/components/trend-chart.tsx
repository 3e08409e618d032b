import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { AXIS_STYLE, dateAxis } from '../../shared/charts/date-axis';
import { utcShortMinute } from '../../shared/formats';
import type { OverviewRun } from '../api/overview';

/** One measure of a run that a trend charts: its name, value and how the value reads. */
export interface TrendMeasure {
  /** "Pass rate": the chart's name is "<label> over the last N runs". */
  label: string;
  value: (run: OverviewRun) => number | null;
  /** A value as the hover and the axis write it ("98.4%"). */
  format: (value: number) => string;
  colour: string;
  /** The y scale's bounds, when the measure has some (a rate: 0 to 1). */
  bounds?: [number, number];
  /** Counted in whole numbers: no tick between two. */
  whole?: boolean;
}

const HEIGHT = 170;
const WHOLE_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000];

/** The y scale: the data's span with a margin, kept within the measure's bounds. */
function yRange(
  min: number | null,
  max: number | null,
  bounds?: [number, number],
): uPlot.Range.MinMax {
  const low = min ?? 0;
  const high = max ?? 1;
  const margin = Math.max((high - low) * 0.15, Math.abs(high) * 0.02, bounds ? 0.005 : 1);
  const range: [number, number] = [low - margin, high + margin];
  if (bounds) return [Math.max(bounds[0], range[0]), Math.min(bounds[1], range[1])];
  return [Math.max(0, range[0]), range[1]];
}

/**
 * One measure of a series' runs, oldest first, evenly spaced (uPlot on a canvas), each run
 * labelled with when it was created (UTC); date ticks are spaced by the widest label, so they
 * never overlap (their boxes are kept in `data-x-labels`, as the duration chart's). Hovering a
 * run writes its value beneath the chart (`data-hover`); the page's table says the same for
 * every run, for whoever does not see the chart. Loaded on its own (`React.lazy`) with uPlot.
 */
export default function TrendChart({
  runs,
  measure,
}: {
  runs: OverviewRun[];
  measure: TrendMeasure;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [hovered, setHovered] = useState<number | null>(null);
  const xs = runs.map((_r, i) => i + 1);
  const labels = runs.map((r) => utcShortMinute.format(new Date(r.created_at)));
  const ys = runs.map(measure.value);
  const key = JSON.stringify([labels, ys, measure.label]);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const { axis: xAxis, keepLabelBoxes } = dateAxis(element, labels, [1, 2, 5, 10, 20, 50, 100]);
    const chart = new uPlot(
      {
        width: Math.max(element.clientWidth, 260),
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false }, points: { size: 8 } },
        scales: {
          x: { time: false, range: [0.5, xs.length + 0.5] },
          y: { range: (_u, min, max) => yRange(min, max, measure.bounds) },
        },
        axes: [
          xAxis,
          {
            ...AXIS_STYLE,
            size: 64,
            ...(measure.whole ? { incrs: WHOLE_STEPS } : {}),
            values: (_u, ticks) => ticks.map((v) => measure.format(v)),
          },
        ],
        hooks: {
          draw: [keepLabelBoxes],
          setCursor: [
            (u) => {
              const index = u.cursor.idx;
              setHovered(index === null || index === undefined ? null : index);
            },
          ],
        },
        series: [
          {},
          {
            label: measure.label,
            stroke: measure.colour,
            width: 2,
            points: { show: true, size: 6, fill: measure.colour },
            spanGaps: false,
          },
        ],
      },
      [xs, ys],
      element,
    );
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(element.clientWidth, 260), height: HEIGHT }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
    // The data's content (`key`), not its arrays' identity, decides a redraw.
  }, [key]);

  const run = hovered === null ? undefined : runs[hovered];
  const value = run ? measure.value(run) : null;
  return (
    <>
      <div ref={box} className="trend-chart" data-points={ys.length} />
      <p className="chart-hover muted" data-hover={run ? run.id : ''}>
        {run
          ? `${run.name}, ${utcShortMinute.format(new Date(run.created_at))} UTC${
              run.build?.build_number ? `, build ${run.build.build_number}` : ''
            }: ${measure.label.toLowerCase()} ${value === null ? 'none' : measure.format(value)}`
          : 'Point at a run to read its value.'}
      </p>
    </>
  );
}
