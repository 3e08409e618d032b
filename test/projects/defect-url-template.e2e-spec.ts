import { createProject } from '../factories/catalog.js';
import { createTenant } from '../factories/organizations.js';
import { OPERATOR, startApp, withKey, type TestApp } from '../support/app.js';

const UNKNOWN_ID = '9d0b3a52-7c1e-4f7a-8a3b-1c2d3e4f5a6b';
const JIRA = 'https://jira.example.com/browse/{id}';

/** Where a project's defects live (issue 31): set by the console, read with the project. */
describe('PATCH /internal/v1/projects/{id}/defect-url-template', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  const project = async () => {
    const { org, key } = await createTenant(t, ['projects:read']);
    return { org, key, project: await createProject(t, org.id) };
  };
  const setTemplate = (id: string, body: object) =>
    t.http.patch(`/internal/v1/projects/${id}/defect-url-template`).set(OPERATOR).send(body);
  const read = async (id: string) =>
    (await t.http.get(`/internal/v1/projects/${id}`).set(OPERATOR).expect(200)).body;

  it('sets, changes and clears the template, and the project shows it', async () => {
    const { org, project: p } = await project();
    expect((await read(p.id)).defect_url_template).toBeNull();

    const set = await setTemplate(p.id, { defect_url_template: JIRA }).expect(200);
    expect(set.body).toEqual({
      id: p.id,
      organization_id: org.id,
      name: p.name,
      key: p.key,
      description: null,
      defect_url_template: JIRA,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await read(p.id)).defect_url_template).toBe(JIRA);

    const plain = 'http://bugs.internal:8080/show_bug.cgi?id={id}';
    await setTemplate(p.id, { defect_url_template: plain }).expect(200);
    expect((await read(p.id)).defect_url_template).toBe(plain);

    await setTemplate(p.id, { defect_url_template: null }).expect(200);
    expect((await read(p.id)).defect_url_template).toBeNull();
  });

  it.each([
    ['without {id}', { defect_url_template: 'https://jira.example.com/browse/' }],
    ['of another scheme', { defect_url_template: 'javascript:alert({id})' }],
    ['relative', { defect_url_template: '/browse/{id}' }],
    ['with a space', { defect_url_template: 'https://jira.example.com/browse {id}' }],
    ['empty', { defect_url_template: '' }],
    ['too long', { defect_url_template: `https://example.com/${'a'.repeat(2048)}/{id}` }],
    ['not text', { defect_url_template: 42 }],
    ['left out', {}],
  ])('refuses a template %s: 400 naming it, nothing stored', async (_why, body) => {
    const { project: p } = await project();
    await setTemplate(p.id, { defect_url_template: JIRA }).expect(200);
    const res = await setTemplate(p.id, body).expect(400);
    expect(res.body).toMatchObject({
      error: 'invalid_request',
      message: expect.stringContaining('{id}'),
      details: { field: 'defect_url_template' },
    });
    expect((await read(p.id)).defect_url_template).toBe(JIRA);
  });

  it('refuses other fields: the project’s name is not changed here', async () => {
    const { project: p } = await project();
    const res = await setTemplate(p.id, { defect_url_template: JIRA, name: 'renamed' }).expect(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', details: { field: 'name' } });
    expect(await read(p.id)).toMatchObject({ name: p.name, defect_url_template: null });
  });

  it('changes only the project named, in its own organization', async () => {
    const a = await project();
    const b = await project();
    await setTemplate(a.project.id, { defect_url_template: JIRA }).expect(200);
    expect((await read(a.project.id)).defect_url_template).toBe(JIRA);
    expect((await read(b.project.id)).defect_url_template).toBeNull();
  });

  it('answers 404 for an unknown or malformed project id', async () => {
    const unknown = await setTemplate(UNKNOWN_ID, { defect_url_template: JIRA }).expect(404);
    expect(unknown.body).toMatchObject({ error: 'not_found' });
    await setTemplate('not-a-uuid', { defect_url_template: JIRA }).expect(404);
  });

  it('is the operator’s: an API key, even of the project’s organization, is refused', async () => {
    const { key, project: p } = await project();
    const res = await t.http
      .patch(`/internal/v1/projects/${p.id}/defect-url-template`)
      .set(withKey(key))
      .send({ defect_url_template: JIRA })
      .expect(401);
    expect(res.body).toMatchObject({ error: 'unauthorized' });
    await t.http
      .patch(`/api/v1/projects/${p.id}/defect-url-template`)
      .set(withKey(key))
      .send({ defect_url_template: JIRA })
      .expect(404);
    expect((await read(p.id)).defect_url_template).toBeNull();
  });
});
