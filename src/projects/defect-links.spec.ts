import { defectLinks, isDefectUrlTemplate } from './defect-links.js';

describe('defect URL templates', () => {
  it.each([
    'https://jira.example.com/browse/{id}',
    'http://bugs.internal:8080/show_bug.cgi?id={id}',
    'https://github.com/acme/shop/issues/{id}',
  ])('takes %s', (template) => {
    expect(isDefectUrlTemplate(template)).toBe(true);
  });

  it.each([
    ['without {id}', 'https://jira.example.com/browse/'],
    ['of another scheme', 'javascript:alert({id})'],
    ['of ftp', 'ftp://files.example.com/{id}'],
    ['relative', '/browse/{id}'],
    ['with a space', 'https://jira.example.com/browse {id}'],
    ['empty', ''],
    ['too long', `https://example.com/${'a'.repeat(2048)}/{id}`],
    ['not text', 42],
  ])('refuses one %s', (_why, template) => {
    expect(isDefectUrlTemplate(template)).toBe(false);
  });

  it('puts each id, encoded, in place of every {id}', () => {
    expect(
      defectLinks('https://jira.example.com/browse/{id}?from={id}', ['SHOP-12', 'a/b?c#d']),
    ).toEqual([
      { id: 'SHOP-12', url: 'https://jira.example.com/browse/SHOP-12?from=SHOP-12' },
      { id: 'a/b?c#d', url: 'https://jira.example.com/browse/a%2Fb%3Fc%23d?from=a%2Fb%3Fc%23d' },
    ]);
  });

  it('links nothing without a template', () => {
    expect(defectLinks(null, ['SHOP-12'])).toEqual([{ id: 'SHOP-12', url: null }]);
  });
});
