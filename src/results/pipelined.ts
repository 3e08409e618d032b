/** Lets the event loop send and receive what is waiting (a macrotask, after all microtasks). */
export function yieldToPendingIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Stores prepared rounds one after the other, preparing the next one while the last is being
 * stored. A store that fails ends it with its failure, once the round being prepared is
 * ready; the failure is never left unhandled meanwhile (that would end the process).
 */
export async function storeWhilePreparing<T>(
  first: T | null,
  prepareNext: () => Promise<T | null>,
  store: (prepared: T) => Promise<void>,
): Promise<void> {
  let prepared = first;
  let stored: Promise<void> = Promise.resolve();
  while (prepared !== null) {
    await stored;
    stored = store(prepared);
    stored.catch(() => undefined);
    prepared = await prepareNext();
  }
  await stored;
}
