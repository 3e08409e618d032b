import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../routes/access.decorators.js';
import { ApiErrors } from '../../common/openapi.decorators.js';
import { SignInOptionsResponse } from '../sessions/dto/session.dto.js';
import { OidcSignInService, type SignInStep } from './oidc-sign-in.service.js';

/** The console's sign-in through an OpenID Connect provider (`OIDC_ISSUER`). */
@ApiTags('internal')
@Controller('internal/v1/session')
export class OidcController {
  constructor(private readonly oidcSignIn: OidcSignInService) {}

  @Get('options')
  @Public()
  @ApiErrors(404)
  @ApiOkResponse({
    type: SignInOptionsResponse,
    description: 'How the sign-in page signs in (no session needed)',
  })
  options(): SignInOptionsResponse {
    return this.oidcSignIn.options();
  }

  @Get('oidc')
  @Public()
  @ApiErrors(404)
  @ApiQuery({
    name: 'redirect',
    required: false,
    description:
      'The console page (`/console/…`) to land on once signed in; any other value lands on the home page',
  })
  @ApiResponse({
    status: 302,
    description:
      "To the provider's sign-in, with a short-lived sealed cookie holding the flow; to the sign-in page (`?refused=provider_unavailable`) when the provider cannot be reached. A session the browser held is ended first",
  })
  async start(
    @Query('redirect') redirect: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    send(res, await this.oidcSignIn.start(req, redirect));
  }

  @Get('oidc/callback')
  @Public()
  @ApiErrors(404)
  @ApiResponse({
    status: 302,
    description:
      'Signed in: `Set-Cookie` holds the session, and the browser goes to the page asked for. Refused: to the sign-in page with `?refused=<reason>`, and no session',
  })
  async callback(@Req() req: Request, @Res() res: Response): Promise<void> {
    send(res, await this.oidcSignIn.finish(req));
  }
}

function send(res: Response, step: SignInStep): void {
  if (step.cookies.length > 0) res.setHeader('Set-Cookie', step.cookies);
  res.setHeader('Cache-Control', 'no-store');
  res.redirect(302, step.location);
}
