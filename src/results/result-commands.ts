import { ApiError } from '../common/errors/api-error.js';
import { isUuid } from '../common/ids.js';
import { INGEST_BODY_FIELDS, type IngestQuery, SUBMIT_BODY_FIELDS } from './dto/result.dto.js';
import { parseJsonReport } from './formats/json-reports.js';
import { parseXmlReport } from './formats/xml-report.js';
import {
  CONFIGURATION_RULE,
  configurationOf,
  parseResultItems,
  type ResultItem,
} from './result-items.js';

/** `POST /testruns/{id}/results`, checked: the results, and whether to complete the run. */
export interface SubmitResultsCommand {
  complete: boolean;
  items: ResultItem[];
}

/** `POST /results/ingest`, checked, from a JSON body or an XML report and the query. */
export interface IngestCommand {
  projectId?: string;
  testRunId?: string;
  runName?: string;
  buildId?: string;
  releaseId?: string;
  complete: boolean;
  /** Into the build's run of the name given, when it has one (`join_run`). */
  joinRun: boolean;
  items: ResultItem[];
}

// The bodies are checked by hand, not by the validation pipe: their result items are the
// API's hottest path (`result-items.ts`), and every error names its exact place.

const SUBMIT_FIELDS = Object.keys(SUBMIT_BODY_FIELDS) as Array<keyof typeof SUBMIT_BODY_FIELDS>;
const RUN_NAME_MAX_LENGTH = INGEST_BODY_FIELDS.run_name.maxLength;
const INGEST_FIELDS = Object.keys(INGEST_BODY_FIELDS) as Array<keyof typeof INGEST_BODY_FIELDS>;

export function parseSubmitResults(body: unknown): SubmitResultsCommand {
  const fields = objectBody(body, SUBMIT_FIELDS);
  const complete = optionalBoolean(fields, 'complete');
  return { complete, items: parseResultItems(fields.results, callConfiguration(fields)) };
}

/** An XML report (`xml` content types; its parameters in the query) or a JSON body. */
export function parseIngest(
  contentType: string | undefined,
  body: unknown,
  query: IngestQuery,
): IngestCommand {
  return /xml/i.test(contentType ?? '') ? fromXmlReport(body, query) : fromJson(body, query);
}

/**
 * A JSON body: the command of CONTRACT §6 when it is an object whose `results` is an array
 * (its parameters in the body, as always), else a report document (§14) whose parameters are
 * in the query, as a JUnit report's.
 */
function fromJson(body: unknown, query: IngestQuery): IngestCommand {
  return isCommand(body) ? fromCommand(body, query) : fromJsonReport(body, query);
}

function isCommand(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    Array.isArray((body as Record<string, unknown>).results)
  );
}

function fromJsonReport(body: unknown, query: IngestQuery): IngestCommand {
  const options = { configuration: query.configuration ?? null, pathRoot: query.path_root ?? null };
  return {
    projectId: query.project_id,
    testRunId: query.test_run_id,
    runName: query.run_name,
    buildId: query.build_id,
    releaseId: query.release_id,
    complete: query.complete ?? false,
    joinRun: query.join_run ?? false,
    items: parseJsonReport(body, query.format, options),
  };
}

function fromCommand(body: unknown, query: IngestQuery): IngestCommand {
  const queryField = Object.keys(query).find(
    (key) => query[key as keyof IngestQuery] !== undefined,
  );
  if (queryField) {
    throw ApiError.invalidField(
      queryField,
      'With a JSON body, send the parameters in the body, not the query',
    );
  }
  const fields = objectBody(body, INGEST_FIELDS);
  const runName = fields.run_name;
  if (
    runName !== undefined &&
    runName !== null &&
    (typeof runName !== 'string' || runName.length < 1 || runName.length > RUN_NAME_MAX_LENGTH)
  ) {
    throw ApiError.invalidField(
      'run_name',
      `run_name must be a string of 1 to ${RUN_NAME_MAX_LENGTH} characters`,
    );
  }
  return {
    projectId: optionalId(fields, 'project_id'),
    testRunId: optionalId(fields, 'test_run_id'),
    runName: (runName as string | null | undefined) ?? undefined,
    buildId: optionalId(fields, 'build_id'),
    releaseId: optionalId(fields, 'release_id'),
    complete: optionalBoolean(fields, 'complete'),
    joinRun: optionalBoolean(fields, 'join_run'),
    items: parseResultItems(fields.results, callConfiguration(fields)),
  };
}

/** A report in one of the XML formats of CONTRACT §14, recognised or named by `format`. */
function fromXmlReport(body: unknown, query: IngestQuery): IngestCommand {
  if (typeof body !== 'string')
    throw ApiError.invalidField('body', 'Send the XML report as the body.');
  return {
    projectId: query.project_id,
    testRunId: query.test_run_id,
    runName: query.run_name,
    buildId: query.build_id,
    releaseId: query.release_id,
    complete: query.complete ?? false,
    joinRun: query.join_run ?? false,
    items: parseXmlReport(body, query.format, {
      configuration: query.configuration ?? null,
      pathRoot: query.path_root ?? null,
    }),
  };
}

type Body = Record<string, unknown>;

/** Checks a JSON body's top-level shape: an object with only the allowed fields. */
function objectBody(body: unknown, allowed: readonly string[]): Body {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw ApiError.invalidField('body', 'The body must be a JSON object.');
  }
  const unknown = Object.keys(body).find((key) => !allowed.includes(key));
  if (unknown !== undefined)
    throw ApiError.invalidField(unknown, `${unknown} is not a field of this request`);
  return body as Body;
}

function optionalBoolean(body: Body, field: string): boolean {
  const value = body[field];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean')
    throw ApiError.invalidField(field, `${field} must be true or false`);
  return value;
}

/** The body's `configuration`: the items' that name none (CONTRACT §13). */
function callConfiguration(body: Body): string | null {
  const configuration = configurationOf(body.configuration);
  if (configuration === undefined) {
    throw ApiError.invalidField('configuration', `configuration ${CONFIGURATION_RULE}`);
  }
  return configuration;
}

function optionalId(body: Body, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!isUuid(value)) throw ApiError.invalidField(field, `${field} must be an id (UUID)`);
  return value.toLowerCase();
}
