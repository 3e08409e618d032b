import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/**
 * The scheme and host the client reached the service at (through a trusted proxy, the ones it
 * forwarded): the base of the links the service hands out when `PUBLIC_URL` is not set.
 */
export const RequestOrigin = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  const req = ctx.switchToHttp().getRequest<Request>();
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
});
