import type { DefectLink } from '../api/result-detail';

/** The result's defect ids, each a link where the project says its defects live. */
export function DefectList({ defects }: { defects: DefectLink[] }) {
  return (
    <ul className="defects">
      {defects.map((defect, i) => (
        <li key={`${i} ${defect.id}`}>
          {defect.url === null ? (
            <code>{defect.id}</code>
          ) : (
            <a href={defect.url} target="_blank" rel="noopener noreferrer">
              {defect.id}
            </a>
          )}
        </li>
      ))}
    </ul>
  );
}
