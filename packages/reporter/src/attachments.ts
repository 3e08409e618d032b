import { randomUUID } from 'node:crypto';
import { replayed, type ServiceClient } from './client.js';
import { asEnvelope, serviceError } from './errors.js';
import type { Evidence } from './evidence.js';
import { contentOf, SkippedEvidence, type Content } from './evidence-content.js';
import { putContent, type PutOptions, type UploadLink } from './evidence-put.js';
import { idempotencyKey } from './keys.js';
import { oneLine } from './output.js';
import type { components } from './schema.js';
import { mapConcurrently } from './upload.js';

type Attachment = components['schemas']['AttachmentResponse'];
/** An item of the create call. */
type AttachmentItem = components['schemas']['AttachmentItemDto'];
type CreateBody = components['schemas']['CreateAttachmentsDto'];

/** Attachments one create (and one complete) call describes: the service's most (CONTRACT §15). */
export const ATTACHMENTS_PER_CALL = 100;
/** Files hashed and uploads sent at once. */
export const ATTACHMENT_CONCURRENCY = 4;
/** A link that expires sooner than this is not used: a fresh one is asked for. */
const LINK_MARGIN_MS = 30_000;

/** What a submit did with the evidence its reports name (its `--json` answer's `attachments`). */
export interface AttachmentsSent {
  /** Named by the reports. */
  named: number;
  /** Attached to their results, stored. */
  stored: number;
  /** Of those, sent by this submit (the others' content the organization had already). */
  uploaded: number;
  /** Bytes sent. */
  bytes: number;
  /** Not attached, each with why (a missing or oversized file, a refused upload…). */
  skipped: { report: string; name: string; reason: string }[];
  /** Calls to the API (create and complete), not counting the uploads. */
  calls: number;
}

export interface AttachmentTarget {
  runId: string;
  /** The slot configuration of evidence whose report names none (`--configuration`). */
  configuration?: string;
  /** A job run again: its create calls are its own (see upload.ts). */
  rerun?: string;
}

interface Described {
  evidence: Evidence;
  content: Content;
}

/**
 * Attaches the reports' evidence to their results once the results are stored (CONTRACT §15):
 * each file hashed locally (streamed, 4 at once), then per 100 attachments one create call
 * naming each one's slot (automation id and configuration, as the service derived them from
 * the same report) with its size and SHA-256, the uploads it asks for (content the
 * organization stores already asks none; content twice in a batch is sent once), at most 4 at
 * once, and one complete call. Nothing here fails the submit: a missing or oversized file, an
 * upload refused, a call that fails is a warning, and the rest goes on.
 */
export async function sendAttachments(
  client: ServiceClient,
  put: PutOptions,
  target: AttachmentTarget,
  evidence: Evidence[],
  warn: (text: string) => void,
  /** The evidence's contents, when hashing started earlier (beside the reports' upload). */
  contents: Promise<(Content | SkippedEvidence)[]> = contentsOf(evidence),
): Promise<AttachmentsSent> {
  const sent: AttachmentsSent = {
    named: evidence.length,
    stored: 0,
    uploaded: 0,
    bytes: 0,
    skipped: [],
    calls: 0,
  };
  const skip = (e: Evidence, reason: string) => {
    sent.skipped.push({ report: e.report, name: e.name, reason });
    warn(`attachment ${e.name} of ${e.automationId} (${e.report}) not attached: ${reason}`);
  };
  const described: Described[] = [];
  for (const [i, content] of (await contents).entries()) {
    if (content instanceof SkippedEvidence) skip(evidence[i], content.reason);
    else described.push({ evidence: evidence[i], content });
  }
  const batches: Described[][] = [];
  for (let from = 0; from < described.length; from += ATTACHMENTS_PER_CALL)
    batches.push(described.slice(from, from + ATTACHMENTS_PER_CALL));
  // Two batches in flight, so the next one's create call is made while this one's last uploads
  // finish; the uploads of both share the 4 slots.
  const uploads = limiter(ATTACHMENT_CONCURRENCY);
  await mapConcurrently(batches, 2, (batch) =>
    sendBatch(client, put, target, batch, sent, skip, uploads),
  );
  return sent;
}

/** The contents of the evidence (hashed, 4 files at once), in its order. */
export function contentsOf(evidence: Evidence[]): Promise<(Content | SkippedEvidence)[]> {
  return mapConcurrently(evidence, ATTACHMENT_CONCURRENCY, (e) => contentOf(e));
}

/** Runs tasks at most `slots` at a time, in the order they ask; a freed slot goes to the next. */
function limiter(slots: number) {
  let free = slots;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}

const itemOf = ({ evidence, content }: Described, configuration?: string): AttachmentItem => {
  const slotConfiguration = evidence.configuration ?? configuration;
  return {
    automation_id: evidence.automationId,
    ...(slotConfiguration && { configuration: slotConfiguration }),
    name: evidence.name,
    content_type: evidence.contentType,
    size: content.size,
    sha256: content.sha256,
  };
};

/** The item a 400 or 413 names (`attachments[3].automation_id`), if it names one. */
function refusedItem(error: unknown): number | undefined {
  const field = asEnvelope(error).details?.field;
  const match = typeof field === 'string' ? /^attachments\[(\d+)\]/.exec(field) : null;
  return match ? Number(match[1]) : undefined;
}

