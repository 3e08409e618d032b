/** One line of a progress bar, redrawn in place on a terminal: `[#####-----] 3/8 reports, 120 results`. */
export function progressLine(done: number, total: number, results: number, width = 20): string {
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} reports, ${results} results`;
}
