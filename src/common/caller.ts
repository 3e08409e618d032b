/**
 * Whom a service acts for: an organization (an API key's, on the public API) or the operator
 * (the internal API, whose routes name a resource without its organization). A repository
 * given an organization keeps every query in it; only the operator reaches every
 * organization's rows.
 */
export type Caller = { kind: 'organization'; organizationId: string } | { kind: 'operator' };

export const OPERATOR: Caller = { kind: 'operator' };

export function organizationCaller(organizationId: string): Caller {
  return { kind: 'organization', organizationId };
}

/** The organization a statement is kept in: the caller's, or null for the operator (any). */
export function organizationOf(caller: Caller): string | null {
  return caller.kind === 'organization' ? caller.organizationId : null;
}

/**
 * The organization an operation acts in: the caller's own, or, for the operator, the one that
 * owns the resource named (`owner`, which answers 404 for none).
 */
export function organizationFor(caller: Caller, owner: () => Promise<string>): Promise<string> {
  return caller.kind === 'organization' ? Promise.resolve(caller.organizationId) : owner();
}
