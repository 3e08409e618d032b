import { SetMetadata } from '@nestjs/common';

export const STREAMS_BODY = 'streamsBody';

/**
 * Marks a route whose handler streams the request's body itself (an attachment's bytes), of
 * any type and size: `ReadBodyInterceptor` leaves it unread, and the handler takes its share
 * of the memory budget.
 */
export const StreamsBody = () => SetMetadata(STREAMS_BODY, true);
