/** Timestamps as the API speaks them: ISO 8601 UTC with milliseconds, or null. */
export function isoOrNull(value: Date | null | undefined): string | null {
  return value ? value.toISOString() : null;
}
