import { Body, Controller, Get, Module, Param, Post } from '@nestjs/common';
import { IsString } from 'class-validator';
import { RequireScopes } from '../../src/routes/access.decorators.js';
import { ApiError } from '../../src/common/errors/api-error.js';
import { ParseIdPipe } from '../../src/common/ids.js';

class ProbeBuild {
  @IsString()
  name!: string;
}

/** Scoped routes that exist only in tests, to drive the access guard from every side. */
@Controller('auth-probe')
class AuthProbeController {
  @Get('builds')
  @RequireScopes('builds:read')
  read(): { ok: true } {
    return { ok: true };
  }

  @Post('builds')
  @RequireScopes('builds:create', 'builds:update')
  create(@Body() body: ProbeBuild): ProbeBuild {
    return body;
  }

  @Get('things/:id')
  @RequireScopes('builds:read')
  thing(@Param('id', new ParseIdPipe('thing')) _id: string): never {
    throw ApiError.notFound('thing');
  }

  @Get('undeclared')
  undeclared(): { leaked: true } {
    return { leaked: true };
  }
}

@Module({ controllers: [AuthProbeController] })
export class AuthProbeModule {}
