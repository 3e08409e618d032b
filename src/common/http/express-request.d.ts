import 'express-serve-static-core';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the request-id middleware for every request. */
    id: string;
  }
}
