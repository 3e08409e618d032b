/** How an event choice reads: `*` is every type, also those the service adds later. */
export function EventName({ event }: { event: string }) {
  return event === '*' ? (
    <>
      <code>*</code> every event
    </>
  ) : (
    <code>{event}</code>
  );
}

/** Whether deliveries go out to a subscription. */
export function ActiveBadge({ active }: { active: boolean }) {
  return active ? (
    <span className="badge webhook-active">Active</span>
  ) : (
    <span className="badge webhook-inactive">Deactivated</span>
  );
}
