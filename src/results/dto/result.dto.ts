import {
  ApiId,
  ApiNullable,
  ApiNullableTimestamp,
  ApiTimestamp,
} from '../../common/openapi.decorators.js';
import { IsId, IsOptionalId } from '../../common/validation.js';
import { ResultAttachmentResponse } from '../../attachments/dto/attachment.dto.js';
import { ApiProperty, type ApiPropertyOptions, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { PaginationQuery } from '../../common/pagination/pagination.js';
import { ConfigurationFilter } from './configuration-filter.js';
import { MAX_PATH_ROOT, REPORT_FORMATS, type ReportFormat } from '../formats/report-formats.js';
import { RESULT_STATUSES, type ResultStatus } from '../entities/result-status.js';
import {
  describeResultAttempt,
  describeResultItem,
  RESULT_ITEM_FIELDS,
} from '../result-item-fields.js';
import { CONFIGURATION_RULE, configurationOf, MAX_RESULTS_PER_CALL } from '../result-items.js';

const toBoolean = () =>
  Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value));

/** An earlier attempt of one execution (CONTRACT §13). */
export class AttemptDto {
  @ApiProperty({ enum: RESULT_STATUSES })
  status!: ResultStatus;

  @ApiNullable(Number, { example: 1250 })
  duration_ms!: number | null;

  @ApiNullable(String)
  message!: string | null;

  @ApiNullable(String)
  failure_type!: string | null;

  @ApiNullable(String)
  stack_trace!: string | null;
}

export class ResultResponse {
  @ApiId()
  id!: string;

  @ApiId()
  test_run_id!: string;

  @ApiId()
  test_case_id!: string;

  @ApiProperty({ enum: RESULT_STATUSES })
  status!: ResultStatus;

  @ApiNullable(Number, { example: 1250 })
  duration_ms!: number | null;

  @ApiNullable(String)
  message!: string | null;

  @ApiProperty({ type: [String], example: ['JIRA-123'] })
  defects!: string[];

  @ApiProperty({ description: 'Failed attempts before the final status', example: 0 })
  retries!: number;

  @ApiProperty({ description: '`passed` after failed attempts', example: false })
  flaky!: boolean;

  @ApiNullableTimestamp()
  executed_at!: string | null;

  @ApiTimestamp()
  created_at!: string;

  @ApiNullable(String, {
    description: 'What kind of failure: JUnit’s `type` of the `<failure>` or `<error>`, or as sent',
    example: 'java.lang.AssertionError',
  })
  failure_type!: string | null;

  @ApiNullable(String, {
    description:
      'The failure’s stack trace: the JUnit element’s text when it has a `message` attribute, or as sent; at most 65,536 characters',
  })
  stack_trace!: string | null;

  @ApiNullable(String, {
    pattern: '^[0-9a-f]{16}$',
    description:
      'Names the failure’s cause: the same error in another run or case has the same signature (a hash of `failure_type` and of the message without what varies between runs). Null unless the status is `failed` or `blocked`',
    example: '3f9a0c1d2b4e5f60',
  })
  signature!: string | null;

  @ApiNullable(String, {
    maxLength: 100,
    description:
      'The environment the result ran in (a browser, an OS, a Playwright project, a CI matrix leg); null for none. A run keeps one current result per test case and configuration',
    example: 'firefox',
  })
  configuration!: string | null;

  @ApiProperty({
    type: () => [AttemptDto],
    description:
      'The earlier attempts of the same execution, oldest first (at most 20); the result’s own fields are the final attempt’s',
  })
  attempts!: AttemptDto[];

  @ApiPropertyOptional({
    type: () => [ResultAttachmentResponse],
    description:
      'Its stored attachments, in the order attached (CONTRACT §15): in a run’s results, not in the answer to a submission',
  })
  attachments?: ResultAttachmentResponse[];
}

/** A result as the console lists it: with the title and automation id of its test case. */
export class InternalResultResponse extends ResultResponse {
  @ApiProperty({ example: 'pays by card' })
  test_case_title!: string;

  @ApiNullable(String, { example: 'checkout.Payment.pays by card' })
  automation_id!: string | null;

  @ApiProperty({
    description:
      'The test case is on the project’s flaky-tests list (its default window and minimum executions)',
    example: false,
  })
  case_flaky!: boolean;

  @ApiProperty({ description: 'The test case is in quarantine', example: false })
  quarantined!: boolean;
}

/** An earlier attempt of a result's execution (CONTRACT §13), checked as the item's fields. */
/** One configuration of a run's current results (CONTRACT §13). */
export class RunConfigurationCount {
  @ApiNullable(String, {
    maxLength: 100,
    description: 'Null: results without one',
    example: 'firefox',
  })
  configuration!: string | null;

