import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One webhook request as a receiver saw it. */
export interface Receipt {
  deliveryId: string;
  eventId: string;
  type: string;
  data: Record<string, unknown>;
  /** When the request's headers arrived (Date.now()). */
  startedAt: number;
  /** When the answer was written; null while the request is held. */
  answeredAt: number | null;
  status: number | null;
}

export interface Answer {
  status: number;
  /** How long to hold the request before answering. */
  holdMs?: number;
}

/**
 * A loopback webhook receiver that keeps, per `X-Service-Delivery`, every request it got and
 * notices when a second request of the same delivery arrives while an earlier one is still in
 * flight (not yet answered): that would be one attempt sent twice at once. Holding each request
 * a little (`holdMs`) widens the window in which such an overlap would be seen.
 */
export class DeliveryReceiver {
  readonly receipts: Receipt[] = [];
  /** Requests that arrived while another request of the same delivery was in flight. */
  readonly overlaps: Array<{ deliveryId: string; first: Receipt; second: Receipt }> = [];
  /** `nth` counts this delivery's requests, from 1. */
  answer: (receipt: Receipt, nth: number) => Answer = () => ({ status: 200 });
  private readonly byDelivery = new Map<string, Receipt[]>();
  private inFlightCount = 0;
  private server: Server | null = null;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const startedAt = Date.now();
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        const json = JSON.parse(body || '{}') as {
          id?: string;
          type?: string;
          data?: Record<string, unknown>;
        };
        const receipt: Receipt = {
          deliveryId: String(req.headers['x-service-delivery'] ?? ''),
          eventId: json.id ?? '',
          type: json.type ?? '',
          data: json.data ?? {},
          startedAt,
          answeredAt: null,
          status: null,
        };
        const earlier = this.byDelivery.get(receipt.deliveryId) ?? [];
        for (const first of earlier) {
          if (first.answeredAt === null)
            this.overlaps.push({ deliveryId: receipt.deliveryId, first, second: receipt });
        }
        earlier.push(receipt);
        this.byDelivery.set(receipt.deliveryId, earlier);
        this.receipts.push(receipt);
        this.inFlightCount++;
        const { status, holdMs = 0 } = this.answer(receipt, earlier.length);
        const reply = () => {
          receipt.answeredAt = Date.now();
          receipt.status = status;
          this.inFlightCount--;
          // The sender may have been killed meanwhile; its socket is gone, nothing to answer.
          if (!res.destroyed) res.writeHead(status, { 'Content-Type': 'text/plain' }).end('ok');
        };
        if (holdMs > 0) setTimeout(reply, holdMs);
        else reply();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Requests received but not answered yet. */
  get inFlight(): number {
    return this.inFlightCount;
  }

  /** Every request of one delivery, in arrival order. */
  of(deliveryId: string): Receipt[] {
    return this.byDelivery.get(deliveryId) ?? [];
  }

  get deliveryIds(): string[] {
    return [...this.byDelivery.keys()];
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}
