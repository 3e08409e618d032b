import { isPublicAddress } from './address-policy.js';

describe('webhook address policy', () => {
  it.each([
    ['0.0.0.0'],
    ['10.1.2.3'],
    ['100.64.0.1'],
    ['127.0.0.1'],
    ['169.254.169.254'],
    ['172.16.0.1'],
    ['192.0.0.8'],
    ['192.0.2.1'],
    ['192.88.99.1'],
    ['192.168.1.1'],
    ['198.18.0.1'],
    ['198.19.255.255'],
    ['198.51.100.7'],
    ['203.0.113.9'],
    ['224.0.0.1'],
    ['240.0.0.1'],
    ['255.255.255.255'],
    ['::'],
    ['::1'],
    ['::127.0.0.1'], // IPv4-compatible
    ['::ffff:127.0.0.1'], // IPv4-mapped
    ['::ffff:10.0.0.1'],
    ['64:ff9b::7f00:1'], // NAT64 of 127.0.0.1
    ['64:ff9b:1::1'], // NAT64 local use
    ['100::1'], // discard
    ['2001::1'], // Teredo
    ['2001:2::1'], // benchmarking
    ['2001:10::1'], // ORCHID (deprecated)
    ['2001:db8::1'], // documentation
    ['2002:7f00:1::1'], // 6to4 of 127.0.0.1
    ['3fff::1'], // documentation
    ['fc00::1'], // unique local
    ['fd12:3456::1'],
    ['fe80::1'], // link-local
    ['fec0::1'], // site-local
    ['ff02::1'], // multicast
    ['not an address'],
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['100.63.255.255'],
    ['100.128.0.1'],
    ['172.32.0.1'],
    ['198.17.255.255'],
    ['198.20.0.1'],
    ['2606:4700:4700::1111'],
    ['2a00:1450:4001:81b::200e'],
    ['::ffff:8.8.8.8'],
    ['64:ff9b::808:808'], // NAT64 of 8.8.8.8
    ['2001:1::1'], // PCP anycast: global
    ['2001:4:112::1'], // AS112-v6: global
    ['2001:20::1'], // ORCHIDv2: global
  ])('allows the global unicast address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});
