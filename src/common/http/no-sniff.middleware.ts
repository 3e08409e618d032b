import type { NextFunction, Request, Response } from 'express';

/**
 * Marks every response `X-Content-Type-Options: nosniff` (CONTRACT §1): a browser takes its
 * declared type and never guesses another (a JSON error echoing input is never run as a
 * script). Answers written outside Express (`client-error.ts`) carry it too.
 */
export function noSniff(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
}
