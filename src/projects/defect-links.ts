import { registerDecorator } from 'class-validator';

/** Where a defect's id goes in a project's defect URL template. */
export const DEFECT_ID_PLACEHOLDER = '{id}';

const MAX_TEMPLATE_LENGTH = 2048;

export const DEFECT_URL_TEMPLATE_RULE = `defect_url_template must be an http(s) URL of at most ${MAX_TEMPLATE_LENGTH} characters containing ${DEFECT_ID_PLACEHOLDER}, or null`;

/** A defect id of a result, and where it lives when its project names a template. */
export interface DefectLink {
  id: string;
  url: string | null;
}

/**
 * Whether `template` is an http(s) URL with `{id}` in it once an id is put in its place:
 * e.g. `https://jira.example.com/browse/{id}`.
 */
export function isDefectUrlTemplate(template: unknown): template is string {
  if (typeof template !== 'string' || template.length > MAX_TEMPLATE_LENGTH) return false;
  if (!template.includes(DEFECT_ID_PLACEHOLDER) || /\s/.test(template)) return false;
  try {
    const url = new URL(template.replaceAll(DEFECT_ID_PLACEHOLDER, 'ID-1'));
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Each defect id with its link: the template with the id, encoded as one path segment or
 * query value, in place of each `{id}` (so an id cannot move the link elsewhere); no template,
 * no links.
 */
export function defectLinks(template: string | null, ids: readonly string[]): DefectLink[] {
  return ids.map((id) => ({
    id,
    url:
      template === null ? null : template.replaceAll(DEFECT_ID_PLACEHOLDER, encodeURIComponent(id)),
  }));
}

/** A defect URL template (`isDefectUrlTemplate`) or null. */
export function IsDefectUrlTemplateOrNull() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isDefectUrlTemplateOrNull',
      target: target.constructor,
      propertyName,
      options: { message: DEFECT_URL_TEMPLATE_RULE },
      validator: {
        validate: (value: unknown) => value === null || isDefectUrlTemplate(value),
      },
    });
}
