import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ApiKeysModule } from './auth/api-keys.module.js';
import { ApiKeysService } from './auth/api-keys.service.js';
import { isUuid } from './common/ids.js';
import { PaginationQuery } from './common/pagination/pagination.js';
import { SCOPES } from './routes/scopes.js';
import { ConfigModule } from './config/config.module.js';
import { settingsFromEnvironment } from './config/environment.js';
import { Settings, SettingsError } from './config/settings.js';
import { DatabaseModule } from './database/database.module.js';
import { ENTITIES } from './entities.js';
import { prepareDatabase } from './database/prepare-database.js';
import { PLANS, type Plan } from './tenants/organization.entity.js';
import { OrganizationsModule } from './organizations/organizations.module.js';
import { OrganizationsService } from './organizations/organizations.service.js';
import { ApiError, type FieldError } from './common/errors/api-error.js';
import { createValidationPipe } from './common/errors/validation.js';
import { CreateProjectDto } from './projects/dto/project.dto.js';
import { ProjectsModule } from './projects/projects.module.js';
import { ProjectsService } from './projects/projects.service.js';

const USAGE = `Usage: npm run cli -- <command> [options]

  org:create --name <name> --plan <${PLANS.join('|')}> [--monthly-limit <n>] [--started-at <ISO date>] [--quiet]
  org:list
  key:create --org <organization id> --name <name> --scopes <scope,scope,...> [--quiet]
  key:list   --org <organization id>
  key:delete <key id>
  project:create --org <organization id> --name <name> --key <KEY> [--description <text>] [--quiet]
  project:list   --org <organization id>

  --quiet prints only the new organization's or project's id, or the new key.

Scopes: ${SCOPES.join(', ')}
Settings (DATABASE_URL, …) come from the environment or .env.`;

/** The services the CLI drives: the same ones the internal API uses, without HTTP or Redis. */
@Module({})
class CliModule {
  static forRoot(settings: Settings): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.forRoot(settings),
        DatabaseModule.forRoot(ENTITIES),
        OrganizationsModule,
        ApiKeysModule,
        ProjectsModule,
      ],
    };
  }
}

class UsageError extends Error {}

function required(value: string | undefined, option: string): string {
  if (value === undefined || value === '') throw new UsageError(`${option} is required`);
  return value;
}

function requiredId(value: string | undefined, option: string): string {
  const id = required(value, option);
  if (!isUuid(id)) throw new UsageError(`${option} must be an id (a UUID)`);
  return id.toLowerCase();
}

function everything(): PaginationQuery {
  return Object.assign(new PaginationQuery(), { limit: 100, offset: 0 });
}

function print(value: unknown): void {
  process.stdout.write(`${typeof value === 'string' ? value : JSON.stringify(value, null, 2)}\n`);
}

async function run(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      plan: { type: 'string' },
      'monthly-limit': { type: 'string' },
      'started-at': { type: 'string' },
      org: { type: 'string' },
      scopes: { type: 'string' },
      key: { type: 'string' },
      description: { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, argument] = positionals;
  if (values.help || command === undefined) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }

  const settings = settingsFromEnvironment();
  await prepareDatabase(settings.databaseUrl, settings.migrationsRun);
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(settings), {
    logger: ['error'],
  });
  try {
    const organizations = app.get(OrganizationsService);
    const apiKeys = app.get(ApiKeysService);
    const projects = app.get(ProjectsService);
    switch (command) {
      case 'org:create': {
        const plan = required(values.plan, '--plan');
        if (!(PLANS as readonly string[]).includes(plan))
          throw new UsageError(`--plan must be one of ${PLANS.join(', ')}`);
        const limit = values['monthly-limit'];
        if (limit !== undefined && !/^\d+$/.test(limit))
          throw new UsageError('--monthly-limit must be a whole number');
        const startedAt = values['started-at'];
        if (startedAt !== undefined && Number.isNaN(Date.parse(startedAt)))
          throw new UsageError('--started-at must be an ISO date');
        const org = await organizations.create({
          name: required(values.name, '--name'),
          plan: plan as Plan,
          monthly_call_limit: limit === undefined ? undefined : Number(limit),
          subscription_started_at: startedAt,
        });
        print(values.quiet ? org.id : org);
        return;
      }
      case 'org:list':
        print((await organizations.list(everything())).data);
        return;
      case 'key:create': {
        const scopes = required(values.scopes, '--scopes')
          .split(',')
          .map((scope) => scope.trim());
        const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
        if (unknown.length > 0) throw new UsageError(`unknown scopes: ${unknown.join(', ')}`);
        const created = await apiKeys.create(requiredId(values.org, '--org'), {
          name: required(values.name, '--name'),
          scopes,
        });
        print(values.quiet ? created.key : created);
        process.stderr.write('The key is shown only once: store it now.\n');
        return;
      }
      case 'key:list':
        print((await apiKeys.list(requiredId(values.org, '--org'), everything())).data);
        return;
      case 'key:delete':
        await apiKeys.delete(requiredId(argument, '<key id>'));
        print({ deleted: argument });
        return;
      case 'project:create': {
        // The internal API's own rules for the body, by the same pipe and DTO.
        const dto = (await createValidationPipe().transform(
          { name: values.name, key: values.key, description: values.description },
          { type: 'body', metatype: CreateProjectDto },
        )) as CreateProjectDto;
        const project = await projects.createInOrganization(requiredId(values.org, '--org'), dto);
        print(values.quiet ? project.id : project);
        return;
      }
      case 'project:list':
        print(
          (await projects.listInOrganization(requiredId(values.org, '--org'), everything())).data,
        );
        return;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } finally {
    await app.close();
  }
}

/** A refusal as the API words it: every invalid field's message, or the one message. */
function describeApiError(error: ApiError): string {
  const errors = error.details.errors as FieldError[] | undefined;
  return errors ? errors.map((e) => `${e.field}: ${e.message}`).join('\n') : error.message;
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) process.stderr.write(`${error.message}\n\n${USAGE}\n`);
  else if (error instanceof SettingsError) process.stderr.write(`${error.message}\n`);
  else if (error instanceof ApiError) process.stderr.write(`${describeApiError(error)}\n`);
  else process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
