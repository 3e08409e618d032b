import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/*
 * The floors: which folder may import which, and no import cycle. Each tree lists its zones
 * (eslint-plugin-import-x's `no-restricted-paths`: files in `target` may not import from
 * `from`); the server's (`src/`) can be added beside the console's as one more entry.
 */
const CONSOLE = 'packages/console/src';
const CONSOLE_FEATURES = [
  'cases',
  'keys',
  'organizations',
  'overview',
  'projects',
  'releases',
  'results',
  'runs',
  'session',
  'webhooks',
];
const CONSOLE_APP = [
  `${CONSOLE}/main.tsx`,
  `${CONSOLE}/router.tsx`,
  `${CONSOLE}/layout-routes.tsx`,
];

const consoleZones = [
  {
    target: `${CONSOLE}/shared`,
    from: [...CONSOLE_FEATURES.map((feature) => `${CONSOLE}/${feature}`), ...CONSOLE_APP],
    message: 'Shared UI serves every feature and knows none of them.',
  },
  ...CONSOLE_FEATURES.map((feature) => ({
    target: `${CONSOLE}/${feature}`,
    from: CONSOLE_FEATURES.filter((other) => other !== feature).flatMap((other) => [
      `${CONSOLE}/${other}/pages`,
      `${CONSOLE}/${other}/routes.tsx`,
    ]),
    message: "A feature uses another's api and components, never its pages or routes.",
  })),
  {
    target: `${CONSOLE}/*/pages/**`,
    from: `${CONSOLE}/*/pages/**`,
    message: 'A page does not import a page: share a component instead.',
  },
  {
    target: [`${CONSOLE}/*/components/**`, `${CONSOLE}/*/api/**`],
    from: [`${CONSOLE}/*/pages/**`, `${CONSOLE}/*/routes.tsx`],
    message: 'Components and api serve pages, never the other way round.',
  },
  {
    target: `${CONSOLE}/*/api/**`,
    from: `${CONSOLE}/*/components/**`,
    message: 'The api knows no components.',
  },
  {
    target: [
      ...CONSOLE_FEATURES.map((feature) => `${CONSOLE}/${feature}`),
      `${CONSOLE}/layout-routes.tsx`,
    ],
    from: [`${CONSOLE}/main.tsx`, `${CONSOLE}/router.tsx`],
    message: 'The router gathers the routes; nothing below it reads it.',
  },
];

/**
 * The server's zones (`src/`): the run's and the release's features depend downward, type
 * imports included. A change spanning them is a use case above them (`test-run-lifecycle/`,
 * `release-progress/`), which no feature imports.
 */
const SERVER_ABOVE = ['src/test-run-lifecycle', 'src/release-progress', 'src/retention'];
/** The folders of `src/` above `config/`, `common/` and `database/`. */
const SERVER_FEATURES = [
  'auth',
  'builds',
  'events',
  'flakiness',
  'health',
  'idempotency',
  'insights',
  'limits',
  'logging',
  'openapi',
  'organizations',
  'partitions',
  'projects',
  'queues',
  'redis',
  'release-progress',
  'releases',
  'results',
  'retention',
  'routes',
  'tenants',
  'test-run-lifecycle',
  'testruns',
  'web-console',
  'webhooks',
];
const serverZones = [
  {
    target: 'src/testruns',
    from: ['src/results', 'src/insights', 'src/flakiness', ...SERVER_ABOVE],
    message: "The run's table and lookup never call up into the features built on runs.",
  },
  {
    target: 'src/results',
    from: ['src/insights', ...SERVER_ABOVE],
    message: 'Results are below what reads them (insights) and the use cases that write them.',
  },
  {
    target: 'src/releases',
    from: ['src/builds', 'src/testruns', 'src/results', 'src/insights', ...SERVER_ABOVE],
    message: "Releases are below builds and runs; a release's progress is release-progress/'s.",
  },
  {
    target: [
      'src/builds',
      'src/insights',
      'src/flakiness',
      'src/projects',
      'src/events',
      'src/partitions',
    ],
    from: SERVER_ABOVE,
    message: 'The use cases are above the features they use; no feature imports them.',
  },
  {
    target: 'src/database',
    from: SERVER_FEATURES.map((feature) => `src/${feature}`),
    message: "The database is below every feature; the entity list is the app's (src/entities.ts).",
  },
  {
    target: 'src/tenants',
    from: SERVER_FEATURES.filter((folder) => folder !== 'tenants').map((folder) => `src/${folder}`),
    message: 'The organization, its plan and its quota state are below every feature.',
  },
  {
    target: 'src/routes',
    from: SERVER_FEATURES.filter((folder) => !['routes', 'tenants'].includes(folder)).map(
      (folder) => `src/${folder}`,
    ),
    message: 'The route decorators are below every controller; the guard that reads them is auth/.',
  },
  {
    target: 'src/limits',
    from: ['src/auth', 'src/organizations'],
    message: 'The limits are below the access guard (auth/) and the organization routes.',
  },
  {
    target: 'src/auth',
    from: 'src/organizations',
    message:
      "Keys and the guard are below the organization routes; the organization's row is tenants/.",
  },
];

/** A tree's floors: its zones, and no cycle among its files. */
function floors(files, zones, resolver) {
  return {
    files,
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [resolver],
      // no-cycle reads each imported file, so it must parse TypeScript.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
    },
    rules: {
      'import-x/no-cycle': 'error',
      ...(zones.length > 0 ? { 'import-x/no-restricted-paths': ['error', { zones }] } : {}),
    },
  };
}

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      '*.js',
      'packages/*/dist/**',
      'packages/*/src/schema.d.ts',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      'no-console': 'error',
    },
  },
  {
    // A service (or use case) reaches the database through its repository, never a manager.
    files: ['src/**/*.service.ts', 'src/**/*.usecase.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Identifier[name=/^(manager|EntityManager)$/]',
          message: "A service reads and writes through its repository's methods, not a manager.",
        },
      ],
    },
  },
  floors(
    ['src/**/*.ts'],
    serverZones,
    // The server's ESM imports name the compiled `.js`; the source is the `.ts` beside it.
    createNodeResolver({ extensions: ['.ts', '.js'], extensionAlias: { '.js': ['.ts', '.js'] } }),
  ),
  floors(
    [`${CONSOLE}/**/*.{ts,tsx}`],
    consoleZones,
    createNodeResolver({ extensions: ['.ts', '.tsx', '.d.ts', '.js'] }),
  ),
);
