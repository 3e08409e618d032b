import type { Webhook } from '../api/webhooks';
import { ActiveBadge, EventName } from './webhook-badges';

/** A subscription's events, whether it is active (with "Re-enable" when not) and description. */
export function SubscriptionFacts({
  hook,
  onEnable,
  enabling,
}: {
  hook: Webhook;
  onEnable: () => void;
  enabling: boolean;
}) {
  return (
    <dl className="facts-inline">
      <div>
        <dt>Events</dt>
        <dd>
          <ul className="scopes">
            {hook.events.map((event) => (
              <li key={event}>
                <EventName event={event} />
              </li>
            ))}
          </ul>
        </dd>
      </div>
      <div>
        <dt>Status</dt>
        <dd>
          <ActiveBadge active={hook.active} />{' '}
          {hook.active ? null : (
            <button type="button" disabled={enabling} onClick={onEnable}>
              Re-enable
            </button>
          )}
        </dd>
      </div>
      {hook.description ? (
        <div>
          <dt>Description</dt>
          <dd>{hook.description}</dd>
        </div>
      ) : null}
    </dl>
  );
}
