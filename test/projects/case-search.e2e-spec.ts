import { createProject, createTestCase } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';

const UNKNOWN_ID = '9d0b3a52-7c1e-4f7a-8a3b-1c2d3e4f5a6b';

/** An organization's test cases searched across its projects by title or automation id (issue 31). */
describe('GET /internal/v1/organizations/{id}/testcases/search', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const search = (organizationId: string, query: Record<string, string>) =>
    t.http
      .get(`/internal/v1/organizations/${organizationId}/testcases/search`)
      .query(query)
      .set(OPERATOR);

  async function seeded() {
    const { org, key } = await createTenant(t, ['projects:read']);
    const web = await createProject(t, org.id, { name: 'Web shop' });
    const api = await createProject(t, org.id, { name: 'Shop API' });
    await createTestCase(t, web.id, { title: 'Pays by card', automation_id: 'web.checkout.card' });
    await createTestCase(t, web.id, { title: 'Adds to cart', automation_id: 'web.cart.add' });
    await createTestCase(t, api.id, { title: 'POST /payments by CARD', automation_id: 'api.pay' });
    await createTestCase(t, api.id, { title: '100% refund', automation_id: 'api.refund_all' });
    return { org, key, web, api };
  }

  it('finds cases by title or automation id in every project, case-insensitively, by title', async () => {
    const s = await seeded();
    const res = await search(s.org.id, { q: 'card' }).expect(200);
    expect(res.body.pagination).toEqual({ total: 2, limit: 25, offset: 0, has_more: false });
    expect(res.body.data).toEqual([
      {
        id: expect.any(String),
        project_id: s.web.id,
        project_key: s.web.key,
        project_name: 'Web shop',
        title: 'Pays by card',
        automation_id: 'web.checkout.card',
        updated_at: expect.any(String),
      },
      expect.objectContaining({ project_id: s.api.id, title: 'POST /payments by CARD' }),
    ]);
    const byId = await search(s.org.id, { q: 'CART.ADD' }).expect(200);
    expect(byId.body.data.map((c: { title: string }) => c.title)).toEqual(['Adds to cart']);
    // LIKE's wildcards are literal.
    expect((await search(s.org.id, { q: '0%' }).expect(200)).body.data).toHaveLength(1);
    expect((await search(s.org.id, { q: 'd_a' }).expect(200)).body.data).toHaveLength(1);
    expect((await search(s.org.id, { q: 'x%y' }).expect(200)).body.data).toHaveLength(0);
  });

  it('finds only the organization’s own cases', async () => {
    const a = await seeded();
    const b = await seeded();
    const found = (await search(b.org.id, { q: 'pay' }).expect(200)).body.data as Array<{
      project_id: string;
    }>;
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((c) => [b.web.id, b.api.id].includes(c.project_id))).toBe(true);
    expect(found.some((c) => [a.web.id, a.api.id].includes(c.project_id))).toBe(false);
  });

  it.each([
    ['q', {}],
    ['q', { q: 'a' }],
    ['limit', { q: 'card', limit: '0' }],
  ])('refuses a bad %s: 400 naming it', async (field, query) => {
    const s = await seeded();
    const res = await search(s.org.id, query).expect(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', details: { field } });
  });

  it('answers 404 for an unknown organization and 401 to an API key', async () => {
    await search(UNKNOWN_ID, { q: 'card' }).expect(404);
    const s = await seeded();
    await t.http
      .get(`/internal/v1/organizations/${s.org.id}/testcases/search?q=card`)
      .set(withKey(s.key))
      .expect(401);
  });
});
