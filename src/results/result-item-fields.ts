import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { RESULT_STATUSES } from './entities/result-status.js';

/**
 * The fields of a result item, the one source of both the hand parser's checks
 * (`result-items.ts`) and the OpenAPI schema of `ResultItemDto` (`describeResultItem`).
 */
export interface ResultItemField {
  /**
   * What the value is: `id` a UUID, `text` a string, `status` one of `enum`, `integer` a whole
   * number, `texts` an array of strings, `timestamp` an ISO 8601 date-time, `attempts` an
   * array of attempts (`ATTEMPT_FIELDS`).
   */
  type: 'id' | 'text' | 'status' | 'integer' | 'texts' | 'timestamp' | 'attempts';
  required: boolean;
  /** Bounds of a `text`, or of each string of `texts`. */
  minLength: number;
  maxLength: number;
  /**
   * A `text` longer than `maxLength` is cut to it (between code points), not refused: what a
   * report cannot shorten itself, such as a stack trace. The schema then shows no bound.
   */
  cut: boolean;
  /** Bounds of an `integer`. */
  minimum: number;
  maximum: number;
  /** The most strings a `texts`, or attempts an `attempts`, may hold. */
  maxItems: number;
  enum: readonly string[] | undefined;
  default: number | undefined;
  description: string | undefined;
  example: string | undefined;
  /**
   * Bounds the parser checks that openapi.json does not show (yet): documenting them is a
   * change of the contract, not of its source.
   */
  undocumented: ReadonlyArray<'minLength' | 'maximum' | 'itemLength' | 'maxItems'>;
}

/** Every field with the same keys in the same order, so the parser's reads of them stay fast. */
function field(spec: Partial<ResultItemField> & Pick<ResultItemField, 'type'>): ResultItemField {
  return {
    type: spec.type,
    required: spec.required ?? false,
    minLength: spec.minLength ?? 0,
    maxLength: spec.maxLength ?? 0,
    cut: spec.cut ?? false,
    minimum: spec.minimum ?? 0,
    maximum: spec.maximum ?? 0,
    maxItems: spec.maxItems ?? 0,
    enum: spec.enum,
    default: spec.default,
    description: spec.description,
    example: spec.example,
    undocumented: spec.undocumented ?? [],
  };
}

/** PostgreSQL's `integer`: what `duration_ms` is stored as. */
const INTEGER_MAX = 2_147_483_647;

/** The fields, in the order the schema lists them. */
export const RESULT_ITEM_FIELDS = {
  test_case_id: field({ type: 'id', description: 'A test case of the run’s project' }),
  automation_id: field({
    type: 'text',
    minLength: 1,
    maxLength: 1000,
    description: 'Stable key of the automated test; an unknown one creates the test case',
    example: 'checkout.PaymentTest.paysWithSavedCard',
    undocumented: ['minLength'],
  }),
  title: field({
    type: 'text',
    minLength: 1,
    maxLength: 1000,
    description: 'Title of a test case created from this result',
    undocumented: ['minLength'],
  }),
  section: field({
    type: 'text',
    maxLength: 1000,
    description: 'Section of a test case created from this result',
  }),
  status: field({ type: 'status', required: true, enum: RESULT_STATUSES }),
  duration_ms: field({
    type: 'integer',
    minimum: 0,
    maximum: INTEGER_MAX,
    undocumented: ['maximum'],
  }),
  message: field({ type: 'text', maxLength: 65_535 }),
  failure_type: field({
    type: 'text',
    maxLength: 1000,
    description: 'What kind of failure: the exception class, or JUnit’s `type` attribute',
    example: 'java.lang.AssertionError',
  }),
  stack_trace: field({
    type: 'text',
    maxLength: 65_536,
    cut: true,
    description:
      'The failure’s stack trace; a longer one is cut to its first 65,536 characters (between code points)',
    example:
      'java.lang.AssertionError: expected:<200> but was:<500>\n\tat checkout.PaymentTest.paysWithSavedCard(PaymentTest.java:42)',
  }),
  defects: field({
    type: 'texts',
    maxItems: 100,
    minLength: 1,
    maxLength: 255,
    undocumented: ['itemLength'],
  }),
  retries: field({
    type: 'integer',
    minimum: 0,
    maximum: 1000,
    default: 0,
    description: 'Failed attempts before this one',
  }),
  executed_at: field({ type: 'timestamp' }),
  configuration: field({
    type: 'text',
    minLength: 1,
    maxLength: 100,
    description:
      'The environment it ran in (a browser, an OS, a CI matrix leg), compared after trimming: with the case, the result’s slot. Absent, null or blank: the call’s `configuration`, else none',
    example: 'firefox',
    undocumented: ['minLength'],
  }),
  attempts: field({
    type: 'attempts',
    // As many as `retries` can count; beyond 20 the oldest are dropped (still counted).
    maxItems: 1000,
    description:
      'Earlier attempts of the same execution, oldest first; the result’s own fields are the final attempt’s. At most 20 are kept: the oldest beyond are dropped, and still counted in `retries`, which must then agree when both are sent',
    undocumented: ['maxItems'],
  }),
} as const satisfies Record<string, ResultItemField>;

