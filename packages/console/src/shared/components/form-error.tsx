/** The service's refusal of what a form or a dialog asked, read out when it appears. */
export function FormError({ error }: { error: Error | null }) {
  return error ? (
    <p className="form-error" role="alert">
      {error.message}
    </p>
  ) : null;
}
