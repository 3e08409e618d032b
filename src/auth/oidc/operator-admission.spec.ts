import { admitOperator, type AdmissionRule } from './operator-admission.js';

const byDomain: AdmissionRule = {
  allowedEmailDomains: ['example.com', 'example.org'],
  operatorGroup: null,
  groupsClaim: 'groups',
};
const byGroup: AdmissionRule = {
  allowedEmailDomains: [],
  operatorGroup: 'tm-operators',
  groupsClaim: 'groups',
};
const byBoth: AdmissionRule = { ...byDomain, operatorGroup: 'tm-operators' };

const user = (claims: Record<string, unknown>) => ({ sub: 'u-1', ...claims });

describe('admitOperator', () => {
  it('admits a verified email of an allowed domain, whatever its case', () => {
    expect(
      admitOperator(user({ email: 'Ada@EXAMPLE.com', email_verified: true }), byDomain),
    ).toEqual({ admitted: true, identity: { subject: 'u-1', email: 'Ada@EXAMPLE.com' } });
    expect(
      admitOperator(user({ email: 'b@example.org', email_verified: 'true' }), byDomain).admitted,
    ).toBe(true);
  });

  it.each([
    ['another domain', { email: 'eve@elsewhere.test', email_verified: true }, 'email_domain'],
    ['a sub-domain', { email: 'eve@evil.example.com', email_verified: true }, 'email_domain'],
    ['a look-alike', { email: 'eve@example.com.evil.test', email_verified: true }, 'email_domain'],
    [
      'a domain hidden before the last @',
      { email: 'x@example.com@evil.test', email_verified: true },
      'email_domain',
    ],
    ['no email', { email_verified: true }, 'email_domain'],
    [
      'an unverified email',
      { email: 'ada@example.com', email_verified: false },
      'email_unverified',
    ],
    ['no verification claim', { email: 'ada@example.com' }, 'email_unverified'],
  ])('refuses %s when domains are set', (_name, claims, refusal) => {
    expect(admitOperator(user(claims), byDomain)).toEqual({ admitted: false, refusal });
  });

  it('admits a member of the operator group, as a list or a lone name, email or not', () => {
    expect(admitOperator(user({ groups: ['staff', 'tm-operators'] }), byGroup)).toEqual({
      admitted: true,
      identity: { subject: 'u-1', email: null },
    });
    expect(admitOperator(user({ groups: 'tm-operators' }), byGroup).admitted).toBe(true);
  });

  it.each([
    ['another group', { groups: ['staff'] }],
    ['a group whose name only contains it', { groups: ['tm-operators-readonly'] }],
    ['no groups claim', {}],
    ['a groups claim of another shape', { groups: { 'tm-operators': true } }],
  ])('refuses %s when a group is set', (_name, claims) => {
    expect(admitOperator(user(claims), byGroup)).toEqual({
      admitted: false,
      refusal: 'not_in_group',
    });
  });

  it('reads the groups from the configured claim', () => {
    const rule = { ...byGroup, groupsClaim: 'roles' };
    expect(admitOperator(user({ roles: ['tm-operators'] }), rule).admitted).toBe(true);
    expect(admitOperator(user({ groups: ['tm-operators'] }), rule).admitted).toBe(false);
  });

  it('needs both the domain and the group when both are set', () => {
    const verified = { email: 'ada@example.com', email_verified: true };
    expect(admitOperator(user({ ...verified, groups: ['tm-operators'] }), byBoth).admitted).toBe(
      true,
    );
    expect(admitOperator(user({ ...verified, groups: ['staff'] }), byBoth)).toEqual({
      admitted: false,
      refusal: 'not_in_group',
    });
    expect(
      admitOperator(
        user({ email: 'eve@elsewhere.test', email_verified: true, groups: ['tm-operators'] }),
        byBoth,
      ),
    ).toEqual({ admitted: false, refusal: 'email_domain' });
  });

  it('refuses claims without a subject, or with one longer than OpenID Connect allows', () => {
    for (const claims of [{}, { sub: '' }, { sub: 'x'.repeat(256) }, { sub: 42 }]) {
      expect(admitOperator({ ...claims, groups: ['tm-operators'] }, byGroup)).toEqual({
        admitted: false,
        refusal: 'provider_error',
      });
    }
  });

  it('keeps no email longer than an address can be', () => {
    const long = `${'a'.repeat(320)}@example.com`;
    expect(admitOperator(user({ email: long, groups: ['tm-operators'] }), byGroup)).toEqual({
      admitted: true,
      identity: { subject: 'u-1', email: null },
    });
    expect(admitOperator(user({ email: long, email_verified: true }), byDomain)).toEqual({
      admitted: false,
      refusal: 'email_domain',
    });
  });
});
