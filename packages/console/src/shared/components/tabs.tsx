import { Link } from '@tanstack/react-router';

/** One tab: a page's route and its name. */
export interface Tab {
  to: string;
  label: string;
}

const current = { 'aria-current': 'page' as const, className: 'current' };

/**
 * Links between the pages of one thing; the current one is marked. The first tab is the thing's
 * own page, so it is current only on an exact match.
 */
export function Tabs({
  label,
  tabs,
  params,
}: {
  label: string;
  tabs: Tab[];
  params: Record<string, string>;
}) {
  return (
    <nav className="tabs" aria-label={label}>
      {tabs.map((tab, index) => (
        <Link
          key={tab.to}
          to={tab.to}
          params={params}
          activeOptions={{ exact: index === 0 }}
          activeProps={current}
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
