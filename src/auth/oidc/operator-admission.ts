/** Why a provider's user was not let in; the sign-in page words each one. */
export const SIGN_IN_REFUSALS = [
  'email_domain',
  'email_unverified',
  'not_in_group',
  'state',
  'expired',
  'provider_error',
  'provider_unavailable',
] as const;
export type SignInRefusal = (typeof SIGN_IN_REFUSALS)[number];

/** Who may become an operator (from `OidcSettings`). */
export interface AdmissionRule {
  allowedEmailDomains: string[];
  operatorGroup: string | null;
  groupsClaim: string;
}

/** The identity a session is opened for. */
export interface OperatorIdentity {
  subject: string;
  email: string | null;
}

export type Admission =
  { admitted: true; identity: OperatorIdentity } | { admitted: false; refusal: SignInRefusal };

/**
 * Whether the provider's user (`claims`: the ID token's, completed by userinfo) is an operator.
 * With allowed domains, the email must be verified and its domain (after the last `@`) one of
 * them exactly, sub-domains not included; with an operator group, `groupsClaim` must list it.
 * With both, both must hold: a provider that lets anyone in makes nobody an operator by itself.
 */
export function admitOperator(claims: Record<string, unknown>, rule: AdmissionRule): Admission {
  // OpenID Connect caps `sub` at 255 characters, as the session's column does.
  const subject =
    typeof claims.sub === 'string' && claims.sub !== '' && claims.sub.length <= 255
      ? claims.sub
      : null;
  if (subject === null) return { admitted: false, refusal: 'provider_error' };
  const email =
    typeof claims.email === 'string' && claims.email.includes('@') && claims.email.length <= 320
      ? claims.email
      : null;
  if (rule.allowedEmailDomains.length > 0) {
    if (email === null) return { admitted: false, refusal: 'email_domain' };
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    if (!rule.allowedEmailDomains.includes(domain)) {
      return { admitted: false, refusal: 'email_domain' };
    }
    // Some providers send the flag as a string.
    if (claims.email_verified !== true && claims.email_verified !== 'true') {
      return { admitted: false, refusal: 'email_unverified' };
    }
  }
  if (
    rule.operatorGroup !== null &&
    !groupsOf(claims[rule.groupsClaim]).includes(rule.operatorGroup)
  ) {
    return { admitted: false, refusal: 'not_in_group' };
  }
  return { admitted: true, identity: { subject, email } };
}

/** A groups claim is a list of names; some providers send a lone name as a string. */
function groupsOf(claim: unknown): string[] {
  if (typeof claim === 'string') return [claim];
  if (Array.isArray(claim))
    return claim.filter((group): group is string => typeof group === 'string');
  return [];
}
