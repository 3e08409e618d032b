import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpTransport } from './transport.js';

describe('the node:http transport', () => {
  let server: Server;
  let base: string;
  let handle: (req: IncomingMessage, body: Buffer, res: ServerResponse) => void;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => handle(req, Buffer.concat(chunks), res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('sends the method, headers and body, and answers with a Response that knows its URL', async () => {
    handle = (req, body, res) => {
      res.writeHead(201, { 'Content-Type': 'application/json', 'X-Seen': req.headers['x-key'] });
      res.end(
        JSON.stringify({
          method: req.method,
          length: req.headers['content-length'],
          body: body.toString(),
        }),
      );
    };
    const url = new URL(`${base}/api/v1/results/ingest?test_run_id=1`);
    const response = await httpTransport(
      { method: 'POST', url, headers: { 'x-key': 'k1' }, body: Buffer.from('<testsuite/>') },
      5000,
    );
    expect(response.status).toBe(201);
    expect(response.headers.get('x-seen')).toBe('k1');
    expect(response.url).toBe(url.href);
    expect(await response.json()).toEqual({ method: 'POST', length: '12', body: '<testsuite/>' });
  });

  it('does not follow a redirect, and gives a 204 no body', async () => {
    handle = (req, _body, res) => {
      if (req.url === '/moved') res.writeHead(302, { Location: '/login' }).end();
      else res.writeHead(204).end();
    };
    const moved = await httpTransport(
      { method: 'GET', url: new URL(`${base}/moved`), headers: {} },
      5000,
    );
    expect([moved.status, moved.headers.get('location')]).toEqual([302, '/login']);
    const empty = await httpTransport(
      { method: 'GET', url: new URL(`${base}/x`), headers: {} },
      5000,
    );
    expect([empty.status, empty.body]).toEqual([204, null]);
  });

  it('gives up on an attempt with no answer in time', async () => {
    handle = () => undefined;
    await expect(
      httpTransport({ method: 'GET', url: new URL(`${base}/slow`), headers: {} }, 200),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});