/**
 * One batch: its create call (an item the service refuses, such as a slot without a result in
 * the run, is dropped with a warning and the call made again without it: the call is all or
 * nothing), its uploads and its complete call.
 */
async function sendBatch(
  client: ServiceClient,
  put: PutOptions,
  target: AttachmentTarget,
  batch: Described[],
  sent: AttachmentsSent,
  skip: (e: Evidence, reason: string) => void,
  uploads: ReturnType<typeof limiter>,
): Promise<void> {
  let attachments: Attachment[] | undefined;
  let wasReplayed = false;
  while (batch.length > 0 && attachments === undefined) {
    const items = batch.map((d) => itemOf(d, target.configuration));
    sent.calls++;
    const result = await client.POST('/api/v1/testruns/{id}/attachments', {
      params: { path: { id: target.runId } },
      body: { attachments: items } as unknown as CreateBody,
      headers: {
        // The same evidence described again (a retry, the same submit run again) is answered
        // with its replay, not attached twice.
        'Idempotency-Key': idempotencyKey(
          'attachments',
          target.runId,
          JSON.stringify(items),
          ...(target.rerun === undefined ? [] : [`rerun:${target.rerun}`]),
        ),
      },
    });
    if (result.response.ok && result.data) {
      attachments = result.data.data;
      wasReplayed = replayed(result.response);
      break;
    }
    const status = result.response.status;
    const at = refusedItem(result.error);
    if ((status === 400 || status === 413) && at !== undefined && at < batch.length) {
      const { message } = asEnvelope(result.error);
      skip(
        batch[at].evidence,
        `refused by the service (${status}: ${oneLine(message ?? '', 200)})`,
      );
      batch = batch.filter((_, i) => i !== at);
      continue;
    }
    const why = serviceError(
      `POST /api/v1/testruns/{id}/attachments`,
      status,
      result.error,
      result.response.url,
    ).message;
    for (const d of batch) skip(d.evidence, why);
    return;
  }
  if (!attachments) return;
  // A replayed answer is as it was then: complete first, which says what is stored now and
  // gives fresh links for what is not.
  if (wasReplayed && attachments.some((a) => a.status === 'pending')) {
    const now = await complete(client, target, attachments, sent);
    if (now === undefined) {
      for (const d of batch) skip(d.evidence, 'the complete call failed');
      return;
    }
    attachments = now;
  }
  const pending = attachments.some((a) => a.status === 'pending');
  // Content twice in the batch is sent once: completing stores every pending copy.
  const sentContent = new Set<string>();
  const failures = new Map<string, string>();
  /** Sends what is pending and not sent yet; answers how many links had expired, unused. */
  const uploadRound = async (now: Attachment[]): Promise<number> => {
    const byContent = new Map<string, { link: UploadLink; content: Content }>();
    for (const [i, a] of now.entries()) {
      const key = `${a.sha256}:${a.size}`;
      if (a.status !== 'pending' || !a.upload || sentContent.has(key) || failures.has(key))
        continue;
      if (!byContent.has(key)) byContent.set(key, { link: a.upload, content: batch[i].content });
    }
    let expired = 0;
    await Promise.all(
      [...byContent].map(([key, upload]) =>
        uploads(async () => {
          // Checked when its turn comes: a batch of large videos may outlast its links.
          if (Date.parse(upload.link.expires_at ?? '') - Date.now() < LINK_MARGIN_MS) {
            expired++;
            return;
          }
          const why = await putContent(upload.link, upload.content, put);
          if (why) failures.set(key, why);
          else {
            sentContent.add(key);
            sent.uploaded++;
            sent.bytes += upload.content.size;
          }
        }),
      ),
    );
    return expired;
  };
  // Links that expired before their turn: the complete call gives fresh ones (at most twice).
  for (let round = 0; (await uploadRound(attachments)) > 0 && round < 2; round++) {
    const fresh = await complete(client, target, attachments, sent);
    if (fresh === undefined) break;
    attachments = fresh;
  }
  const final = pending ? await complete(client, target, attachments, sent) : attachments;
  // Without the complete call's answer, only what was stored at its creation is known stored.
  for (const [i, a] of (final ?? attachments).entries()) {
    if (a.status === 'stored') {
      sent.stored++;
      continue;
    }
    const failed = failures.get(`${a.sha256}:${a.size}`);
    skip(
      batch[i].evidence,
      failed
        ? `upload failed: ${failed}`
        : final
          ? 'the store does not have its bytes (still pending)'
          : 'the complete call failed',
    );
  }
}

/** The complete call of a batch's pending attachments: the batch as it is now, in its order. */
async function complete(
  client: ServiceClient,
  target: AttachmentTarget,
  attachments: Attachment[],
  sent: AttachmentsSent,
): Promise<Attachment[] | undefined> {
  const ids = attachments.filter((a) => a.status === 'pending').map((a) => a.id);
  sent.calls++;
  const result = await client.POST('/api/v1/testruns/{id}/attachments/complete', {
    params: { path: { id: target.runId } },
    body: { ids },
    // Its own key: a retry of this call is its replay, a later call a fresh answer.
    headers: { 'Idempotency-Key': idempotencyKey('attachments-complete', randomUUID()) },
  });
  if (!result.response.ok || !result.data) return undefined;
  const now = new Map(result.data.data.map((a) => [a.id, a]));
  return attachments.map((a) => now.get(a.id) ?? a);
}
