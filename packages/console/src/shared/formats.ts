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