  @ApiProperty({ description: 'The run’s current results in it', example: 120 })
  results!: number;
}

export class RunConfigurationsResponse {
  @ApiProperty({ type: () => [RunConfigurationCount], description: 'By name; none (null) last' })
  data!: RunConfigurationCount[];
}

export class ResultAttemptDto {
  status!: ResultStatus;
  duration_ms?: number;
  message?: string;
  failure_type?: string;
  stack_trace?: string;
}
describeResultAttempt(ResultAttemptDto);

/**
 * One result in a submission. Name the case by `test_case_id` or by `automation_id`. Its schema
 * comes from the field table the parser checks with (`result-item-fields.ts`).
 */
export class ResultItemDto {
  test_case_id?: string;
  automation_id?: string;
  title?: string;
  section?: string;
  status!: ResultStatus;
  duration_ms?: number;
  message?: string;
  failure_type?: string;
  stack_trace?: string;
  defects?: string[];
  retries?: number;
  executed_at?: string;
  configuration?: string;
  attempts?: ResultAttemptDto[];
}
describeResultItem(ResultItemDto, ResultAttemptDto);

/** Documents each field of a JSON body from its table (see `SUBMIT_BODY_FIELDS`). */
function describeBody(target: abstract new () => object, fields: BodyFields): void {
  for (const [name, options] of Object.entries(fields)) {
    ApiProperty(options)(target.prototype, name);
  }
}

type BodyFields = Record<string, ApiPropertyOptions>;

const RESULTS_FIELD: ApiPropertyOptions = {
  type: [ResultItemDto],
  minItems: 1,
  maxItems: MAX_RESULTS_PER_CALL,
  required: true,
};

const CONFIGURATION_DESCRIPTION =
  'The configuration (CONTRACT §13) of every result that names none; trimmed, blank for none';

const CONFIGURATION_FIELD: ApiPropertyOptions = {
  type: String,
  maxLength: RESULT_ITEM_FIELDS.configuration.maxLength,
  description: CONFIGURATION_DESCRIPTION,
  example: 'linux / node 22',
  required: false,
};

/**
 * The fields of `POST /testruns/{id}/results`: the one source of its documented schema and of
 * the fields its hand parser accepts (`result-commands.ts`).
 */
export const SUBMIT_BODY_FIELDS = {
  results: RESULTS_FIELD,
  complete: {
    type: Boolean,
    default: false,
    description: 'Also complete the run',
    required: false,
  },
  configuration: CONFIGURATION_FIELD,
} satisfies BodyFields;

export class SubmitResultsDto {
  results!: ResultItemDto[];
  complete?: boolean;
  configuration?: string;
}
describeBody(SubmitResultsDto, SUBMIT_BODY_FIELDS);

export class SubmittedResultsResponse {
  @ApiProperty({ example: 1000 })
  accepted!: number;

  @ApiProperty({ description: 'Test cases created for unknown automation ids', example: 3 })
  created_test_cases!: number;

  @ApiProperty({ type: [ResultResponse] })
  data!: ResultResponse[];
}

/**
 * What `join_run` does, an addition to CONTRACT §6's ingest (which creates a run whenever no
 * `test_run_id` is given, and still does without it): a pipeline's parallel shards post into
 * one run, each in one call, without first creating or finding it.
 */
const JOIN_RUN_DESCRIPTION =
  'With `run_name` and `build_id`: the results go to that build’s run of this name when it has one, else to a new run of that name (ingests arriving together create one run), so the parallel shards of a pipeline post into one run, each in one call. Without it, every ingest without `test_run_id` creates a run';

/** The fields of the JSON form of `POST /results/ingest`, as `SUBMIT_BODY_FIELDS`. */

export const INGEST_BODY_FIELDS = {
  project_id: {
    type: String,
    format: 'uuid',
    description: 'Required unless `test_run_id` is given',
    required: false,
  },
  test_run_id: {
    type: String,
    format: 'uuid',
    description: 'Add to this run; without it a run is created',
    required: false,
  },
  run_name: {
    type: String,
    maxLength: 255,
    description: 'Name of the created run',
    required: false,
  },
  build_id: { type: String, format: 'uuid', required: false },
  release_id: { type: String, format: 'uuid', required: false },
  results: RESULTS_FIELD,
  complete: { type: Boolean, default: false, required: false },
  join_run: { type: Boolean, default: false, description: JOIN_RUN_DESCRIPTION, required: false },
  configuration: CONFIGURATION_FIELD,
} satisfies BodyFields;

