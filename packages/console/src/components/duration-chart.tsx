import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { CaseHistoryItem } from '../api/cases';
import { resultTime } from './status-strip';

const HEIGHT = 220;

/**
 * The case's durations over time (uPlot on a canvas), oldest first. Loaded on its own
 * (`React.lazy`), so the console's first load does not carry uPlot. Results without a
 * duration are gaps.
 */
export default function DurationChart({ results }: { results: CaseHistoryItem[] }) {
  const box = useRef<HTMLDivElement>(null);
  const oldestFirst = [...results].reverse();
  const xs = oldestFirst.map((r) => Date.parse(resultTime(r)) / 1000);
  const ys = oldestFirst.map((r) => r.duration_ms);
  const key = JSON.stringify([xs, ys]);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const chart = new uPlot(
      {
        width: Math.max(element.clientWidth, 300),
        height: HEIGHT,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true } },
        axes: [
          { stroke: '#4f5661', grid: { stroke: '#e4e7ec' } },
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
