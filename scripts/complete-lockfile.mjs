// The npm registry reachable from this project's machines serves only Linux builds of
// platform-specific packages, so `npm install` leaves the other platforms' optional
// dependencies out of package-lock.json and `npm ci` then refuses the lock as out of sync.
// This adds a placeholder entry (version, optional, and the platform it is for) for each
// such package; npm skips them on Linux as it would the real entries. Run it after every
// `npm install` that changes the lock: `node scripts/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const PLATFORM = [
  [/android/, 'android'],
  [/darwin/, 'darwin'],
  [/freebsd/, 'freebsd'],
  [/openharmony/, 'openharmony'],
  [/win32/, 'win32'],
  [/linux/, 'linux'],
];
const CPU = [
  [/arm64|aarch64/, 'arm64'],
  [/arm-|arm$|armv7|gnueabihf|musleabihf|eabi/, 'arm'],
  [/loong64/, 'loong64'],
  [/ppc64/, 'ppc64'],
  [/riscv64/, 'riscv64'],
  [/s390x/, 's390x'],
  [/ia32/, 'ia32'],
  [/x64/, 'x64'],
];

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const packages = lock.packages;
let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = path === '' ? '' : `${path}/`;
    const candidates = [`${base}node_modules/${name}`, `node_modules/${name}`];
    if (candidates.some((candidate) => packages[candidate])) continue;
    const version = /^\d+\.\d+\.\d+/.exec(spec)?.[0];
    if (!version) continue;
    const os = PLATFORM.find(([pattern]) => pattern.test(name))?.[1];
    const cpu = CPU.find(([pattern]) => pattern.test(name))?.[1];
    if (!os) continue;
    packages[`node_modules/${name}`] = {
      version,
      optional: true,
      os: [os],
      ...(cpu ? { cpu: [cpu] } : {}),
    };
    added++;
  }
}
const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`complete-lockfile: added ${added} placeholder entries\n`);
