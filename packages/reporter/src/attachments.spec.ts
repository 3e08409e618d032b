import { createHash } from 'node:crypto';
import { sendAttachments } from './attachments.js';
import { serviceClient } from './client.js';
import type { Evidence } from './evidence.js';
import type { Outgoing } from './transport.js';

const json = (status: number, body: object) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

const evidence = (name: string, text: string): Evidence => ({
  report: 'r.json',
  automationId: 'cart.pays',
  name,
  contentType: 'text/plain',
  source: { bytes: Buffer.from(text) },
});

const attachment = (id: string, size: number, sha256: string, expiresInMs: number | null) => ({
  id,
  size,
  sha256,
  status: expiresInMs === null ? 'stored' : 'pending',
  upload:
    expiresInMs === null
      ? null
      : {
          method: 'PUT',
          url: `https://store.example/${id}?signature=${expiresInMs}`,
          headers: { 'x-amz-checksum-sha256': 'abc' },
          expires_at: new Date(Date.now() + expiresInMs).toISOString(),
        },
});

/**
 * The service and the store scripted: the create call answers `created`, each complete call
 * the next of `completes`; every PUT is taken. The requests are recorded.
 */
function scripted(
  created: (items: { size: number; sha256: string }[]) => object[],
  completes: object[][],
) {
  const sent: Outgoing[] = [];
  const transport = async (outgoing: Outgoing) => {
    sent.push(outgoing);
    if (outgoing.method === 'PUT') {
      for await (const chunk of outgoing.stream?.open() ?? []) void chunk;
      return new Response(null, { status: 200 });
    }
    const body = JSON.parse(outgoing.body?.toString() ?? '{}');
    if (outgoing.url.pathname.endsWith('/attachments'))
      return json(201, { data: created(body.attachments) });
    return json(200, { data: completes.shift() ?? [] });
  };
  const client = serviceClient(
    { baseUrl: 'https://tm.example', apiKey: 'svc_live_0123', extraHeaders: {} },
    { transport },
  );
  const put = {
    transport,
    serviceOrigin: 'https://tm.example',
    extraHeaders: { 'X-Proxy': 'p' },
  };
  return { client, put, sent };
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const A = { size: 3, sha256: sha('aaa') };
const B = { size: 1, sha256: sha('b') };

describe('attaching evidence', () => {
  it('asks fresh links for those that expired before their turn, and sends each content once', async () => {
    const files = [
      evidence('a.txt', 'aaa'),
      evidence('a-again.txt', 'aaa'),
      evidence('b.txt', 'b'),
    ];
    const HOUR = 3_600_000;
    const s = scripted(
      // a.txt's link (and its copy's) ends in 10 s: too soon to start; b.txt's in an hour.
      () => [
        attachment('att-0', A.size, A.sha256, 10_000),
        attachment('att-1', A.size, A.sha256, 10_000),
        attachment('att-2', B.size, B.sha256, HOUR),
      ],
      [
        // The complete call that refreshes: b stored, a still pending with fresh links.
        [
          attachment('att-0', A.size, A.sha256, HOUR),
          attachment('att-1', A.size, A.sha256, HOUR),
          attachment('att-2', B.size, B.sha256, null),
        ],
        // The final one: all stored.
        [
          attachment('att-0', A.size, A.sha256, null),
          attachment('att-1', A.size, A.sha256, null),
          attachment('att-2', B.size, B.sha256, null),
        ],
      ],
    );
    const warnings: string[] = [];
    const answer = await sendAttachments(s.client, s.put, { runId: 'run-1' }, files, (w) =>
      warnings.push(w),
    );
    const calls = s.sent.map((o) => `${o.method} ${o.url.host}${o.url.pathname}`);
    expect(calls).toEqual([
      'POST tm.example/api/v1/testruns/run-1/attachments',
      'PUT store.example/att-2',
      'POST tm.example/api/v1/testruns/run-1/attachments/complete',
      // a.txt's content once, for both attachments that name it.
      'PUT store.example/att-0',
      'POST tm.example/api/v1/testruns/run-1/attachments/complete',
    ]);
    expect(answer).toMatchObject({ named: 3, stored: 3, uploaded: 2, bytes: 4, calls: 3 });
    expect(warnings).toEqual([]);
    // To an object store: exactly its headers, no API key, none of the service's proxy.
    const headers = Object.keys(s.sent[1].headers).map((k) => k.toLowerCase());
    expect(headers).toEqual(['x-amz-checksum-sha256']);
  });
});
