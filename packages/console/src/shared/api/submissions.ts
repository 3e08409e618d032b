import { useState } from 'react';

/**
 * The `Idempotency-Key` header of each submission of one form while it is mounted: the same
 * body sent again (a retry after the network failed, when nobody knows whether the service
 * stored it) carries the same key, so the service answers with what it did the first time
 * instead of doing it twice (CONTRACT §9); a changed body (the form corrected after a refusal)
 * gets a key of its own, since a key reused for another body is refused.
 */
export function useSubmissionKey(): (body: unknown) => Promise<{ 'Idempotency-Key': string }> {
  const [form] = useState(() => crypto.randomUUID());
  return async (body) => {
    const bytes = new TextEncoder().encode(JSON.stringify(body));
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    const hex = Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, '0'));
    return { 'Idempotency-Key': `console-${form}-${hex.join('')}` };
  };
}
