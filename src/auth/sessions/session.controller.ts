import { Body, Controller, Delete, Get, Header, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { InternalApi, Public } from '../../routes/access.decorators.js';
import { ApiErrors } from '../../common/openapi.decorators.js';
import { ErrorEnvelopeDto } from '../../common/errors/error-envelope.dto.js';
import { SessionResponse, SignInDto } from './dto/session.dto.js';
import { SessionsService } from './sessions.service.js';

/** The session's description holds its CSRF token: no cache may keep it (CONTRACT §1). */
const NOT_STORED = 'no-store';

/** The console's sign-in: a session cookie instead of the operator token in the browser. */
@ApiTags('internal')
@Controller('internal/v1/session')
export class SessionController {
  constructor(private readonly sessions: SessionsService) {}

  @Post()
  @Public()
  @Header('Cache-Control', NOT_STORED)
  @ApiErrors(400, 404, 415)
  @ApiResponse({ status: 401, description: 'Wrong operator token', type: ErrorEnvelopeDto })
  @ApiResponse({
    status: 403,
    description:
      'Sign-in goes through the OpenID provider (`OIDC_ISSUER` set): the token is refused',
    type: ErrorEnvelopeDto,
  })
  @ApiResponse({
    status: 429,
    description: 'Too many wrong operator tokens from this address (`Retry-After`)',
    type: ErrorEnvelopeDto,
  })
  @ApiCreatedResponse({
    type: SessionResponse,
    description: 'Signed in: `Set-Cookie` holds the session (httpOnly, Secure, SameSite=Strict)',
  })
  async signIn(
    @Body() dto: SignInDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SessionResponse> {
    const { session, cookie } = await this.sessions.signInWithToken(dto, req);
    res.setHeader('Set-Cookie', cookie);
    return session;
  }

  @Get()
  @InternalApi()
  @Header('Cache-Control', NOT_STORED)
  @ApiOkResponse({ type: SessionResponse, description: 'The session of the cookie sent' })
  describe(@Req() req: Request): Promise<SessionResponse> {
    return this.sessions.describe(req);
  }

  @Delete()
  @InternalApi()
  @HttpCode(204)
  @ApiNoContentResponse({
    description: 'Signed out: the session is deleted and its cookie cleared',
  })
  async signOut(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    res.setHeader('Set-Cookie', await this.sessions.signOut(req));
  }
}
