import { number } from '../../shared/formats';

/** Calls this billing period against the monthly limit: a bar, and the figures as text. */
export function UsageBar({ used, limit }: { used: number; limit: number }) {
  const share = limit > 0 ? Math.min(1, used / limit) : 1;
  const level = share >= 1 ? 'full' : share >= 0.8 ? 'high' : 'ok';
  return (
    <div className="usage">
      <div className="usage-bar" aria-hidden="true">
        <div className={`usage-fill usage-${level}`} style={{ width: `${share * 100}%` }} />
      </div>
      <span className="usage-text">
        {number.format(used)} of {number.format(limit)}
      </span>
    </div>
  );
}
