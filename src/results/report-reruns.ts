import { isRetry, MAX_KEPT_ATTEMPTS, type ResultAttempt, type ResultItem } from './result-items.js';

/** An execution's final attempt, as an earlier attempt of a later one. */
export function attemptOf(item: ResultItem): ResultAttempt {
  const { status, durationMs, message, failureType, stackTrace } = item;
  return { status, durationMs, message, failureType, stackTrace };
}

/**
 * A report's results with the reruns of one execution merged (CONTRACT §13, §14): a test that
 * appears again with the same configuration (gotestsum's `--rerun-fails` writes it twice) is
 * another attempt, in document order, and the last is final. The merged result takes the
 * place of the first; the earlier ones, with their own attempts, become its attempts (the
 * oldest beyond 20 dropped, still counted in `retries`). One pass with a map: linear.
 * Items name their case by automation id; the configuration must already be decided.
 */
export function mergeReruns(items: ResultItem[]): ResultItem[] {
  const merged: ResultItem[] = [];
  // Per configuration (null for none), the place of each automation id's execution.
  const places = new Map<string | null, Map<string, number>>();
  for (const item of items) {
    const id = item.automationId ?? '';
    let ofConfiguration = places.get(item.configuration);
    if (ofConfiguration === undefined) {
      ofConfiguration = new Map();
      places.set(item.configuration, ofConfiguration);
    }
    const place = ofConfiguration.get(id);
    if (place === undefined) {
      ofConfiguration.set(id, merged.length);
      merged.push(item);
    } else {
      merged[place] = rerun(merged[place], item);
    }
  }
  return merged;
}

/** `later` as the final attempt after `earlier` and its attempts. */
function rerun(earlier: ResultItem, later: ResultItem): ResultItem {
  const attempts = [...earlier.attempts, attemptOf(earlier), ...later.attempts];
  return {
    ...later,
    attempts: attempts.length > MAX_KEPT_ATTEMPTS ? attempts.slice(-MAX_KEPT_ATTEMPTS) : attempts,
    retries: earlier.retries + (isRetry(earlier.status) ? 1 : 0) + later.retries,
  };
}
