// Jest runs in native ESM mode (Nest 12 ships ES modules only); ts-jest compiles TypeScript
// with decorator metadata. Every run gets its own database, and each worker its own copy of it
// (test/global-setup.ts, test/worker-setup.ts).
export default {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/src', '<rootDir>/test', '<rootDir>/packages'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts', '**/*.medium-spec.ts'],
  modulePathIgnorePatterns: ['<rootDir>/packages/.*/dist/'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  setupFiles: ['<rootDir>/test/worker-setup.ts'],
  testTimeout: 30000,
  // Four files at once, whatever the cores (each worker has its own database and Redis
  // prefix): on this 2-core machine the suite takes about half the time it takes in one
  // worker, since most of a test's time is spent waiting on PostgreSQL, Redis or a process.
  maxWorkers: 4,
};
