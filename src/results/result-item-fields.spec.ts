import { ApiError } from '../common/errors/api-error.js';
import { ResultItemDto } from './dto/result.dto.js';
import { RESULT_ITEM_FIELDS } from './result-item-fields.js';
import { parseResultItems } from './result-items.js';

/** Where @nestjs/swagger lists a class's documented properties. */
const DOCUMENTED_PROPERTIES = 'swagger/apiModelPropertiesArray';

function errorsOf(item: Record<string, unknown>): unknown {
  try {
    parseResultItems([{ automation_id: 'a.B.c', status: 'passed', ...item }]);
    return [];
  } catch (error) {
    return ((error as ApiError).details as { errors: unknown }).errors;
  }
}

describe('the field table of result items', () => {
  it('is the schema of ResultItemDto, field by field and in order', () => {
    const documented: string[] = Reflect.getMetadata(
      DOCUMENTED_PROPERTIES,
      ResultItemDto.prototype,
    );
    expect(documented.map((name) => name.replace(/^:/, ''))).toEqual(
      Object.keys(RESULT_ITEM_FIELDS),
    );
  });

  it('is what the parser takes: every field of it, and nothing else', () => {
    expect(
      errorsOf({
        test_case_id: undefined,
        title: 'T',
        section: 'S',
        duration_ms: 1,
        message: 'm',
        failure_type: 'AssertionError',
        stack_trace: 'at a.B(C.java:1)',
        defects: ['D-1'],
        retries: 1,
        executed_at: '2026-11-01T10:00:00Z',
      }),
    ).toEqual([]);
    expect(errorsOf({ extra: 1 })).toEqual([
      { field: 'results[0].extra', message: 'results[0].extra is not a result field' },
    ]);
  });

  it('bounds what the parser accepts', () => {
    const { title, retries, defects } = RESULT_ITEM_FIELDS;
    expect(errorsOf({ title: 'x'.repeat(title.maxLength) })).toEqual([]);
    expect(errorsOf({ title: 'x'.repeat(title.maxLength + 1) })).toEqual([
      {
        field: 'results[0].title',
        message: `results[0].title must be a string of ${title.minLength} to ${title.maxLength} characters`,
      },
    ]);
    expect(errorsOf({ retries: retries.maximum + 1 })).toEqual([
      {
        field: 'results[0].retries',
        message: `results[0].retries must be an integer from 0 to ${retries.maximum}`,
      },
    ]);
    expect(errorsOf({ failure_type: 'x'.repeat(1001) })).toEqual([
      {
        field: 'results[0].failure_type',
        message: 'results[0].failure_type must be a string of 0 to 1000 characters',
      },
    ]);
    expect(errorsOf({ stack_trace: 42 })).toEqual([
      { field: 'results[0].stack_trace', message: 'results[0].stack_trace must be a string' },
    ]);
    expect(errorsOf({ defects: Array(defects.maxItems + 1).fill('D') })).toEqual([
      {
        field: 'results[0].defects',
        message: `results[0].defects must be an array of at most ${defects.maxItems} defect references`,
      },
    ]);
  });

  it('cuts a stack trace past its length between code points instead of refusing it', () => {
    const { stack_trace } = RESULT_ITEM_FIELDS;
    const parse = (trace: string) =>
      parseResultItems([{ automation_id: 'a', status: 'failed', stack_trace: trace }])[0]
        .stackTrace;
    const fits = 's'.repeat(stack_trace.maxLength);
    expect(parse(fits)).toBe(fits);
    expect(parse(`${'s'.repeat(stack_trace.maxLength - 1)}\u{1F600}`)).toBe(
      's'.repeat(stack_trace.maxLength - 1),
    );
    expect(parse('s'.repeat(70_000))).toHaveLength(stack_trace.maxLength);
  });

  it('documents no bound for a field that is cut', () => {
    const stackTrace = Reflect.getMetadata(
      'swagger/apiModelProperties',
      ResultItemDto.prototype,
      'stack_trace',
    );
    expect(stackTrace.maxLength).toBeUndefined();
    expect(stackTrace.description).toMatch(/cut to its first 65,536 characters/);
  });

  it('puts the checked items in the list of the parsed body, so a batch is not held twice', () => {
    const raw: unknown[] = [
      { automation_id: 'a', status: 'passed' },
      { automation_id: 'b', status: 'failed', defects: ['D-1'] },
    ];
    const items = parseResultItems(raw);
    expect(items).toBe(raw);
    expect(items.map((item) => [item.automationId, item.status, item.defects])).toEqual([
      ['a', 'passed', []],
      ['b', 'failed', ['D-1']],
    ]);
  });
});
