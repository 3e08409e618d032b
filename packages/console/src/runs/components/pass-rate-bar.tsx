import { percentToTenths } from '../../shared/formats';

/**
 * A run's pass rate (passed / executed) as a small bar and its percentage; a dash when nothing
 * executed. The bar is decoration: the text says the number.
 */
export function PassRateBar({ rate }: { rate: number | null }) {
  if (rate === null) return <span className="muted">—</span>;
  const level = rate >= 0.95 ? 'ok' : rate >= 0.8 ? 'high' : 'full';
  return (
    <span className="pass-rate">
      <span className="usage-bar" aria-hidden="true">
        <span className={`usage-fill usage-${level}`} style={{ width: `${rate * 100}%` }} />
      </span>
      <span className="usage-text">{percentToTenths.format(rate)}</span>
    </span>
  );
}
