/**
 * A filename as the value of `Content-Disposition`'s `filename*` (RFC 8187's ext-value, after
 * `UTF-8''`): its UTF-8 bytes percent-encoded but for RFC 8187's attr-chars. `encodeURIComponent`
 * alone leaves `'`, `(`, `)` and `*`, which an ext-value may not hold: a file named
 * `screenshot (1).png` or a run named `Bob's run` otherwise makes a value that strict parsers
 * refuse whole (and then fall back to the ASCII `filename`).
 */
export function extValue(name: string): string {
  return encodeURIComponent(name).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