export class IngestJsonDto {
  project_id?: string;
  test_run_id?: string;
  run_name?: string;
  build_id?: string;
  release_id?: string;
  results!: ResultItemDto[];
  complete?: boolean;
  join_run?: boolean;
  configuration?: string;
}
describeBody(IngestJsonDto, INGEST_BODY_FIELDS);

export class IngestResponse {
  @ApiId()
  test_run_id!: string;

  @ApiProperty({ example: 1200 })
  accepted!: number;

  @ApiProperty({ example: 4 })
  created_test_cases!: number;
}

/** Query parameters of the XML report form of `/results/ingest` (CONTRACT §14). */
export class IngestQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Required unless `test_run_id` is given' })
  @IsOptional()
  @IsId('project_id must be a project id (UUID)')
  project_id?: string;

  @IsOptionalId('test_run_id must be a test run id (UUID)')
  test_run_id?: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  run_name?: string;

  @IsOptionalId('build_id must be a build id (UUID)')
  build_id?: string;

  @IsOptionalId('release_id must be a release id (UUID)')
  release_id?: string;

  @ApiPropertyOptional({ type: Boolean, default: false })
  @IsOptional()
  @toBoolean()
  @IsBoolean({ message: 'complete must be true or false' })
  complete?: boolean;

  @ApiPropertyOptional({ type: Boolean, default: false, description: JOIN_RUN_DESCRIPTION })
  @IsOptional()
  @toBoolean()
  @IsBoolean({ message: 'join_run must be true or false' })
  join_run?: boolean;

  @ApiPropertyOptional({
    type: String,
    maxLength: RESULT_ITEM_FIELDS.configuration.maxLength,
    description: `${CONFIGURATION_DESCRIPTION} (the report's own comes first: JUnit's testsuite hostnames when they tell configurations apart)`,
  })
  @IsOptional()
  // Trimmed, blank is none; what is not a configuration stays as sent for the checks below.
  @Transform(({ value }) => {
    const configuration = configurationOf(value);
    return configuration === undefined ? value : configuration;
  })
  @IsString({ message: `configuration ${CONFIGURATION_RULE}` })
  @MaxLength(RESULT_ITEM_FIELDS.configuration.maxLength, {
    message: `configuration ${CONFIGURATION_RULE}`,
  })
  configuration?: string | null;

  @ApiPropertyOptional({
    enum: REPORT_FORMATS,
    description:
      'The report’s format; by default it is recognised from the document (a document of another shape is then refused)',
  })
  @IsOptional()
  @IsIn(REPORT_FORMATS, { message: `format must be one of ${REPORT_FORMATS.join(', ')}` })
  format?: ReportFormat;

  @ApiPropertyOptional({
    maxLength: MAX_PATH_ROOT,
    description:
      'Taken off the front of the report’s file paths (a CI workspace such as `/home/runner/work/app/app/`), so that ids do not depend on where the checkout lay',
  })
  @IsOptional()
  @IsString({ message: 'path_root must be a string' })
  @Length(1, MAX_PATH_ROOT, { message: `path_root must be 1 to ${MAX_PATH_ROOT} characters` })
  path_root?: string;
}

export class ResultQuery extends PaginationQuery {
  @ApiPropertyOptional({ enum: RESULT_STATUSES })
  @IsOptional()
  @IsIn(RESULT_STATUSES)
  status?: ResultStatus;

  @IsOptionalId('test_case_id must be a test case id (UUID)')
  test_case_id?: string;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description: 'Every result, not only each case’s current one',
  })
  @IsOptional()
  @toBoolean()
  @IsBoolean({ message: 'include_history must be true or false' })
  include_history?: boolean;

  @ConfigurationFilter()
  configuration?: string;
}

/** How the console's results listing orders a page. */
export const RESULT_ORDERS = ['newest_first', 'failures_first'] as const;
export type ResultOrder = (typeof RESULT_ORDERS)[number];

/** The console's results listing: the public filters, a search and an order. */
export class InternalResultQuery extends ResultQuery {
  @ApiPropertyOptional({
    enum: RESULT_ORDERS,
    default: 'newest_first',
    description:
      '`failures_first`: failed and blocked results before the others, each part newest first',
  })
  @IsOptional()
  @IsIn(RESULT_ORDERS, { message: `order must be one of ${RESULT_ORDERS.join(', ')}` })
  order?: ResultOrder;

  @ApiPropertyOptional({
    description: 'The test case’s title or automation id contains this text (case-insensitive)',
    minLength: 1,
    maxLength: 255,
  })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  q?: string;
}
