import { ApiError } from '../../common/errors/api-error.js';
import { EVENT_TYPE_NAMES } from '../../events/event-types.js';
import type { CreateWebhookDto } from './webhook.dto.js';

/** A subscription to create, as the service takes it: its input already checked. */
export interface CreateWebhookCommand {
  url: string;
  /** Known event types without repeats, or `['*']` alone. */
  events: string[];
  description: string | null;
}

/**
 * The command of a `POST /webhooks` body that passed the validation pipe: the events are
 * checked here, where the message can name the offending item (`events[2]`).
 */
export function createWebhookCommand(dto: CreateWebhookDto): CreateWebhookCommand {
  return { url: dto.url, events: eventTypes(dto.events), description: dto.description ?? null };
}

/** `events[i]` of a subscription: known types, or `*` alone. */
function eventTypes(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw ApiError.invalidField(
      'events',
      'events must be a non-empty array of event types, or ["*"]',
    );
  }
  value.forEach((type, i) => {
    if (typeof type !== 'string' || (type !== '*' && !EVENT_TYPE_NAMES.includes(type))) {
      throw ApiError.invalidField(
        `events[${i}]`,
        `events[${i}] must be one of ${EVENT_TYPE_NAMES.join(', ')} or *`,
      );
    }
  });
  const unique = [...new Set(value as string[])];
  return unique.includes('*') ? ['*'] : unique;
}
