/**
 * Text cut to at most `max` UTF-16 code units without splitting a surrogate pair: a lone half
 * is not valid Unicode, and PostgreSQL refuses it (in `jsonb`) or a client mangles it.
 */
export function cutText(value: string, max: number): string {
  if (value.length <= max) return value;
  const last = value.charCodeAt(max - 1);
  // A high surrogate as the last unit kept: its low half is the first unit cut.
  return value.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/**
 * Text from outside (a webhook receiver's answer) as PostgreSQL can store it: NUL characters
 * and unpaired surrogates become U+FFFD, the replacement character.
 */
export function storableText(value: string): string {
  const wellFormed = (value as string & { toWellFormed(): string }).toWellFormed();
  return wellFormed.includes('\u0000') ? wellFormed.replaceAll('\u0000', '\uFFFD') : wellFormed;
}
