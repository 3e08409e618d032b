import { connectionFrom } from './config.js';

const KEY = `svc_live_${'0f'.repeat(16)}`;
const at = (url: string) => connectionFrom({ TM_URL: url, TM_API_KEY: KEY });

describe('TM_URL', () => {
  it('refuses plain http to any host but this machine, since the key would cross the network unencrypted', () => {
    for (const url of [
      'http://tm.example.com/api/v1',
      'http://10.0.0.5:3000',
      'http://[::ffff:10.0.0.5]/',
      'http://127.0.0.1.nip.io/',
      'http://localhost.example.com/',
    ]) {
      expect(() => at(url)).toThrow(
        /^TM_URL is a plain http:\/\/ address of .*: TM_API_KEY would cross the network unencrypted/,
      );
    }
  });

  it('takes https anywhere, and plain http to loopback (localhost, 127.0.0.0/8, ::1)', () => {
    expect(at('https://tm.example.com/api/v1').baseUrl).toBe('https://tm.example.com');
    for (const url of [
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'http://127.9.8.7',
      'http://[::1]:3000',
    ])
      expect(at(`${url}/api/v1`).baseUrl).toBe(url);
  });
});
