import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module.js';
import { IdentityProvider } from './identity-provider.js';
import { OidcController } from './oidc.controller.js';
import { OidcSignInService } from './oidc-sign-in.service.js';

/** Console sign-in through an OpenID Connect provider, ending in a console session. */
@Module({
  imports: [SessionsModule],
  controllers: [OidcController],
  providers: [IdentityProvider, OidcSignInService],
})
export class OidcModule {}
