/**
 * "Export CSV": a download of what `href` streams (the browser sends the session's cookie, same
 * origin). A link, not a button: the service streams the file, the page never holds it. Its
 * title says what the file holds.
 */
export function ExportCsvLink({ href, what }: { href: string; what: string }) {
  return (
    <a className="button secondary" href={href} download title={`Download ${what} as CSV`}>
      Export CSV
    </a>
  );
}
