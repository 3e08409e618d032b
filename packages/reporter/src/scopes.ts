import type { Command } from './args.js';
import { dataOf, type ServiceClient } from './client.js';
import { ReporterError, asEnvelope } from './errors.js';

/** The scopes a command may find missing only once something was sent, and what each is for. */
const PURPOSE = {
  'testruns:create': 'to create or join the run',
  'results:submit': 'to send the results',
  'testruns:update': 'to complete or reopen the run',
  'testruns:read': 'to read the run and its gate',
  'results:read': "to read the gate's comparison and failures",
} as const;

export type Scope = keyof typeof PURPOSE;

/** A well-formed id that names nothing: a probe's path id. */
const NO_ID = '00000000-0000-4000-8000-000000000000';

/**
 * For each scope, a call to a route that needs it and that can change nothing: the service
 * checks the scope before the input (CONTRACT §3), so the call answers 403
 * `insufficient_scope` when the key lacks it, and else refuses the input (400) or the id (404).
 * No service route tells a key its scopes; each probe costs one call of the monthly quota.
 */
const PROBES: Record<
  Scope,
  (client: ServiceClient) => Promise<{ error?: unknown; response: Response }>
> = {
  'testruns:create': (client) => client.POST('/api/v1/testruns', { body: {} as never }),
  'results:submit': (client) => client.POST('/api/v1/results/ingest', { body: {} as never }),
  'testruns:update': (client) =>
    client.PATCH('/api/v1/testruns/{id}', {
      params: { path: { id: NO_ID } },
      body: {} as never,
    }),
  'testruns:read': (client) => client.GET('/api/v1/testruns', { params: { query: { limit: 0 } } }),
  'results:read': (client) =>
    client.GET('/api/v1/testruns/{id}/failures', {
      params: { path: { id: NO_ID }, query: { limit: 0 } },
    }),
};

/**
 * The scopes a submit needs after its first write (creating the build or the run), which a
 * call of its own would find missing too late. Those it finds missing before any write, by
 * the call that needs them, need no probe: `projects:read` (the first call) and `--run-id`'s
 * `testruns:read`. `complete` needs none: finding the run changes nothing, and it reads the
 * gate's rules and failure groups before completing the run (main.ts).
 */
export function scopesToCheck(
  command: Exclude<Command, { name: 'help' }>,
  rerun: boolean,
): Scope[] {
  const scopes = new Set<Scope>();
  const byName = command.runId === undefined;
  if (command.name === 'submit') {
    if (byName) scopes.add('testruns:create').add('testruns:read');
    scopes.add('results:submit');
    if (command.complete || command.reopen || rerun) scopes.add('testruns:update');
  }
  if (command.gate) {
    if (byName) scopes.add('testruns:read');
    scopes.add('results:read');
  }
  return [...scopes];
}

/**
 * Fails, before anything is sent, naming every scope of `scopes` the API key lacks and what
 * it is needed for.
 */
export async function checkScopes(client: ServiceClient, needed: Scope[]): Promise<void> {
  if (needed.length === 0) return;
  // The first answer tells whether the key works at all (401, a used-up quota) before more
  // calls are spent; the others are asked at once.
  const [first, ...others] = needed;
  const answers = [
    await PROBES[first](client),
    ...(await Promise.all(others.map((scope) => PROBES[scope](client)))),
  ];
  const missing = needed.filter((scope, i) => {
    const { response, error } = answers[i];
    if (response.status === 403 && asEnvelope(error).error === 'insufficient_scope') return true;
    // Any other refusal of the key itself (a plan without API access, plain HTTP) is said as is.
    if (response.status === 401 || response.status === 403) dataOf(`probe of ${scope}`, answers[i]);
    return false;
  });
  if (missing.length === 0) return;
  const list = missing.map((scope) => `${scope} (${PURPOSE[scope]})`).join(', ');
  throw new ReporterError(
    `The API key lacks ${missing.length === 1 ? 'the scope' : 'the scopes'} ${list}; nothing was sent. Give the key ${missing.length === 1 ? 'it' : 'them'}, or create a key with ${missing.length === 1 ? 'it' : 'them'}.`,
  );
}
