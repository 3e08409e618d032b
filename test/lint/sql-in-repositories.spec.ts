import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * One way to the data (docs/architecture.md, "Adding an endpoint"): SQL text is declared only
 * in a feature's `*.repository.ts` (or in `src/database/`, which provides the declaring), only
 * they reach TypeORM's entity manager, and no file builds SQL with TypeORM's query builder.
 */
const NAMES_A_STATEMENT = /(?<![\w.])(sql|preparedSql|pagedSql)\s*(\(|`)/;
const BUILDS_A_QUERY = /\bcreateQueryBuilder\b/;
/** A statement's text in a template literal: the keywords in SQL's capitals, as written here. */
const SQL_TEXT =
  /\b(SELECT\b[\s\S]*?\bFROM|INSERT\s+INTO|UPDATE\s+(\$\{[^}]*\}|[\w".]+)\s+(AS\s+\w+\s+)?SET|DELETE\s+FROM)\b/;
/** The manager (`Transactions.manager`/`outside`, or one a callback was given) or its type. */
const USES_A_MANAGER =
  /\btransactions\.(manager|outside)\b|\bmanager\.\w+\s*[(<]|\bEntityManager\b/;

/** The text without its comments, which may quote SQL and name the manager. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:\\])\/\/.*$/gm, '$1');
}

/** The template literals of `text` (a nested one is read as part of the one around it). */
function templateLiterals(text: string): string[] {
  return code(text).match(/`(?:\\[\s\S]|\$\{(?:[^{}]|\{[^{}]*\})*\}|[^`\\$]|\$(?!\{))*`/g) ?? [];
}

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
  if (!mayDeclare && templateLiterals(text).some((literal) => SQL_TEXT.test(literal)))
    problems.push(`${path}: SQL text outside a repository (declare it in the *.repository.ts)`);
  if (!mayDeclare && USES_A_MANAGER.test(code(text)))
    problems.push(`${path}: an entity manager outside a repository (give the repository a method)`);
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

  it('refuses SQL text built in a template literal outside a repository', () => {
    const planted = [
      "const table = 'organization_usage';",
      'export const planted = (limit: string) =>',
      '  `UPDATE ${table} AS u SET calls = u.calls + 1 WHERE u.calls < ${limit}`;',
    ];
    const text = [readFileSync('src/limits/monthly-quota.service.ts', 'utf8'), ...planted].join(
      '\n',
    );
    expect(misplacedSql('src/limits/monthly-quota.service.ts', text)).toEqual([
      expect.stringContaining('SQL text outside a repository'),
    ]);
    for (const other of [
      'const q = `SELECT id\n FROM ${table} WHERE id = $1`;',
      'const q = `INSERT INTO organization_usage (calls) VALUES (1)`;',
      'const q = `DELETE FROM organization_usage`;',
    ])
      expect(misplacedSql('src/limits/count-call.ts', other)).toHaveLength(1);
  });

  it('reads prose, comments and error messages as no SQL', () => {
    const text = [
      '// `SELECT … FROM build` in a comment',
      "/** `UPDATE build SET …` is the repository's */",
      'const message = `Select a run from ${name}; update it and set its status.`;',
    ].join('\n');
    expect(misplacedSql('src/builds/builds.service.ts', text)).toEqual([]);
  });

  it('refuses an entity manager outside a repository', () => {
    const text = `${readFileSync('src/releases/release-lookup.ts', 'utf8')}
const planted = (t: Transactions) => t.manager;
export const reach = (transactions: Transactions) =>
  transactions.manager.findOneBy(Release, { id: '1' });`;
    expect(misplacedSql('src/releases/release-lookup.ts', text)).toEqual([
      expect.stringContaining('an entity manager outside a repository'),
    ]);
    for (const planted of [
      'async function f(manager: EntityManager) {}',
      'await this.transactions.outside.query(STATEMENT, []);',
      'await transactions.run((manager) => manager.insert(Build, {}));',
    ])
      expect(misplacedSql('src/builds/build-lookup.ts', planted)).toHaveLength(1);
  });

  it('lets a repository and src/database/ reach the manager and write SQL text', () => {
    const text = 'const row = await this.transactions.manager.query(`SELECT 1 FROM build`);';
    expect(misplacedSql('src/builds/builds.repository.ts', text)).toEqual([]);
    expect(misplacedSql('src/database/transactions.ts', text)).toEqual([]);
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
