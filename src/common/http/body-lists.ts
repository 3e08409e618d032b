import { SetMetadata } from '@nestjs/common';
import { ApiError } from '../errors/api-error.js';
import { ErrorCode } from '../errors/error-codes.js';
import type { ListBounds, ListsOverflow } from './json-depth.js';

export const BODY_LISTS = 'body_lists';

/** A route's bound on its JSON body's lists, checked on the raw bytes before parsing. */
export interface BodyListsRule {
  /** Items any list may hold. */
  items: number;
  /** Objects and lists the whole body may hold. */
  containers: number;
  /** The answer to a list of the top-level object (e.g. `results`) longer than `items`. */
  tooManyItems: () => ApiError;
  /**
   * The bounds of a body that is not the command (an object whose `results` is a list) but a
   * report a runner wrote (CONTRACT §14), on a route that takes both; the bounds above are then
   * the command's only.
   */
  report?: ListBounds;
}

/**
 * Marks a route whose JSON body holds at most `items` items in any list (e.g. `results`) and
 * at most `containers` objects and lists in all: a body beyond either is refused (413) while it
 * is read, before it is parsed, so a body of 200,000 tiny items never becomes 200,000 objects.
 */
export const ListsInBodyAtMost = (rule: BodyListsRule) => SetMetadata(BODY_LISTS, rule);

/** The answer (413) to a body beyond its route's `BodyListsRule`. */
export function listsOverflowError(
  rule: BodyListsRule,
  overflow: Exclude<ListsOverflow, 'deep'>,
): ApiError {
  if (overflow === 'results') return rule.tooManyItems();
  const bounds =
    overflow === 'report_list' || overflow === 'report_containers' ? (rule.report ?? rule) : rule;
  const list = overflow === 'list' || overflow === 'report_list';
  const message = list
    ? `A list in the body holds more than ${bounds.items} items.`
    : `The body holds more than ${bounds.containers} objects and lists.`;
  return new ApiError(413, ErrorCode.PayloadTooLarge, message, {
    limit: list ? bounds.items : bounds.containers,
  });
}
