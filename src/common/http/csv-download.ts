import { Logger } from '@nestjs/common';
import type { Response } from 'express';
import { type CsvValue, csvLine } from '../csv.js';
import { extValue } from './ext-value.js';

/** A CSV file to stream: its name, its header line and its rows, a page at a time. */
export interface CsvDownload {
  /** The file's name for the browser's download (`Content-Disposition`). */
  filename: string;
  header: readonly string[];
  /** Pages of rows, each read from the database when the previous one is sent. */
  pages: AsyncIterable<ReadonlyArray<readonly CsvValue[]>>;
}

/**
 * Excel reads a CSV file without it as the machine's legacy code page, and shows "naïve" as
 * "naÃ¯ve"; other readers skip it.
 */
const BYTE_ORDER_MARK = '\uFEFF';

const logger = new Logger('CsvDownload');

/** About how many characters one write to the socket holds (a row more at most). */
const WRITE_CHARS = 64 * 1024;

/** What a filename keeps in the plain `filename=` parameter; the rest is in `filename*`. */
const asciiName = (name: string) => name.replace(/[^\w.-]+/g, '_');

/**
 * Answers with `download` as `text/csv`, streamed a page at a time: a page is asked for only
 * once the previous one has left the process (the response's buffer drained), so what the
 * process holds is a page and a socket's buffer, whatever the file's size; a client that
 * leaves ends the reading. A page is written in pieces of about `WRITE_CHARS` (each waits for
 * the drain), not as one string: its rows may hold 65,535-character messages, and a page of
 * 1,000 such rows written whole was one 63 MiB string and buffer beside the page's rows.
 * The first page is read before the headers are sent, so a failure
 * there (a database away) still answers in the error envelope; one later can only cut the
 * download short, and closes the connection so the client sees it incomplete.
 */
export async function sendCsv(response: Response, download: CsvDownload): Promise<void> {
  const pages = download.pages[Symbol.asyncIterator]();
  const first = await pages.next();
  if (response.destroyed) {
    await pages.return?.();
    return;
  }
  response.status(200);
  response.set({
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${asciiName(download.filename)}"; filename*=UTF-8''${extValue(download.filename)}`,
    'Cache-Control': 'no-store',
  });
  if (response.req.method === 'HEAD') {
    // No body follows a HEAD: Node drops the writes without back-pressure, so going on would
    // read every page of the file for nothing.
    response.end();
    await pages.return?.();
    return;
  }
  let left = false;
  const leave = () => {
    left = true;
  };
  response.once('close', leave);
  try {
    await write(response, BYTE_ORDER_MARK + csvLine(download.header));
    for (let page = first; !page.done && !left; page = await pages.next()) {
      let chunk = '';
      for (const row of page.value) {
        chunk += csvLine(row);
        if (chunk.length < WRITE_CHARS) continue;
        await write(response, chunk);
        chunk = '';
        if (left) break;
      }
      await write(response, chunk);
    }
    if (!left) response.end();
  } catch (error) {
    // The headers are sent: no envelope can follow. The cut connection tells the client.
    logger.error(`CSV download ${download.filename} cut short: ${(error as Error).message}`);
    response.destroy(error as Error);
  } finally {
    response.off('close', leave);
    if (left) await pages.return?.();
  }
}

/** Writes `text`, then waits until the socket has taken it in (or the client has left). */
async function write(response: Response, text: string): Promise<void> {
  if (response.destroyed || text === '') return;
  if (response.write(text)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}
