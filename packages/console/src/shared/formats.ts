/** How the console writes days and moments: English, in UTC (the service's time zone). */
export const utcDay = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

/** A moment to the minute: "3 Feb 2026, 14:05". */
export const utcMinute = new Intl.DateTimeFormat('en', {
  dateStyle: 'medium',
  timeStyle: 'short',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** A moment to the second: "3 Feb 2026, 14:05:09". */
export const utcSecond = new Intl.DateTimeFormat('en', {
  dateStyle: 'medium',
  timeStyle: 'medium',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** A moment to the minute without the year, where room is short (a chart's ticks). */
export const utcShortMinute = new Intl.DateTimeFormat('en', {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** How the console writes numbers: English, with thousands separators ("12,345.6"). */
export const number = new Intl.NumberFormat('en');

/** A share as a percentage to a tenth ("12.5%"). */
export const percentToTenths = new Intl.NumberFormat('en', {
  style: 'percent',
  maximumFractionDigits: 1,
});

/** A share as a percentage to a hundredth ("12.35%"). */
export const percentToHundredths = new Intl.NumberFormat('en', {
  style: 'percent',
  maximumFractionDigits: 2,
});

/** A duration in milliseconds: "850 ms" below a second, else "1.25 s". */
export function duration(ms: number): string {
  return ms < 1000 ? `${number.format(ms)} ms` : `${number.format(ms / 1000)} s`;
}

/** A size in bytes as people read it: "512 B", "200 KB", "1.5 MB", "2.1 GB" (binary units). */
export function bytes(size: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = size;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${new Intl.NumberFormat('en', { maximumFractionDigits: digits }).format(value)} ${units[unit]}`;
}

/** A longer duration (a run's): "850 ms", "42 s", "12 min 5 s", "1 h 12 min". */
export function longDuration(ms: number): string {
  if (ms < 60_000) return duration(ms);
  const seconds = Math.round(ms / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (hours > 0) return `${number.format(hours)} h ${minutes} min`;
  const rest = seconds % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}
