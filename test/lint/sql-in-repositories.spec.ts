import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * One way to the data (docs/architecture.md, "Adding an endpoint"): SQL text is declared only
 * in a feature's `*.repository.ts` (or in `src/database/`, which provides the declaring), and
 * no file builds SQL with TypeORM's query builder.
 */
const NAMES_A_STATEMENT = /(?<![\w.])(sql|preparedSql|pagedSql)\s*(\(|`)/;
const BUILDS_A_QUERY = /\bcreateQueryBuilder\b/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** What is wrong with `path`'s `text`, if anything. */
function misplacedSql(path: string, text: string): string[] {
  const problems: string[] = [];
  const mayDeclare = path.endsWith('.repository.ts') || path.startsWith('src/database/');
  if (!mayDeclare && NAMES_A_STATEMENT.test(text))
    problems.push(`${path}: SQL outside a repository (move it into the feature's *.repository.ts)`);
  if (BUILDS_A_QUERY.test(text))
    problems.push(`${path}: createQueryBuilder (write the statement with sql() in the repository)`);
  return problems;
}

describe('SQL lives in repositories', () => {
  it('names statements only in *.repository.ts and src/database/, and never builds one', () => {
    const problems = sourceFiles('src').flatMap((path) =>
      misplacedSql(path, readFileSync(path, 'utf8')),
    );
    expect(problems).toEqual([]);
  });

  it('refuses a statement named in a service', () => {
    const text = `${readFileSync('src/health/health.service.ts', 'utf8')}
const PLANTED = sql('health.planted', 'SELECT 1');`;
    expect(misplacedSql('src/health/health.service.ts', text)).toEqual([
      expect.stringContaining('SQL outside a repository'),
    ]);
  });

  it('refuses a tagged sql template outside a repository', () => {
    const text = 'const planted = sql`SELECT 1`;';
    expect(misplacedSql('src/results/release-results.ts', text)).toHaveLength(1);
  });

  it("refuses TypeORM's query builder, even in a repository", () => {
    const text = `${readFileSync('src/builds/builds.repository.ts', 'utf8')}
const planted = (m: EntityManager) => m.createQueryBuilder(Build, 'build').getMany();`;
    expect(misplacedSql('src/builds/builds.repository.ts', text)).toEqual([
      expect.stringContaining('createQueryBuilder'),
    ]);
  });

  it('lets a repository and src/database/ name statements', () => {
    const text = "const A = sql('a.b', 'SELECT 1');";
    expect(misplacedSql('src/health/health.repository.ts', text)).toEqual([]);
    expect(misplacedSql('src/database/sql.ts', text)).toEqual([]);
  });
});
