import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const INCOMING_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Echoes a well-formed incoming `X-Request-Id`, else makes one; every response carries it. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.get('x-request-id');
  const id = incoming !== undefined && INCOMING_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  req.id = id;
  res.setHeader('X-Request-Id', id);
  next();
}
