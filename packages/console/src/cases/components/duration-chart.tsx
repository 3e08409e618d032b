import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { CaseHistoryItem } from '../api/cases';
import { utcShortMinute } from '../../shared/formats';
import { resultTime } from './status-strip';

const HEIGHT = 220;

/**
 * The case's durations, result after result (uPlot on a canvas), oldest first: evenly spaced
 * like the status strip above it, each labelled with when it was reported (UTC), since runs
 * come at uneven times (nightly, then ten in an hour). Loaded on its own (`React.lazy`), so the
 * console's first load does not carry uPlot. Results without a duration are gaps.
 */
export default function DurationChart({ results }: { results: CaseHistoryItem[] }) {
  const box = useRef<HTMLDivElement>(null);
  const oldestFirst = [...results].reverse();
  const xs = oldestFirst.map((_r, i) => i + 1);
  const labels = oldestFirst.map((r) => utcShortMinute.format(new Date(resultTime(r))));
  const ys = oldestFirst.map((r) => r.duration_ms);
  const key = JSON.stringify([labels, ys]);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const chart = new uPlot(
      {
        width: Math.max(element.clientWidth, 300),
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: false, range: [0.5, xs.length + 0.5] } },
        axes: [
          {
            stroke: '#4f5661',
            grid: { stroke: '#e4e7ec' },
            // Whole steps only: a tick is a result, named by when it was reported.
            incrs: [1, 2, 5, 10, 20, 50, 100],
            values: (_u, ticks) => ticks.map((v) => labels[v - 1] ?? ''),
          },
          {
            stroke: '#4f5661',
            grid: { stroke: '#e4e7ec' },
            size: 70,
            values: (_u, ticks) => ticks.map((v) => `${v} ms`),
          },
        ],
        series: [
          {},
          {
            label: 'Duration (ms)',
            stroke: '#0b57d0',
            width: 2,
            points: { show: true, size: 6, fill: '#0b57d0' },
            spanGaps: false,
          },
        ],
      },
      [xs, ys],
      element,
    );
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(element.clientWidth, 300), height: HEIGHT }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
    // The data's content (`key`), not its arrays' identity, decides a redraw.
  }, [key]);

  const points = ys.filter((y) => y !== null).length;
  return <div ref={box} className="duration-chart" data-points={points} />;
}
