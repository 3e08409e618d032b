import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { startApp, withKey } from '../support/app.js';

const UNKNOWN_ID = '9d0b3a52-7c1e-4f7a-8a3b-1c2d3e4f5a6b';

describe('command-line tool', () => {
  const run = promisify(execFile);
  const cli = (...args: string[]) =>
    run(process.execPath, [resolve('dist/cli.js'), ...args], {
      cwd: tmpdir(),
      env: { ...process.env },
    });

  // Six processes each start, connect and stop: seconds apiece on a busy 2-core machine.
  it('creates an organization and its first key, lists and deletes keys', async () => {
    const { stdout: orgId } = await cli(
      'org:create',
      '--name',
      'CLI Org',
      '--plan',
      'enterprise',
      '--quiet',
    );
    expect(orgId.trim()).toMatch(/^[0-9a-f-]{36}$/);

    const { stdout: key, stderr } = await cli(
      'key:create',
      '--org',
      orgId.trim(),
      '--name',
      'first',
      '--scopes',
      'builds:read,projects:read',
      '--quiet',
    );
    expect(key.trim()).toMatch(/^svc_live_[0-9a-f]{64}$/);
    expect(stderr).toMatch(/shown only once/);

    const t = await startApp();
    try {
      const res = await t.http.get('/api/v1/organizations').set(withKey(key.trim())).expect(200);
      expect(res.body.data[0]).toMatchObject({
        id: orgId.trim(),
        name: 'CLI Org',
        plan: 'enterprise',
      });
    } finally {
      await t.close();
    }

    const { stdout: listed } = await cli('key:list', '--org', orgId.trim());
    const keys = JSON.parse(listed);
    expect(keys).toHaveLength(1);
    expect(listed).not.toContain(key.trim());

    await cli('key:delete', keys[0].id);
    expect(JSON.parse((await cli('key:list', '--org', orgId.trim())).stdout)).toEqual([]);
  }, 90_000);

  it('creates and lists projects by the internal API’s rules', async () => {
    const { stdout: orgId } = await cli(
      'org:create',
      '--name',
      'CLI Projects',
      '--plan',
      'pro',
      '--quiet',
    );
    const org = orgId.trim();
    const { stdout: projectId } = await cli(
      'project:create',
      '--org',
      org,
      '--name',
      'Web shop',
      '--key',
      'WEB',
      '--description',
      'The storefront',
      '--quiet',
    );
    expect(projectId.trim()).toMatch(/^[0-9a-f-]{36}$/);

    const listed = JSON.parse((await cli('project:list', '--org', org)).stdout);
    expect(listed).toEqual([
      expect.objectContaining({
        id: projectId.trim(),
        name: 'Web shop',
        key: 'WEB',
        description: 'The storefront',
      }),
    ]);

    // The body's rules are the API's (same DTO, same pipe); nothing is written when refused.
    await expect(
      cli('project:create', '--org', org, '--name', 'Bad', '--key', 'no spaces'),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^key: key must be 1 to 32 letters, digits, _ or -/m),
    });
    await expect(
      cli('project:create', '--org', org, '--name', 'Again', '--key', 'WEB'),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/A project with key "WEB" already exists/),
    });
    await expect(cli('project:create', '--org', org, '--key', 'NONAME')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^name: /m),
    });
    await expect(cli('project:list', '--org', UNKNOWN_ID)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/No such organization/),
    });
    expect(JSON.parse((await cli('project:list', '--org', org)).stdout)).toHaveLength(1);
  }, 90_000);

  it('explains a mistake and exits 1', async () => {
    await expect(cli('org:create', '--name', 'x', '--plan', 'gold')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/--plan must be one of basic, pro, enterprise/),
    });
    await expect(
      cli('key:create', '--org', UNKNOWN_ID, '--name', 'x', '--scopes', 'builds:read'),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/No such organization/),
    });
  });
});
