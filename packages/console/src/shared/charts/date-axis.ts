import type uPlot from 'uplot';

/** The axes' font, named so that labels are measured in the font they are drawn in. */
export const AXIS_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
/** How every chart's axes are drawn. */
export const AXIS_STYLE = { stroke: '#4f5661', font: AXIS_FONT, grid: { stroke: '#e4e7ec' } };
/** Room between two neighbouring date labels, in CSS pixels. */
const LABEL_GAP = 16;

/** How wide each text is drawn in the axes' font, in CSS pixels. */
function labelWidths(texts: string[]): number[] {
  const context = document.createElement('canvas').getContext('2d');
  if (!context) return texts.map((text) => text.length * 8);
  context.font = AXIS_FONT;
  return texts.map((text) => context.measureText(text).width);
}

/** The x ticks each chart drew last (uPlot hands them to the labels' callback). */
const drawnTicks = new WeakMap<uPlot, number[]>();

/**
 * The x axis of points 1…n evenly spaced, each labelled (`labels[i - 1]`, a date): whole steps
 * (`incrs`) at least the widest label (and a gap) apart, so labels never overlap however
 * narrow the chart; and the `draw` hook that keeps the drawn labels' boxes (left and right,
 * CSS pixels) in the element's `data-x-labels`, which the browser tests check.
 */
export function dateAxis(
  element: HTMLElement,
  labels: string[],
  incrs: number[],
): { axis: uPlot.Axis; keepLabelBoxes: (u: uPlot) => void } {
  const widths = labelWidths(labels);
  const widest = Math.max(0, ...widths);
  return {
    axis: {
      ...AXIS_STYLE,
      incrs,
      space: widest + LABEL_GAP,
      values: (u, ticks) => {
        drawnTicks.set(u, ticks);
        return ticks.map((v) => labels[v - 1] ?? '');
      },
    },
    keepLabelBoxes: (u) => {
      const boxes = (drawnTicks.get(u) ?? [])
        .filter((v) => labels[v - 1] !== undefined)
        .map((v) => {
          const centre = u.valToPos(v, 'x');
          const half = widths[v - 1] / 2;
          return [Math.round(centre - half), Math.round(centre + half)];
        });
      element.dataset.xLabels = JSON.stringify(boxes);
    },
  };
}
