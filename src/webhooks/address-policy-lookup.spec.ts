import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { AddressPolicy, type HostLookup } from './address-policy.js';

/** A resolver that answers from a table, as a name's DNS would at that moment. */
function resolverOf(table: Record<string, string[]>): HostLookup {
  return (hostname) => {
    const addresses = table[hostname];
    if (!addresses) return Promise.reject(new Error(`ENOTFOUND ${hostname}`));
    return Promise.resolve(addresses.map((address) => ({ address, family: isIP(address) })));
  };
}

/** The connect-time lookup as Node's HTTP agent calls it. */
function connect(
  policy: AddressPolicy,
  hostname: string,
  all: boolean,
): Promise<{ error: Error | null; address: string | LookupAddress[]; family?: number }> {
  return new Promise((resolve) =>
    policy.connectLookup(hostname, { all }, (error, address, family) =>
      resolve({ error, address, family }),
    ),
  );
}

describe('address policy with the resolver it is given', () => {
  const table = {
    'public.test': ['93.184.215.14'],
    'private.test': ['192.168.1.20'],
    'mixed.test': ['10.0.0.1', '93.184.215.14', 'fd00::1', '2606:4700::1111'],
    'allowed.test': ['127.0.0.1'],
  };
  const policy = new AddressPolicy(['allowed.test'], resolverOf(table));

  it('judges a subscription URL by every address its name resolves to', async () => {
    expect(await policy.problemWith('https://public.test/h')).toBeNull();
    expect(await policy.problemWith('https://private.test/h')).toBe(
      'url resolves to a non-public address (192.168.1.20)',
    );
    expect(await policy.problemWith('https://mixed.test/h')).toBe(
      'url resolves to a non-public address (10.0.0.1)',
    );
    expect(await policy.problemWith('https://unknown.test/h')).toBe(
      "url's host unknown.test does not resolve",
    );
    // A listed host is not looked up at all, and may use http.
    expect(await policy.problemWith('http://allowed.test/h')).toBeNull();
  });

  it('connects only to the public addresses a name resolves to at connect time', async () => {
    expect(await connect(policy, 'mixed.test', true)).toEqual({
      error: null,
      address: [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:4700::1111', family: 6 },
      ],
      family: undefined,
    });
    expect(await connect(policy, 'mixed.test', false)).toEqual({
      error: null,
      address: '93.184.215.14',
      family: 4,
    });
  });

  it('refuses at connect time a name that resolves only to non-public addresses', async () => {
    const { error, address } = await connect(policy, 'private.test', false);
    expect(error?.message).toBe('refused: private.test resolves only to non-public addresses');
    expect(address).toEqual([]);
  });

  it('lets a listed host connect to its private address', async () => {
    expect(await connect(policy, 'allowed.test', false)).toMatchObject({
      error: null,
      address: '127.0.0.1',
    });
  });

  it('passes a resolver failure on to the connection', async () => {
    const { error } = await connect(policy, 'unknown.test', false);
    expect(error?.message).toBe('ENOTFOUND unknown.test');
  });
});