export type ResultItemFieldName = keyof typeof RESULT_ITEM_FIELDS;

/** The fields of one earlier attempt: the item's own, checked the same way. */
export const ATTEMPT_FIELDS = [
  'status',
  'duration_ms',
  'message',
  'failure_type',
  'stack_trace',
] as const satisfies readonly ResultItemFieldName[];

type DtoClass = abstract new () => object;

/** The OpenAPI schema of one field, as `@ApiProperty` takes it. */
function schemaOf(spec: ResultItemField, attempt: DtoClass | undefined): ApiPropertyOptions {
  const shown = (bound: ResultItemField['undocumented'][number]) =>
    !spec.undocumented.includes(bound);
  const schema: Record<string, unknown> = { required: spec.required };
  switch (spec.type) {
    case 'id':
      Object.assign(schema, { type: String, format: 'uuid' });
      break;
    case 'text':
      schema.type = String;
      if (spec.minLength > 0 && shown('minLength')) schema.minLength = spec.minLength;
      if (!spec.cut) schema.maxLength = spec.maxLength;
      break;
    case 'status':
      schema.enum = spec.enum;
      break;
    case 'integer':
      // The contract has always called these numbers; the parser takes whole ones only.
      Object.assign(schema, { type: Number, minimum: spec.minimum });
      if (shown('maximum')) schema.maximum = spec.maximum;
      break;
    case 'texts':
      Object.assign(schema, { type: [String], maxItems: spec.maxItems });
      break;
    case 'attempts':
      schema.type = [attempt];
      if (shown('maxItems')) schema.maxItems = spec.maxItems;
      break;
    case 'timestamp':
      Object.assign(schema, { type: String, format: 'date-time' });
      break;
  }
  if (spec.default !== undefined) schema.default = spec.default;
  if (spec.description !== undefined) schema.description = spec.description;
  if (spec.example !== undefined) schema.example = spec.example;
  return schema as ApiPropertyOptions;
}

/**
 * Documents every field of the table on `target` (a DTO class), in the table's order;
 * `attempt` is the class of one of its `attempts` (described by `describeResultAttempt`).
 */
export function describeResultItem(target: DtoClass, attempt: DtoClass): void {
  for (const [name, spec] of Object.entries(RESULT_ITEM_FIELDS)) {
    ApiProperty(schemaOf(spec, attempt))(target.prototype, name);
  }
}

/** Documents the fields of one attempt on `target`, as the item's own. */
export function describeResultAttempt(target: DtoClass): void {
  for (const name of ATTEMPT_FIELDS) {
    ApiProperty(schemaOf(RESULT_ITEM_FIELDS[name], undefined))(target.prototype, name);
  }
}
